import ArchivistTestSupport
import ArchivistArchive
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// A note as an app archived it with plain NSCoding (an inline integer, so a
/// secure decoder refuses it until the migration boxes it).
final class Note: NSObject, NSCoding {
    let text: String, stars: Int
    init(text: String, stars: Int) { self.text = text; self.stars = stars }
    func encode(with coder: NSCoder) {
        coder.encode(text, forKey: "text")
        coder.encode(stars, forKey: "stars")
    }
    init?(coder: NSCoder) { nil }
}

/// `BlobColumn`, `StoreMigration` and `ColumnFill` on stores made with the
/// system SQLite and blobs written by Foundation's NSKeyedArchiver.
final class StoreTests: XCTestCase {
    var path = ""
    let notes = BlobColumn(table: "ZNOTE", column: "ZBODY")

    override func setUpWithError() throws {
        path = try makeScratchFolder("store").path("store.sqlite")
        let db = try SQLiteDatabase.create(path: path)
        try db.execute("CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, ZTITLE VARCHAR, ZBODY BLOB)")
        let insert = try db.prepare("INSERT INTO ZNOTE (ZTITLE, ZBODY) VALUES (?, ?)")
        for (i, text) in ["first", "second", "third"].enumerated() {
            let data = try NSKeyedArchiver.archivedData(withRootObject: Note(text: text, stars: i + 1), requiringSecureCoding: false)
            insert.reset()
            try insert.bind(1, text: text)
            try insert.bind(2, blob: [UInt8](data))
            _ = try insert.step()
        }
        _ = try db.prepare("INSERT INTO ZNOTE (ZTITLE, ZBODY) VALUES ('empty', NULL)").step()
    }

    var rules: MigrationRules {
        get throws {
            try MigrationRules(bytes: Array("""
                {"classes": {"\(NSStringFromClass(Note.self))": {"renameTo": "Notes.Note", "keys": {"stars": {"box": true}}}},
                 "allowedClasses": ["Notes.Note"]}
                """.utf8))
        }
    }

    func testColumnsAreCheckedAndNamed() throws {
        let db = try SQLiteDatabase(path: path, readOnly: true)
        XCTAssertEqual(try BlobColumn.blobColumns(in: db), [notes])
        XCTAssertEqual(try BlobColumnSummary.scan(db).map { "\($0.column.label) \($0.archives)/\($0.blobs)" }, ["ZNOTE.ZBODY 3/3"])
        var rows: [Int64] = []
        try notes.forEachBlob(in: db) { row, _ in rows.append(row) }
        XCTAssertEqual(rows, [1, 2, 3], "the NULL row is skipped")
        XCTAssertThrowsError(try BlobColumn(table: "ZNOTE", column: "ZTITLE").check(in: db)) { error in
            XCTAssertEqual((error as? PlistError)?.message, "ZNOTE.ZTITLE holds no blobs (its values: 4 text); blob columns: ZNOTE.ZBODY")
        }
        XCTAssertThrowsError(try BlobColumn(table: "ZNOTES", column: "ZBODY").check(in: db)) { error in
            XCTAssertEqual((error as? PlistError)?.message, "no table ZNOTES in \(self.path) (blob columns: ZNOTE.ZBODY)")
        }
        XCTAssertThrowsError(try notes.forEachBlob(in: db, row: 4) { _, _ in }) { error in
            XCTAssertEqual((error as? PlistError)?.message, "row 4 of ZNOTE.ZBODY is NULL (no value, so nothing to read)")
        }
        XCTAssertThrowsError(try notes.blob(row: 9, in: db)) { error in
            XCTAssertEqual((error as? PlistError)?.message, "ZNOTE has no row 9")
        }
    }

    func testMigrationIsOneTransactionAndDecodesSecurely() throws {
        let db = try SQLiteDatabase(path: path)
        let policy = SecurePolicy(rules: try rules)
        try notes.forEachBlob(in: db) { _, bytes in
            XCTAssertFalse(try SecureCodingCheck.errors(in: try PropertyList.read(bytes).tree, policy: policy).isEmpty)
        }
        let outcome = try StoreMigration(column: notes, migrator: Migrator(rules: try rules)).run(on: db)
        XCTAssertEqual(outcome.migrated.map(\.row), [1, 2, 3])
        XCTAssertEqual(outcome.unchanged, 0)
        var stars: [Int] = []
        try notes.forEachBlob(in: db) { _, bytes in
            let tree = try PropertyList.read(bytes).tree
            XCTAssertEqual(try SecureCodingCheck.errors(in: tree, policy: policy), [])
            // Foundation reads the blob: the stars are an NSNumber object now.
            let plist = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
            stars += (plist["$objects"] as? [Any] ?? []).compactMap { ($0 as? NSNumber).map(\.intValue) }
        }
        XCTAssertEqual(stars.sorted(), [1, 2, 3])
        XCTAssertEqual(try StoreMigration(column: notes, migrator: Migrator(rules: try rules)).run(on: db).unchanged, 3)
    }

