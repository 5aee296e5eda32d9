import ArchivistTestSupport
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// `lint`, `dump` and `migrate` over archives in an SQLite store with Core
/// Data's layout (`ZEMPLOYEEENTITY.ZCONTACT`).
extension CLITests {
    static let contacts: [(tel: String, fax: String, email: String)] = [
        ("+1 555 0100", "+1 555 0101", "ada@example.com"),
        ("+44 20 7946 0000", "", "grace@example.org"),
        ("0", "1", "ünïcode@example.net"),
    ]

    /// A store like Core Data writes: Z_PK, Z_ENT, Z_OPT, ZNAME and the
    /// archived ZCONTACT blobs; one row with a NULL contact.
    func makeStore(_ name: String, corrupt row: Int? = nil) throws -> String {
        let path = work.appendingPathComponent(name).path
        let db = try SQLiteDatabase.create(path: path)
        try db.execute("""
            CREATE TABLE ZEMPLOYEEENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZCONTACT BLOB);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            """)
        let insert = try db.prepare("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (?, 1, 1, ?, ?)")
        for (i, contact) in Self.contacts.enumerated() {
            insert.reset()
            try insert.bind(1, int: Int64(i + 1))
            try insert.bind(2, text: "Employee \(i + 1)")
            let bytes = i + 1 == row ? Array("bplist00 not really".utf8) : [UInt8](try NSKeyedArchiver.archivedData(withRootObject: ContactV1(tel: contact.tel, fax: contact.fax, email: contact.email),
                                                                                                                         requiringSecureCoding: false))
            try insert.bind(3, blob: bytes)
            _ = try insert.step()
        }
        try db.execute("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (4, 1, 1, 'No contact', NULL)")
        let metadata = try db.prepare("INSERT INTO Z_METADATA VALUES (1, 'ABC', ?)")
        try metadata.bind(1, blob: try PropertyList.write(.dictionary(PlistDictionary([("NSStoreType", .string("SQLite"))])), as: .binary))
        _ = try metadata.step()
        return name
    }

    func contactRules() -> String {
        make("contact-rules.json", """
            {"classes": {"\(NSStringFromClass(ContactV1.self))": {"renameTo": "ContactsCore.Contact"}}, "allowedClasses": ["ContactsCore.Contact"]}
            """)
    }

    /// Secure-decodes one row's blob in a child process.
    func decodeRow(_ store: String, _ row: Int64) throws -> String? {
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path, readOnly: true)
        let bytes = try XCTUnwrap(try BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT").blob(row: row, in: db))
        let file = "row\(row).plist"
        try Data(bytes).write(to: work.appendingPathComponent(file))
        return try secureDecode(file, names: ["ContactsCore.Contact": "Contact"])
    }

    func testScenarioFourMigratesTheStore() throws {
        let store = try makeStore("Employees.sqlite")
        let scan = try run(["lint", "--sqlite", store])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(scan.stdout, """
            Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT: 3 blobs, 3 property lists (3 keyed archives)
            Employees.sqlite: Z_METADATA.Z_PLIST: 1 blob, 1 property list (0 keyed archives)

            """)
        let insecure = try run(["lint", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--secure", "--allow", "ContactsCore.Contact"])
        XCTAssertEqual(insecure.status, 1)
        XCTAssertEqual(insecure.stdout.split(separator: "\n").count, 3, insecure.stdout)
        XCTAssertTrue(insecure.stdout.hasPrefix("Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 1: $objects[1] (root): error: class \(NSStringFromClass(ContactV1.self)) is not allowed"), insecure.stdout)
        XCTAssertNil(try decodeRow(store, 1), "version 1 does not decode securely")

        let rules = contactRules()
        let migrated = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertTrue(migrated.stdout.hasPrefix("Employees.sqlite: backed up to Employees.sqlite.bak\n"), migrated.stdout)
        XCTAssertTrue(migrated.stdout.hasSuffix("Employees.sqlite: ZEMPLOYEEENTITY.ZCONTACT: migrated 3 rows, 0 unchanged, 0 failed\n"), migrated.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("Employees.sqlite.bak").path))

        let secure = try run(["lint", "-q", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--secure", "--rules", rules])
        XCTAssertEqual(secure.status, 0, secure.stdout)
        for (i, contact) in Self.contacts.enumerated() {
            XCTAssertEqual(try decodeRow(store, Int64(i + 1)), "Contact(tel: \(contact.tel), fax: \(contact.fax), email: \(contact.email))")
        }
        let dump = try run(["dump", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--row", "2"])
        XCTAssertTrue(dump.stdout.contains("root = ContactsCore.Contact {"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("email = \"grace@example.org\""), dump.stdout)
        // A second run changes nothing, rewrites nothing, and keeps the first backup.
        let again = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules, "--backup", "second.bak"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasSuffix("migrated 0 rows, 3 unchanged, 0 failed\n"), again.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("second.bak").path), "nothing to migrate needs no backup")
        let backup = contents("Employees.sqlite.bak")
        let third = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules])
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(contents("Employees.sqlite.bak"), backup, "an existing backup is never overwritten")
    }

    /// Runs the built `archivist` with standard output and standard error
    /// going to one pipe, as on a terminal or with `2>&1`.
    func runMerged(_ args: [String]) throws -> (status: Int32, text: String) {
        let archivist = Self.productsDirectory.appendingPathComponent("archivist").path
        let r = try shell([archivist] + args, in: work, environment: ProcessInfo.processInfo.environment)
        return (r.status, r.stdout)
    }

    func testFailedStoreMigrationLeavesTheStoreAsItWas() throws {
        let store = try makeStore("Broken.sqlite", corrupt: 2)
        let before = try XCTUnwrap(contents(store))
        let rules = contactRules()
        let failed = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.hasPrefix("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: offset "), failed.stderr)
        XCTAssertTrue(failed.stderr.hasSuffix("""
            Broken.sqlite: error: row 2 failed; the transaction was rolled back and the store is unchanged (--keep-going skips failing rows)

            """), failed.stderr)
        XCTAssertEqual(contents(store), before, "the store is byte-identical")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("Broken.sqlite.bak").path),
                       "a migration that writes no row makes no backup, so a retry is not refused")

        // Standard output and error in one stream (a terminal, or 2>&1).
        let merged = try runMerged(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules])
        XCTAssertEqual(merged.status, 1)
        XCTAssertTrue(merged.text.hasPrefix("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: "), merged.text)

        // The retry, with the default backup path again.
        let kept = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules,
                            "--keep-going"])
        XCTAssertTrue(kept.stdout.hasPrefix("Broken.sqlite: backed up to Broken.sqlite.bak\n"), kept.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("Broken.sqlite.bak").path), "a store that changed keeps its backup")
        XCTAssertEqual(kept.status, 1)
        XCTAssertTrue(kept.stdout.hasSuffix("migrated 2 rows, 0 unchanged, 1 failed\n"), kept.stdout)
        XCTAssertTrue(kept.stderr.contains("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: error: left untouched"), kept.stderr)
        XCTAssertNotNil(try decodeRow(store, 1))
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path, readOnly: true)
        XCTAssertEqual(try BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT").blob(row: 2, in: db), Array("bplist00 not really".utf8))

        let missing = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEE", "--column", "ZCONTACT", "--rules", rules, "--backup", "x.bak"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no table ZEMPLOYEE in"), missing.stderr)
        XCTAssertEqual(try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--rules", rules]).status, 64)
    }
}
