import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// Which rows a store command reads and writes (issue 24, items 8 and 9):
/// rows are addressed by their real row id whatever the columns are named,
/// and every value that is not NULL is counted.
extension CLITests {
    /// A store of one table `T` made by `schema`, its rows' `Z` holding the archives of contacts.
    func makeTable(_ name: String, schema: String, rows: [(sql: String, email: String)]) throws -> String {
        let db = try SQLiteDatabase.create(path: work.appendingPathComponent(name).path)
        try db.execute(schema)
        for row in rows {
            let insert = try db.prepare(row.sql)
            try insert.bind(1, blob: try contactArchive(email: row.email))
            _ = try insert.step()
        }
        return name
    }

    /// `(real row id, the email in its blob)` for every row of `T`, read by SQL.
    func emailsByRow(_ store: String, table: String = "T") throws -> [String] {
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path, readOnly: true)
        let s = try db.prepare("SELECT _rowid_, Z FROM \(table) ORDER BY _rowid_")
        var found: [String] = []
        while try s.step() {
            let text = String(decoding: s.blob(1) ?? [], as: UTF8.self)
            let email = ["a@example.com", "b@example.com", "c@example.com"].first { text.contains($0) } ?? "?"
            found.append("\(s.int(0)) \(email) \(text.contains("ContactsCore.Contact") ? "v2" : "v1")")
        }
        return found
    }

    func testAColumnNamedRowidDoesNotRedirectRows() throws {
        // Two rows whose user column `rowid` is 7, one whose `rowid` is text.
        let store = try makeTable("Shadow.sqlite", schema: "CREATE TABLE T (rowid, Z BLOB)", rows: [
            ("INSERT INTO T (rowid, Z) VALUES (7, ?)", "a@example.com"),
            ("INSERT INTO T (rowid, Z) VALUES (7, ?)", "b@example.com"),
            ("INSERT INTO T (rowid, Z) VALUES ('seven', ?)", "c@example.com"),
        ])
        let migrated = try run(["migrate", "--sqlite", store, "--table", "T", "--column", "Z", "--rules", contactRules()])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertEqual(migrated.stdout.split(separator: "\n").filter { $0.hasSuffix(":") }, ["Shadow.sqlite: T.Z row 1:", "Shadow.sqlite: T.Z row 2:", "Shadow.sqlite: T.Z row 3:"])
        XCTAssertEqual(try emailsByRow(store), ["1 a@example.com v2", "2 b@example.com v2", "3 c@example.com v2"], "each row keeps its own contact")
        let dump = try run(["dump", "--sqlite", store, "--table", "T", "--column", "Z", "--key-path", "root.email"])
        XCTAssertEqual(dump.stdout, "Shadow.sqlite: T.Z row 1:\n\"a@example.com\"\nShadow.sqlite: T.Z row 2:\n\"b@example.com\"\nShadow.sqlite: T.Z row 3:\n\"c@example.com\"\n")
        let one = try run(["dump", "--sqlite", store, "--table", "T", "--column", "Z", "--row", "3", "--key-path", "root.email"])
        XCTAssertEqual(one.stdout, "Shadow.sqlite: T.Z row 3:\n\"c@example.com\"\n", one.stderr)

        // Every name of the row id shadowed: the INTEGER PRIMARY KEY is the row id.
        let all = try makeTable("All.sqlite", schema: "CREATE TABLE T (id INTEGER PRIMARY KEY, rowid, _rowid_, oid, Z BLOB)", rows: [
            ("INSERT INTO T (id, rowid, _rowid_, oid, Z) VALUES (10, 1, 1, 1, ?)", "a@example.com"),
            ("INSERT INTO T (id, rowid, _rowid_, oid, Z) VALUES (20, 1, 1, 1, ?)", "b@example.com"),
        ])
        let keyed = try run(["convert", "--sqlite", all, "--table", "T", "--column", "Z", "--to", "codable-json", "--into-column", "J"])
        XCTAssertEqual(keyed.status, 0, keyed.stderr)
        let db = try SQLiteDatabase(path: work.appendingPathComponent(all).path, readOnly: true)
        let json = try db.prepare("SELECT id, J FROM T ORDER BY id")
        var filled: [String] = []
        while try json.step() { filled.append("\(json.int(0)) \(String(decoding: json.blob(1) ?? [], as: UTF8.self).contains("b@example.com") ? "b" : "a")") }
        XCTAssertEqual(filled, ["10 a", "20 b"])
    }

    func testAWithoutRowidTableIsAClearError() throws {
        let store = try makeTable("NoRowid.sqlite", schema: "CREATE TABLE T (id INTEGER PRIMARY KEY, Z BLOB) WITHOUT ROWID", rows: [
            ("INSERT INTO T (id, Z) VALUES (1, ?)", "a@example.com"),
        ])
        let message = "NoRowid.sqlite: error: T is a WITHOUT ROWID table: its rows have no row id to address them by (Archivist works on tables with row ids, as Core Data makes them)\n"
        for command in [["migrate", "--rules", contactRules()], ["dump"], ["lint"]] {
            let result = try run([command[0], "--sqlite", store, "--table", "T", "--column", "Z"] + command.dropFirst())
            XCTAssertEqual(result.status, 1, command[0])
            XCTAssertEqual(result.stderr, message, command[0])
        }
        let scan = try run(["lint", "--sqlite", store])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(scan.stdout, "NoRowid.sqlite: T.Z: 1 blob, 1 property list (1 keyed archive)\n", "the scan needs no row ids")
    }

    /// Archives stored as text, and numbers, in the blob column: counted and
    /// reported, never skipped without a word.
    func testValuesThatAreNotBlobsAreCounted() throws {
        let store = try makeStore("Mixed.sqlite")
        let path = work.appendingPathComponent(store).path
        let db = try SQLiteDatabase(path: path)
        let xml = try PropertyList.write(try PropertyList.read(try contactArchive(email: "text@example.com")).tree.value, as: .xml)
        let text = try db.prepare("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (5, 1, 1, 'Text', ?)")
        try text.bind(1, text: String(decoding: xml, as: UTF8.self))
        _ = try text.step()
        try db.execute("""
            INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (6, 1, 1, 'Number', 42);
            INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (7, 1, 1, 'Words', 'not a property list');
            """)
        let lint = try run(["lint", "--sqlite", store] + ["--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout.split(separator: "\n").count, 3, lint.stdout)
        XCTAssertEqual(lint.stderr, "Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT: warning: 3 rows hold values that are not blobs and were not read: row 5 (text), row 6 (integer), row 7 (text)\n")

        let refused = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", contactRules()])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.hasPrefix("Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 6: error: holds an integer, not an archive\n"), refused.stderr)

        let kept = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", contactRules(), "--keep-going", "--backup", "kept.bak"])
        XCTAssertEqual(kept.status, 1)
        XCTAssertTrue(kept.stdout.hasSuffix("Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT: migrated 4 rows, 0 unchanged, 2 failed\n"), kept.stdout)
        XCTAssertTrue(kept.stdout.contains("Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 5:\n"), kept.stdout)
        XCTAssertTrue(kept.stderr.contains("row 6: error: left untouched"), kept.stderr)
        XCTAssertTrue(kept.stderr.contains("row 7: error: left untouched"), kept.stderr)
        let after = try db.prepare("SELECT typeof(ZCONTACT), ZCONTACT FROM ZEMPLOYEEENTITY WHERE Z_PK = 5")
        XCTAssertTrue(try after.step())
        XCTAssertEqual(after.text(0), "text", "a text archive stays text")
        XCTAssertTrue(after.text(1)?.contains("<string>ContactsCore.Contact</string>") == true, after.text(1) ?? "")
    }
}