    func testAFailingRowRollsEverythingBack() throws {
        let db = try SQLiteDatabase(path: path)
        _ = try db.prepare("UPDATE ZNOTE SET ZBODY = x'62706c6973743030ff' WHERE Z_PK = 2").step()
        let before = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertThrowsError(try StoreMigration(column: notes, migrator: Migrator(rules: try rules)).run(on: db)) { error in
            XCTAssertEqual((error as? StoreMigration.Failure)?.row, 2)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), before, "the store is byte for byte as it was")

        var migration = StoreMigration(column: notes, migrator: Migrator(rules: try rules))
        migration.keepGoing = true
        let outcome = try migration.run(on: db)
        XCTAssertEqual(outcome.migrated.map(\.row), [1, 3])
        XCTAssertEqual(outcome.failures.map(\.row), [2])
    }

    func testColumnFillAddsAColumnInOneTransaction() throws {
        let db = try SQLiteDatabase(path: path)
        let exportRules = try rules
        let fill = ColumnFill(source: notes, target: "ZBODYJSON")
        let outcome = try fill.run(on: db) { bytes in
            try PropertyList.write(try CodableExport.value(PropertyList.read(bytes).tree, rules: exportRules), as: .json)
        }
        XCTAssertTrue(outcome.addedColumn)
        XCTAssertEqual(outcome.written, [1, 2, 3])
        struct NoteJSON: Decodable, Equatable { var text: String; var stars: Int }
        var decoded: [NoteJSON] = []
        try BlobColumn(table: "ZNOTE", column: "ZBODYJSON").forEachBlob(in: db) { _, bytes in
            decoded.append(try JSONDecoder().decode(NoteJSON.self, from: Data(bytes)))
        }
        XCTAssertEqual(decoded, [NoteJSON(text: "first", stars: 1), NoteJSON(text: "second", stars: 2), NoteJSON(text: "third", stars: 3)])
        XCTAssertThrowsError(try ColumnFill(source: notes, target: "ZTITLE").check(in: db), "a text column is not overwritten")
        XCTAssertThrowsError(try ColumnFill(source: notes, target: "ZBODY").check(in: db), "nor the source")
    }

    /// The backup written inside the migration's transaction is the store it
    /// started from; a second backup of the unchanged store is kept as it is,
    /// one of a changed store is refused.
    func testBackupInsideTheTransactionIsKeptWhenIdenticalAndNeverOverwritten() throws {
        let db = try SQLiteDatabase(path: path)
        let backup = path + ".bak"
        defer { unlink(backup) }
        XCTAssertEqual(try db.backup(to: backup).written, true)
        let first = FileManager.default.contents(atPath: backup)
        XCTAssertEqual(try db.backup(to: backup).written, false, "the same copy: kept")
        var inside: BackupOutcome?
        let outcome = try StoreMigration(column: notes, migrator: Migrator(rules: try rules)).run(on: db) { inside = try db.backup(to: backup) }
        XCTAssertEqual(inside?.written, false, "inside the write transaction, the copy is the store before the migration")
        XCTAssertEqual(outcome.migrated.count, 3)
        XCTAssertThrowsError(try db.backup(to: backup), "the store changed: the backup is not its copy") { error in
            XCTAssertEqual((error as? BackupExists)?.path, backup)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: backup), first)
        XCTAssertFalse(FileManager.default.fileExists(atPath: backup + ".archivist-partial"))
    }

    /// Rows are addressed by their row id, not by a column named `rowid`;
    /// every value that is not NULL is visited.
    func testRowsAreAddressedByTheirRowIDAndEveryValueIsVisited() throws {
        let db = try SQLiteDatabase(path: path)
        try db.execute("""
            CREATE TABLE T (rowid TEXT, Z BLOB);
            INSERT INTO T VALUES ('a', x'01'), ('a', 'text'), ('b', 42), ('c', NULL), ('d', 1.5);
            """)
        let column = BlobColumn(table: "T", column: "Z")
        var values: [String] = []
        try column.forEachValue(in: db) { row, value in values.append("\(row) \(value.typeName)") }
        XCTAssertEqual(values, ["1 blob", "2 text", "3 integer", "5 real"])
        XCTAssertEqual(try column.value(row: 2, in: db), .text(Array("text".utf8)))
        XCTAssertEqual(try db.rowID(of: "T"), "_rowid_")
        try db.execute("CREATE TABLE U (_rowid_, rowid, oid, Z BLOB)")
        XCTAssertThrowsError(try db.rowID(of: "U"))
        try db.execute("CREATE TABLE W (id INTEGER PRIMARY KEY, Z BLOB) WITHOUT ROWID")
        XCTAssertThrowsError(try db.rowID(of: "W")) { error in
            XCTAssertTrue((error as? PlistError)?.message.hasPrefix("W is a WITHOUT ROWID table") == true, "\(error)")
        }
    }
}
