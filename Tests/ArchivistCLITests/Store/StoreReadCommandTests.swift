import ArchivistTestSupport
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// Scenario 4's target: the contact as a Codable struct.
struct CodableContact: Codable, Equatable {
    var tel: String
    var fax: String
    var email: String
}

/// `dump`, `classes`, `info`, `lint` and `convert --to codable-json` on every
/// row of a store's blob column (scenario 4), or one `--row`.
extension CLITests {
    private var contactColumn: [String] { ["--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"] }

    private var expectedContacts: [CodableContact] {
        Self.contacts.map { CodableContact(tel: $0.tel, fax: $0.fax, email: $0.email) }
    }

    func testReadCommandsWorkOnEveryRowOfAStore() throws {
        let store = try makeStore("Employees.sqlite")
        let archived = NSStringFromClass(ContactV1.self)

        let dump = try run(["dump", "--sqlite", store] + contactColumn)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let headers = dump.stdout.split(separator: "\n").filter { $0.hasPrefix("Employees.sqlite: ") }
        XCTAssertEqual(headers, (1...3).map { "Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT row \($0):" }, "every blob, none for the NULL row")
        XCTAssertTrue(dump.stdout.hasPrefix("Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 1:\nNSKeyedArchiver archive, "), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("email = \"grace@example.org\""), dump.stdout)
        let one = try run(["dump", "--sqlite", store] + contactColumn + ["--row", "2"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.hasPrefix("Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2:\nNSKeyedArchiver archive, "), one.stdout)
        XCTAssertFalse(one.stdout.contains("ada@example.com"), one.stdout)
        let json = try run(["dump", "--json", "--sqlite", store] + contactColumn)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["row"] as? Int }, [1, 2, 3])
        let top = (rows[2]["value"] as? [String: Any])?["top"] as? [String: Any]
        XCTAssertEqual((top?["root"] as? [String: Any])?["class"] as? String, archived)
        let keyPath = try run(["dump", "--sqlite", store] + contactColumn + ["--key-path", "root.tel"])
        XCTAssertEqual(keyPath.stdout, (0..<3).map { "Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT row \($0 + 1):\n\"\(Self.contacts[$0].tel)\"\n" }.joined())

        let classes = try run(["classes", "--sqlite", store] + contactColumn)
        XCTAssertEqual(classes.status, 0, classes.stderr)
        XCTAssertEqual(classes.stdout, "3\t\(archived)\tcustom\t\(archived) < NSObject\n")
        let swift = try run(["classes", "--swift", "--sqlite", store] + contactColumn + ["--row", "1"])
        XCTAssertEqual(swift.stdout, "try NSKeyedUnarchiver.unarchivedObject(ofClasses: [ContactV1.self], from: data)\n")

