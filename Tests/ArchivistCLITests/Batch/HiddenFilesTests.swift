import ArchivistTestSupport
import Foundation
import XCTest

/// A folder walk leaves hidden entries out (as `ls` does) unless `--hidden`
/// asks for them: a `.DS_Store` beside the plists is then read by its
/// content, and hidden folders are walked.
extension CLITests {
    func testHiddenFilesAreWalkedOnlyWithHidden() throws {
        let folder = work.appendingPathComponent("Folder")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".settings"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.corpus.appendingPathComponent("beside/Finder.DS_Store"),
                                         to: folder.appendingPathComponent(".DS_Store"))
        _ = make("Folder/Info.plist", #"{"a" = 1;}"#)
        _ = make("Folder/.settings/Hidden.plist", #"{"b" = 2;}"#)

        let plain = try run(["lint", "-r", "Folder"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout, "Folder/Info.plist: OK\n")

        let hidden = try run(["lint", "-r", "--hidden", "Folder"])
        XCTAssertEqual(hidden.status, 0, hidden.stderr)
        XCTAssertEqual(hidden.stdout.split(separator: "\n").sorted(),
                       ["Folder/.DS_Store: OK", "Folder/.settings/Hidden.plist: OK", "Folder/Info.plist: OK"])

        // Named, a hidden file is always read.
        let named = try run(["get", "Folder/.DS_Store", "Report\\.pdf.cmmt"])
        XCTAssertEqual(named.stdout, "Quarterly figures\n", named.stderr)
    }
}
