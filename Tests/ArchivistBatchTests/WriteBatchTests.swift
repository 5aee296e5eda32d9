import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore

/// Staged results: nothing changes before the commit, everything is in place
/// after it, and a result that cannot be placed leaves its destination as it was.
final class WriteBatchTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-writebatch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A binary plist written by Foundation.
    func foundationBinary(_ value: Any) throws -> [UInt8] {
        [UInt8](try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0))
    }

    func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func testNothingChangesUntilTheCommitThenEverythingIsInPlace() throws {
        let old = dir + "/old.plist"
        let oldBytes = try foundationBinary(["v": 1])
        XCTAssertTrue(FileManager.default.createFile(atPath: old, contents: Data(oldBytes)))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: old)
        let batch = WriteBatch()
        let results = try (0..<3).map { try foundationBinary(["v": $0 + 10]) }
        try batch.stage(results[0], to: old, item: 0)
        try batch.stage(results[1], to: dir + "/new.plist", item: 1)
        try batch.stage(results[2], to: dir + "/sub/deeper.plist", item: 2)

        // Staged: the destinations are as they were, the results only hidden temporary files.
        XCTAssertEqual(try FileIO.read(old), oldBytes)
        XCTAssertFalse(FileIO.exists(dir + "/new.plist"))
        XCTAssertEqual(try listing(dir).filter { !$0.hasPrefix(".") }, ["old.plist", "sub"])
        XCTAssertEqual(try listing(dir).filter { $0.contains(".archivist-") }.count, 2)

        XCTAssertEqual(batch.commit(), [])
        for (path, value) in [(old, 10), (dir + "/new.plist", 11), (dir + "/sub/deeper.plist", 12)] {
            let read = try PropertyListSerialization.propertyList(from: Data(try FileIO.read(path)), format: nil) as? [String: Int]
            XCTAssertEqual(read, ["v": value], path)
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: old)[.posixPermissions] as? Int, 0o640)
        XCTAssertEqual(try listing(dir), ["new.plist", "old.plist", "sub"], "no temporary file is left")
        XCTAssertEqual(try listing(dir + "/sub"), ["deeper.plist"])
        XCTAssertEqual(batch.commit(), [], "a commit empties the batch")
    }

    func testAResultThatCannotBePlacedLeavesItsDestinationAndStopsTheItem() throws {
        let source = dir + "/Data.plist"
        let original = try foundationBinary(["name": "original"])
        XCTAssertTrue(FileManager.default.createFile(atPath: source, contents: Data(original)))
        let batch = WriteBatch()
        // Item 0: a backup, then the result that replaces the original.
        try batch.stage(original, to: source + ".bak", item: 0)
        try batch.stage(try foundationBinary(["name": "migrated"]), to: source, item: 0)
        try batch.stage(try foundationBinary(["name": "other"]), to: dir + "/other.plist", item: 1)
        // The backup's destination becomes a folder before the commit: its
        // rename fails, so the original must not be replaced either.
        try FileManager.default.createDirectory(atPath: source + ".bak/inside", withIntermediateDirectories: true)

        let failures = batch.commit()
        XCTAssertEqual(failures.map(\.item), [0])
        XCTAssertEqual(failures.first?.error.kind, .io)
        XCTAssertTrue(failures.first?.error.message.hasPrefix("cannot write \(source).bak: ") ?? false, "\(failures)")
        XCTAssertEqual(try FileIO.read(source), original, "the original stays when its backup could not be placed")
        let other = try PropertyListSerialization.propertyList(from: Data(try FileIO.read(dir + "/other.plist")), format: nil) as? [String: String]
        XCTAssertEqual(other, ["name": "other"])
        XCTAssertEqual(try listing(dir), ["Data.plist", "Data.plist.bak", "other.plist", "sub"], "no temporary file is left")
    }

    func testStagingRefusesAFolderAndLeavesNothing() throws {
        let batch = WriteBatch()
        XCTAssertThrowsError(try batch.stage([1], to: dir + "/sub", item: 0)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.io, "cannot write \(dir)/sub: Is a directory"))
        }
        XCTAssertThrowsError(try batch.stage([1], to: dir + "/missing/x.plist", item: 1))
        XCTAssertEqual(batch.commit(), [])
        XCTAssertEqual(try listing(dir), ["sub"])
    }

    func testConverterStagesUntilTheCommit() throws {
        let input = dir + "/in.plist"
        XCTAssertTrue(FileManager.default.createFile(atPath: input, contents: Data(try foundationBinary(["k": [1, 2]]))))
        let batch = WriteBatch()
        let converter = BatchConverter(items: [BatchItem(source: input)], format: .xml, target: .directory(dir + "/out"), staging: batch)
        try converter.prepare()
        let written = try converter.convert(0)
        XCTAssertEqual(written.status, .converted)
        XCTAssertFalse(FileIO.exists(dir + "/out/in.plist"), "not in place before the commit")
        XCTAssertEqual(batch.commit(), [])
        var format = PropertyListSerialization.PropertyListFormat.binary
        let read = try PropertyListSerialization.propertyList(from: Data(try FileIO.read(dir + "/out/in.plist")), format: &format)
        XCTAssertEqual(read as? [String: [Int]], ["k": [1, 2]])
        XCTAssertEqual(format, .xml)
    }
}
