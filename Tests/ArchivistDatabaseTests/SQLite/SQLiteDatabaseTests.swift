import ArchivistTestSupport
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// The public face of the SQLite wrapper: opening (never creating), reading
/// without changing the file, the tables a store holds.
final class SQLiteDatabaseTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = try makeScratchFolder("sqlite").path
    }

    private func store(_ sql: String) throws -> String {
        let path = folder + "/store.sqlite"
        let db = try SQLiteDatabase.create(path: path)
        try db.execute(sql)
        return path
    }

    func testTablesAreTheStoresOwnInNameOrder() throws {
        let path = try store("CREATE TABLE b (x); CREATE TABLE A (y); CREATE INDEX i ON b (x); INSERT INTO b VALUES (1); ANALYZE;")
        let (db, warning) = try SQLiteDatabase.openForReading(path: path)
        XCTAssertNil(warning)
        XCTAssertEqual(try db.tables(), ["A", "b"], "no sqlite_stat1, no index")
        XCTAssertEqual(db.path, path)
    }

    /// Reading leaves the file as it was: same bytes, same modification
    /// time, no journal or write-ahead log beside it.
    func testReadingChangesNothing() throws {
        let path = try store("CREATE TABLE t (v BLOB); INSERT INTO t VALUES (x'00ff');")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        do {
            let (db, _) = try SQLiteDatabase.openForReading(path: path)
            var seen: [StoredValue?] = []
            try BlobColumn(table: "t", column: "v").forEachRow(in: db, selection: RowSelection()) { seen.append($0.value) }
            XCTAssertEqual(seen.compactMap { $0?.bytes }, [[0x00, 0xff]])
            _ = try db.tables()
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, modified)
        for suffix in ["-journal", "-wal"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + suffix), suffix)
        }
    }

    /// A missing store is an error naming it, for reading and for writing,
    /// and no file is made.
    func testAMissingStoreIsNeverCreated() throws {
        let missing = folder + "/missing.sqlite"
        for readOnly in [true, false] {
            XCTAssertThrowsError(try SQLiteDatabase(path: missing, readOnly: readOnly)) { error in
                XCTAssertTrue((error as? PlistError)?.message.contains(missing) ?? false, "\(error)")
            }
        }
        XCTAssertThrowsError(try SQLiteDatabase.openForReading(path: missing))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    /// A file that is not a database is refused when first read, by name.
    func testAFileThatIsNoDatabaseIsRefused() throws {
        let path = folder + "/notes.sqlite"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 4096)))
        XCTAssertThrowsError(try SQLiteDatabase.openForReading(path: path)) { error in
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }
}
