import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore

/// Staged results: nothing changes before the commit, everything is in place
/// after it, and a result that cannot be placed leaves its destination as it was.
final class WriteBatchTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        let scratch = try makeScratchFolder("archivist-writebatch")
        dir = scratch.path
        try FileManager.default.createDirectory(at: scratch.url("sub"), withIntermediateDirectories: true)
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

    /// A commit of the items up to one places theirs and keeps the later
    /// items' files staged: a batch committed a chunk at a time keeps no more
    /// than a chunk of staged files.
    func testACommitThroughAnItemKeepsTheLaterOnesStaged() throws {
        let batch = WriteBatch()
        var mostPending = 0
        for item in 0..<10 {
            try batch.stage(try foundationBinary(["v": item]), to: dir + "/f\(item).plist", item: item)
            mostPending = max(mostPending, batch.pendingCount)
            // Every 4 items, as a batch session commits every chunk.
            if (item + 1) % 4 == 0 { XCTAssertEqual(batch.commit(through: item), []) }
        }
        XCTAssertEqual(mostPending, 4)
        XCTAssertEqual(batch.pendingCount, 2)
        XCTAssertEqual(try listing(dir).filter { !$0.hasPrefix(".") && $0 != "sub" }.count, 8)
        // Staged out of order (jobs run ahead): only the items up to 11 are placed.
        try batch.stage(try foundationBinary(["v": 13]), to: dir + "/f13.plist", item: 13)
        try batch.stage(try foundationBinary(["v": 11]), to: dir + "/f11.plist", item: 11)
        XCTAssertEqual(batch.commit(through: 11), [])
        XCTAssertEqual(batch.pendingCount, 1)
        XCTAssertFalse(FileIO.exists(dir + "/f13.plist"))
        XCTAssertTrue(FileIO.exists(dir + "/f11.plist"))
        XCTAssertEqual(batch.commit(), [])
        XCTAssertEqual(batch.pendingCount, 0)
        XCTAssertEqual(try listing(dir).filter { !$0.hasPrefix(".") && $0 != "sub" }.count, 12)
        XCTAssertEqual(try listing(dir).filter { $0.hasPrefix(".") }, [], "no temporary file is left")
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

    /// An input rewritten by someone else after it was read and before its
    /// in-place result is put in place is left as they wrote it: the item
    /// fails with `changed while converting`, the others are replaced. So is
    /// an input replaced by a rename (a new file), and its backup is not made.
    func testAnInputChangedWhileConvertingIsLeftAsItWas() throws {
        let names = ["a", "b", "c"].map { dir + "/\($0).plist" }
        for name in names {
            XCTAssertTrue(FileManager.default.createFile(atPath: name, contents: Data(try foundationBinary(["k": name]))))
        }
        let batch = WriteBatch()
        let converter = BatchConverter(items: names.map { BatchItem(source: $0) }, format: .xml, target: .inPlace,
                                       backupSuffix: ".orig", staging: batch)
        for i in names.indices { XCTAssertEqual(try converter.convert(i).status, .converted) }
        // b is written over (a different size), c is replaced by a rename.
        let theirs = Data("someone else's edit".utf8)
        try theirs.write(to: URL(fileURLWithPath: names[1]))
        try theirs.write(to: URL(fileURLWithPath: names[2]), options: .atomic)
        let failures = batch.commit()
        XCTAssertEqual(failures.map(\.item), [1, 2])
        for failure in failures {
            XCTAssertEqual(failure.error.message, "\(names[failure.item]) changed while converting; it was left as it is (run again to convert what it holds now)")
        }
        XCTAssertEqual(try FileIO.read(names[1]), [UInt8](theirs))
        XCTAssertEqual(try FileIO.read(names[2]), [UInt8](theirs))
        XCTAssertFalse(FileIO.exists(names[1] + ".orig"), "no backup of what was not replaced")
        XCTAssertTrue(String(decoding: try FileIO.read(names[0]), as: UTF8.self).hasPrefix("<?xml"))
        XCTAssertEqual(try FileIO.read(names[0] + ".orig"), try foundationBinary(["k": names[0]]))
        XCTAssertEqual(try listing(dir).filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }

    /// A rewrite the stamp cannot see (the same size, the modification time
    /// set back, as a new file given the read file's freed inode number
    /// within the timestamp granularity also looks) is still seen: the bytes
    /// differ, so the item fails and the rewrite is kept.
    func testARewriteWithTheSameStampIsLeftAsItWas() throws {
        let input = dir + "/in.plist"
        let ours = try foundationBinary(["k": "aaaa"])
        XCTAssertTrue(FileManager.default.createFile(atPath: input, contents: Data(ours)))
        var before = stat()
        XCTAssertEqual(stat(input, &before), 0)
        let batch = WriteBatch()
        let converter = BatchConverter(items: [BatchItem(source: input)], format: .xml, target: .inPlace, staging: batch)
        XCTAssertEqual(try converter.convert(0).status, .converted)
        // Someone writes into the same file (same inode), as long as it was,
        // and sets its modification time back.
        let theirs = try foundationBinary(["k": "bbbb"])
        XCTAssertEqual(theirs.count, ours.count)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: input))
        handle.write(Data(theirs))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, input, &times, 0), 0)
        var after = stat()
        XCTAssertEqual(stat(input, &after), 0)
        XCTAssertTrue(FileStamp(after).sameContent(as: FileStamp(before)), "the stamp cannot tell")
        let failures = batch.commit()
        XCTAssertEqual(failures.map(\.error.message), ["\(input) changed while converting; it was left as it is (run again to convert what it holds now)"])
        XCTAssertEqual(try FileIO.read(input), theirs)
        XCTAssertEqual(try listing(dir).filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }

    /// Putting back a changed file that our result was exchanged with: when
    /// our result is still at the target, the changed file returns there;
    /// when a save replaced our result meanwhile, that newer save stays and
    /// the older changed file goes (the put-back exchanges again).
    func testPuttingBackKeepsASaveThatLandedMeanwhile() throws {
        let target = dir + "/f.plist", temporary = dir + "/.f.plist.tmp"
        let folder = try Folder.open(dir)
        func write(_ text: String, _ path: String) {
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        }
        // Our result at the target, the changed file at the temporary name.
        write("ours", target)
        write("changed", temporary)
        var ours = PinnedFile("f.plist", in: folder)
        try FileIO.putBack(temporary: ".f.plist.tmp", target: "f.plist", in: folder, ours: ours, path: target)
        ours.release()
        XCTAssertEqual(try FileIO.read(target), Array("changed".utf8))
        XCTAssertFalse(FileIO.exists(temporary))

        // A newer save replaced our result at the target before the put-back.
        write("ours", dir + "/ours")
        ours = PinnedFile("ours", in: folder)
        write("changed", temporary)
        write("newer save", target)
        try FileIO.putBack(temporary: ".f.plist.tmp", target: "f.plist", in: folder, ours: ours, path: target)
        ours.release()
        XCTAssertEqual(try FileIO.read(target), Array("newer save".utf8))
        XCTAssertFalse(FileIO.exists(temporary))
    }

    /// The digest of a file read a piece at a time is the digest of its
    /// bytes in memory, at every length around the pieces' size; one bit
    /// changed anywhere changes it.
    func testContentDigestOfAFileIsThatOfItsBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let path = dir + "/digest"
        for count in [0, 1, 15, 16, 17, 31, 1000, 65_535, 65_536, 65_537, 131_072, 200_003] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let inMemory = bytes.withUnsafeBytes { ContentDigest($0) }
            XCTAssertEqual(ContentDigest(file: path), inMemory, "\(count) bytes")
            guard count > 0 else { continue }
            var flipped = bytes
            flipped[Int.random(in: 0..<count)] ^= 1 << UInt8.random(in: 0...7)
            XCTAssertNotEqual(flipped.withUnsafeBytes { ContentDigest($0) }, inMemory, "\(count) bytes, one bit changed")
            // A trailing zero byte is not the same content.
            XCTAssertNotEqual((bytes + [0]).withUnsafeBytes { ContentDigest($0) }, inMemory, "\(count) bytes and a zero")
        }
        XCTAssertNil(ContentDigest(file: dir + "/absent"))
        XCTAssertNil(ContentDigest(file: dir), "a folder has no digest")
    }

    /// A backup that appears between staging and the commit is not replaced.
    func testABackupThatAppearedMeanwhileIsKept() throws {
        let input = dir + "/in.plist"
        XCTAssertTrue(FileManager.default.createFile(atPath: input, contents: Data(try foundationBinary(["k": 1]))))
        let batch = WriteBatch()
        let converter = BatchConverter(items: [BatchItem(source: input)], format: .xml, target: .inPlace, backupSuffix: ".bak", staging: batch)
        XCTAssertEqual(try converter.convert(0).status, .converted)
        try Data("user's file".utf8).write(to: URL(fileURLWithPath: input + ".bak"))
        let failures = batch.commit()
        XCTAssertEqual(failures.map(\.error.message), ["refusing to overwrite \(input).bak: a backup is never overwritten (move it away, or choose another --backup suffix)"])
        XCTAssertEqual(try FileIO.read(input + ".bak"), Array("user's file".utf8))
        XCTAssertEqual(try FileIO.read(input), try foundationBinary(["k": 1]), "no result replaces an original whose backup failed")
    }
}
