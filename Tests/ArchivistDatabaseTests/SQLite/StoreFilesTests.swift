import ArchivistTestSupport
import ArchivistCore
@testable import ArchivistDatabase
import Foundation
import XCTest

/// What the SQLite wrapper does to the files of a store (issue 34): a backup
/// never lands on a file SQLite deletes, an update a trigger skipped is
/// reported, and reading makes nothing beside the store.
final class StoreFilesTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = try makeScratchFolder("store-files").path
    }

    private func store() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase.create(path: folder + "/s.sqlite")
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB); INSERT INTO t VALUES (1, x'01'), (2, x'02'), (3, x'03')")
        return db
    }

    func testBackupRefusesTheStoresOwnFiles() throws {
        let db = try store()
        try db.transaction(write: true) {
            for name in ["s.sqlite-journal", "s.sqlite-wal", "s.sqlite-shm", "s.sqlite"] {
                XCTAssertThrowsError(try db.backup(to: folder + "/" + name), name) { error in
                    XCTAssertTrue("\(error)".contains("which SQLite deletes or replays"), "\(error)")
                }
            }
            XCTAssertTrue(try db.backup(to: folder + "/s.sqlite-journal.bak").written)
            return false
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["s.sqlite", "s.sqlite-journal.bak"])
    }

    func testUpdatesATriggerSkippedAreReported() throws {
        let db = try store()
        try db.execute("CREATE TRIGGER keep BEFORE UPDATE ON t WHEN old.id = 2 BEGIN SELECT RAISE(IGNORE); END")
        try db.execute("CREATE TRIGGER refuse BEFORE UPDATE ON t WHEN old.id = 3 BEGIN SELECT RAISE(ABORT, 'no'); END")
        var notChanged: [(rowid: Int64, error: PlistError)] = []
        try db.transaction(write: true) {
            notChanged = try db.updateValues(table: "t", column: "v", rowID: "id", [(1, .blob([9])), (2, .blob([9])), (3, .blob([9]))])
            return true
        }
        XCTAssertEqual(notChanged.map(\.rowid), [2, 3])
        XCTAssertEqual(try BlobColumn(table: "t", column: "v").blob(row: 1, in: db), [9])
        XCTAssertEqual(try BlobColumn(table: "t", column: "v").blob(row: 2, in: db), [2])
        XCTAssertEqual(try BlobColumn(table: "t", column: "v").blob(row: 3, in: db), [3])
    }

    func testAWALStoreIsReadWithItsLogAndNothingBesideIt() throws {
        let db = try store()
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; INSERT INTO t VALUES (4, x'04')")
        let evidence = folder + "/evidence"
        try FileManager.default.createDirectory(atPath: evidence, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: folder + "/s.sqlite" + suffix, toPath: evidence + "/s.sqlite" + suffix) }
        do {
            let (reader, warning) = try SQLiteDatabase.openForReading(path: evidence + "/s.sqlite")
            XCTAssertNil(warning)
            XCTAssertEqual(try BlobColumn(table: "t", column: "v").blob(row: 4, in: reader), [4], "the row only in the log")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: evidence).sorted(), ["s.sqlite", "s.sqlite-wal"])
            let copy = try XCTUnwrap(reader.privateCopy)
            XCTAssertTrue(FileManager.default.fileExists(atPath: copy + "/store"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: evidence).sorted(), ["s.sqlite", "s.sqlite-wal"])
    }

    func testBlobsAreSortedIntoPropertyListsAndOtherData() throws {
        let binary = try PropertyList.write(.dictionary(PlistDictionary([("a", .int(1))])), as: .binary)
        XCTAssertEqual(BlobContent.of(binary), .marked)
        XCTAssertEqual(BlobContent.of(Array("bplist00 broken".utf8)), .marked, "broken, but it says it is one: an error when read")
        XCTAssertEqual(BlobContent.of(Array("<?xml version=\"1.0\"?><plist/>".utf8)), .marked)
        XCTAssertEqual(BlobContent.of(Array("{\"a\": 1}".utf8)), .text)
        XCTAssertEqual(BlobContent.of(Array("$".utf8)), .other("text"), "one byte is no property list")
        XCTAssertEqual(BlobContent.of(Array("{".utf8)), .other("text"))
        XCTAssertEqual(BlobContent.of([0x1F, 0x8B, 0x08, 0x00]), .other("gzip data"))
        XCTAssertEqual(BlobContent.of(Array("PK\u{3}\u{4}rest".utf8)), .other("zip archive"))
        XCTAssertEqual(BlobContent.of(Array("SQLite format 3\u{0}".utf8)), .other("SQLite database"))
        XCTAssertEqual(BlobContent.of([0x10]), .other("binary data"))
        XCTAssertEqual(BlobContent.of([0x25, 0xFF, 0x27]), .other("binary data"), "not UTF-8")
    }
}
