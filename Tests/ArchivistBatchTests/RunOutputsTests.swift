import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore

/// `RunOutputs` tells files apart however they are spelled: existing files
/// by device and inode (links, hard links), files not yet made by their
/// nearest existing folder and the rest of the path; special files are exempt.
final class RunOutputsTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        let scratch = try makeScratchFolder("archivist-outputs")
        dir = scratch.path
        try FileManager.default.createDirectory(at: scratch.url("sub"), withIntermediateDirectories: true)
    }

    private func refusal(_ body: () throws -> Void) -> RunOutputs.Refusal? {
        do {
            try body()
            return nil
        } catch {
            return error as? RunOutputs.Refusal
        }
    }

    func testExistingFilesAreComparedByIdentity() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/in.plist", contents: Data("x".utf8)))
        try FileManager.default.linkItem(atPath: dir + "/in.plist", toPath: dir + "/hard.plist")
        try FileManager.default.createSymbolicLink(atPath: dir + "/soft.plist", withDestinationPath: "in.plist")
        var plan = RunOutputs()
        plan.read(dir + "/in.plist", as: .rules)
        for spelling in ["/hard.plist", "/soft.plist", "/sub/../in.plist"] {
            guard case .conflict(let error)? = refusal({ try plan.claim(dir + spelling, as: .report) }) else {
                return XCTFail("\(spelling) was granted")
            }
            XCTAssertTrue(error.message.contains("it is the rules file \(dir)/in.plist"), error.message)
        }
        XCTAssertNil(refusal { try plan.claim("/dev/null", as: .report) }, "devices are exempt")
        XCTAssertNil(refusal { try plan.claim("-", as: .report) })
    }

    func testFilesNotYetMadeAreComparedByFolderAndName() throws {
        var plan = RunOutputs()
        XCTAssertFalse(try plan.claim(dir + "/sub/new.json", as: .backup(of: "a")))
        XCTAssertNotNil(refusal { try plan.claim(dir + "/./sub/../sub/new.json", as: .report) })
        // A dangling link leads to the name it names.
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: "sub/new.json")
        XCTAssertNotNil(refusal { try plan.claim(dir + "/dangling", as: .report) })
        // Missing folders: refused unless the run makes them, then keyed below the nearest folder.
        guard case .noSuchFolder(let error)? = refusal({ try plan.claim(dir + "/out/a/x.json", as: .result(of: "x")) }) else {
            return XCTFail("a missing folder was granted")
        }
        XCTAssertEqual(error.message, "cannot write \(dir)/out/a/x.json: no such folder \(dir)/out/a")
        XCTAssertFalse(try plan.claim(dir + "/out/a/x.json", as: .result(of: "x"), makesFolders: true))
        XCTAssertNil(refusal { try plan.claim(dir + "/out/a/y.json", as: .result(of: "y"), makesFolders: true) })
        guard case .conflict(let clash)? = refusal({ try plan.claim(dir + "/out/a/x.json", as: .report, makesFolders: true) }) else {
            return XCTFail("the report was granted over a result")
        }
        XCTAssertTrue(clash.message.contains("it is the result of x"), clash.message)
    }
}