        let info = try run(["info", "--sqlite", store] + contactColumn + ["--row", "3"])
        XCTAssertEqual(info.status, 0, info.stderr)
        let lines = info.stdout.split(separator: "\n")
        XCTAssertEqual(lines.first, "Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 3")
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix("  format: binary (bplist00), ") == true, info.stdout)
        XCTAssertTrue(info.stdout.contains("    class \(archived): 1 (custom)"), info.stdout)
        let infoJSON = try run(["info", "--json", "--sqlite", store] + contactColumn)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: infoJSON.output) as? [[String: Any]])
        XCTAssertEqual(reports.map { $0["row"] as? Int }, [1, 2, 3])
        XCTAssertEqual(reports.map { $0["path"] as? String }, Array(repeating: "Employees.sqlite", count: 3))
        XCTAssertEqual(reports.map { $0["column"] as? String }, Array(repeating: "ZCONTACT", count: 3))

        let lint = try run(["lint", "--sqlite", store] + contactColumn + ["--row", "2"])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout, "Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: OK\n")
        XCTAssertEqual(try run(["lint", "--sqlite", store, "--row", "2"]).status, 64, "--row needs a column")
    }

    /// A column that is not a blob column, or a table or column that does not
    /// exist, is an error naming it and the blob columns there are; a row
    /// without a blob too.
    func testSchemaOfAStoreColumn() throws {
        let store = try makeStore("Employees.sqlite")
        let schema = try run(["schema", "--sqlite", store] + contactColumn + ["--rules", contactRules(), "--swift"])
        XCTAssertEqual(schema.status, 0, schema.stderr)
        // Fields come in the order the archives hold them (Foundation's hash order).
        XCTAssertTrue(schema.stdout.contains("struct Contact: Codable {\n"), schema.stdout)
        for field in ["tel", "fax", "email"] {
            XCTAssertTrue(schema.stdout.contains("\n    var \(field): String\n"), schema.stdout)
        }
        // The rows' schema is the one of the same blobs as files, and one row gives the same.
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path, readOnly: true)
        var files: [String] = []
        try BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT").forEachBlob(in: db) { row, bytes in
            files.append(make("blobs/row\(row).plist", ""))
            try Data(bytes).write(to: work.appendingPathComponent("blobs/row\(row).plist"))
        }
        XCTAssertEqual(files.count, 3)
        XCTAssertEqual(try run(["schema"] + files + ["--rules", contactRules(), "--swift"]).stdout, schema.stdout)
        let one = try run(["schema", "--sqlite", store] + contactColumn + ["--row", "2", "--rules", contactRules(), "--swift"]).stdout
        XCTAssertEqual(one.split(separator: "\n").sorted(), schema.stdout.split(separator: "\n").sorted(), "one row's fields may come in another order")
        // A column of text is an error naming it; no input at all is a usage error.
        let text = try run(["schema", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZNAME"])
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stderr.contains("ZEMPLOYEEENTITY.ZNAME holds no blobs"), text.stderr)
        XCTAssertEqual(try run(["schema"]).status, 64)
        XCTAssertEqual(try run(["schema", "--sqlite", store]).status, 64, "--sqlite needs --table and --column")
    }

    func testStoreColumnsThatHoldNoBlobsAreErrors() throws {
        let store = try makeStore("Employees.sqlite")
        let blobColumns = "blob columns: ZEMPLOYEEENTITY.ZCONTACT, Z_METADATA.Z_PLIST"
        for command in [["lint"], ["dump"], ["classes"], ["info"], ["convert", "--to", "codable-json", "--output-dir", "out"]] {
            let text = try run(command + ["--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZNAME"])
            XCTAssertEqual(text.status, 1, command[0])
            XCTAssertTrue(text.stderr.contains("Employees.sqlite: error: ZEMPLOYEEENTITY.ZNAME holds no blobs (its values: 4 text); \(blobColumns)\n"), text.stderr)
            let table = try run(command + ["--sqlite", store, "--table", "ZEMPLOYEE", "--column", "ZCONTACT"])
            XCTAssertEqual(table.status, 1, command[0])
            XCTAssertTrue(table.stderr.contains("error: no table ZEMPLOYEE in Employees.sqlite (\(blobColumns))\n"), table.stderr)
            let column = try run(command + ["--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTCT"])
            XCTAssertEqual(column.status, 1, command[0])
            XCTAssertTrue(column.stderr.contains("error: no column ZCONTCT in ZEMPLOYEEENTITY (columns: Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT; \(blobColumns))\n"), column.stderr)
        }
        XCTAssertEqual(try listing(), ["Employees.sqlite"], "nothing written")
        let nullRow = try run(["dump", "--sqlite", store] + contactColumn + ["--row", "4"])
        XCTAssertEqual(nullRow.status, 1)
        XCTAssertEqual(nullRow.stderr, "Employees.sqlite: error: row 4 of ZEMPLOYEEENTITY.ZCONTACT is NULL (no value, so nothing to read)\n")
    }

    func testScenarioFourAsCodableJSONFiles() throws {
        let store = try makeStore("Employees.sqlite")
        let before = contents(store)
        let rules = contactRules()
        let files = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--rules", rules, "--output-dir", "contacts"])
        XCTAssertEqual(files.status, 0, files.stderr)
        XCTAssertEqual(files.stderr, "Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT: 3 rows written to contacts, 0 failed\n")
        XCTAssertEqual(try listing("contacts"), ["1.json", "2.json", "3.json"])
        for (i, contact) in expectedContacts.enumerated() {
            XCTAssertEqual(try JSONDecoder().decode(CodableContact.self, from: try XCTUnwrap(contents("contacts/\(i + 1).json"))), contact)
        }
        XCTAssertEqual(contents(store), before, "the store is only read")

        let one = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--row", "3"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(try JSONDecoder().decode(CodableContact.self, from: one.output), expectedContacts[2])

        let over = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--row", "1", "-o", store])
        XCTAssertEqual(over.status, 1)
        XCTAssertEqual(over.stderr, "Employees.sqlite: error: Employees.sqlite is the store being read; choose another destination\n")
        XCTAssertEqual(contents(store), before, "the store is never a destination")

        let typo = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--rules", make("typo.json", #"{"classes": {"App.Contct": {"renameTo": "X"}}}"#), "--output-dir", "typo"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertEqual(typo.stderr, "typo.json: error: classes.\"App.Contct\": class App.Contct occurs in none of the inputs\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("typo").path))

        for usage in [["--output-dir", "x", "--into-column", "Z"], [], ["-o", "x.json"], ["--in-place"], ["--into-column", "ZCONTACT"]] {
            XCTAssertEqual(try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json"] + usage).status, 64, "\(usage)")
        }
        XCTAssertEqual(try run(["convert", "--sqlite", store] + contactColumn + ["--to", "xml", "--output-dir", "x"]).status, 64)
    }

    func testScenarioFourIntoANewColumn() throws {
        let store = try makeStore("Employees.sqlite")
        let path = work.appendingPathComponent(store).path
        let column = BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT")
        let archives = try (1...3).map { try column.blob(row: $0, in: SQLiteDatabase(path: path, readOnly: true)) }

        let filled = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZCONTACTJSON"])
        XCTAssertEqual(filled.status, 0, filled.stderr)
        XCTAssertEqual(filled.stdout, """
            Employees.sqlite: backed up to Employees.sqlite.bak
            Employees.sqlite: added the column ZEMPLOYEEENTITY.ZCONTACTJSON
            Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT -> ZEMPLOYEEENTITY.ZCONTACTJSON: wrote 3 rows, 0 unchanged, 0 failed

            """)
        let db = try SQLiteDatabase(path: path, readOnly: true)
        let json = BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACTJSON")
        for (i, contact) in expectedContacts.enumerated() {
            XCTAssertEqual(try JSONDecoder().decode(CodableContact.self, from: Data(try XCTUnwrap(try json.blob(row: Int64(i + 1), in: db)))), contact)
            XCTAssertEqual(try column.blob(row: Int64(i + 1), in: db), archives[i], "the archives are kept")
        }
        XCTAssertNil(try json.blob(row: 4, in: db), "a row without an archive gets no value")
        let backup = try SQLiteDatabase(path: work.appendingPathComponent("Employees.sqlite.bak").path, readOnly: true)
        XCTAssertFalse(try backup.columns(of: "ZEMPLOYEEENTITY").contains { $0.name == "ZCONTACTJSON" }, "the backup is the store before")

        let again = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZCONTACTJSON", "--backup", "second.bak"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasSuffix(": wrote 0 rows, 3 unchanged, 0 failed\n"), again.stdout)
        // A retry with nothing to write needs no backup, so the first run's is never in its way (issue 34, item 6).
        let firstBackup = contents("Employees.sqlite.bak")
        let retry = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZCONTACTJSON"])
        XCTAssertEqual(retry.status, 0, retry.stderr)
        XCTAssertEqual(retry.stdout, "Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT -> ZEMPLOYEEENTITY.ZCONTACTJSON: wrote 0 rows, 3 unchanged, 0 failed\n")
        XCTAssertEqual(contents("Employees.sqlite.bak"), firstBackup, "an existing backup is never overwritten")

        let other = try makeStore("One.sqlite")
        let oneRow = try run(["convert", "--sqlite", other] + contactColumn + ["--to", "codable-json", "--into-column", "ZCONTACTJSON", "--row", "2"])
        XCTAssertEqual(oneRow.status, 0, oneRow.stderr)
        XCTAssertTrue(oneRow.stdout.hasSuffix(": wrote 1 rows, 0 unchanged, 0 failed\n"), oneRow.stdout)
        let oneDB = try SQLiteDatabase(path: work.appendingPathComponent(other).path, readOnly: true)
        XCTAssertNil(try json.blob(row: 1, in: oneDB), "--row fills that row only")
        XCTAssertEqual(try JSONDecoder().decode(CodableContact.self, from: Data(try XCTUnwrap(try json.blob(row: 2, in: oneDB)))), expectedContacts[1])

        let names = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZNAME", "--backup", "names.bak"])
        XCTAssertEqual(names.status, 1)
        XCTAssertEqual(names.stderr, "Employees.sqlite: error: ZEMPLOYEEENTITY.ZNAME holds values other than blobs; fill a new column (or one a previous run filled)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("names.bak").path), "refused before the backup")
    }

    /// A row that fails writes nothing: the transaction is rolled back, no
    /// file is written; --keep-going writes the others.
    func testFailingRowWritesNothing() throws {
        let store = try makeStore("Broken.sqlite", corrupt: 2)
        let before = try XCTUnwrap(contents(store))
        let column = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZCONTACTJSON"])
        XCTAssertEqual(column.status, 1)
        XCTAssertTrue(column.stderr.hasPrefix("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: offset "), column.stderr)
        XCTAssertTrue(column.stderr.hasSuffix("""
            Broken.sqlite: error: row 2 failed; the transaction was rolled back and the store is unchanged (--keep-going skips failing rows)

            """), column.stderr)
        XCTAssertEqual(contents(store), before, "the store is byte-identical")
        XCTAssertNil(contents("Broken.sqlite.bak"), "no backup: the run failed before it would write")

        let files = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--output-dir", "out"])
        XCTAssertEqual(files.status, 1)
        XCTAssertTrue(files.stderr.hasSuffix("Broken.sqlite: error: row 2 failed; nothing was written (--keep-going writes the other rows)\n"), files.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("out").path))

        let kept = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--output-dir", "out", "--keep-going"])
        XCTAssertEqual(kept.status, 1)
        XCTAssertEqual(try listing("out"), ["1.json", "3.json"])
        XCTAssertTrue(kept.stderr.hasSuffix("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT: 2 rows written to out, 1 failed\n"), kept.stderr)

        let keptColumn = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZCONTACTJSON", "--keep-going", "--backup", "kept.bak"])
        XCTAssertEqual(keptColumn.status, 1)
        XCTAssertTrue(keptColumn.stdout.hasSuffix("wrote 2 rows, 0 unchanged, 1 failed\n"), keptColumn.stdout)
        XCTAssertTrue(keptColumn.stderr.contains("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: error: left untouched"), keptColumn.stderr)

        let dump = try run(["dump", "--sqlite", store] + contactColumn)
        XCTAssertEqual(dump.status, 1, "the other rows are shown, the failure reported")
        XCTAssertTrue(dump.stdout.contains("row 3:\n"), dump.stdout)
        XCTAssertTrue(dump.stderr.hasPrefix("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: offset "), dump.stderr)
    }
}
