import ArchivistCore
import ArchivistDatabase
import ArchivistTestSupport
import Foundation
import XCTest

/// Columns whose blobs are partly archives and partly other data (issue 34,
/// item 14): Notes keeps gzip bodies beside archives, and bitmasks such as
/// the byte `$` in another column.
extension CLITests {
    /// A store whose ZCONTACT holds archives (rows 1 to 3), a gzip body
    /// (row 5), the byte `$` (row 6), a word (row 7), and whose ZMASK holds
    /// only bitmasks and ZBODY a typedstream.
    private func makeMixedStore() throws -> String {
        let store = try makeStore("Mixed.sqlite")
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path)
        try db.execute("""
            ALTER TABLE ZEMPLOYEEENTITY ADD COLUMN ZMASK BLOB;
            ALTER TABLE ZEMPLOYEEENTITY ADD COLUMN ZBODY BLOB;
            UPDATE ZEMPLOYEEENTITY SET ZMASK = X'24' WHERE Z_PK = 1;
            UPDATE ZEMPLOYEEENTITY SET ZMASK = X'0000000101000000' WHERE Z_PK = 2;
            """)
        let insert = try db.prepare("INSERT INTO ZEMPLOYEEENTITY (Z_PK, ZCONTACT) VALUES (?, ?)")
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + [UInt8](repeating: 0x41, count: 1_194)
        for (row, blob) in [(5, gzip), (6, Array("$".utf8)), (7, Array("hello".utf8))] {
            insert.reset()
            try insert.bind(1, int: Int64(row))
            try insert.bind(2, blob: blob)
            _ = try insert.step()
        }
        let body = try db.prepare("UPDATE ZEMPLOYEEENTITY SET ZBODY = ? WHERE Z_PK = 3")
        try body.bind(1, blob: Self.typedstreamArray)
        _ = try body.step()
        return store
    }

    func testDumpNamesOtherBlobsAndReadsEveryArchive() throws {
        let store = try makeMixedStore()
        let column = ["--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"]
        let dump = try run(["dump"] + column)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertEqual(dump.stderr, "")
        let labels = dump.stdout.split(separator: "\n").filter { $0.hasPrefix("Mixed.sqlite: ") }
        XCTAssertEqual(labels, ["Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 1:", "Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2:",
                                "Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 3:", "Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 5: gzip data, 1,204 bytes",
                                "Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 6: text, 1 byte", "Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 7: text, 5 bytes"])
        XCTAssertTrue(dump.stdout.contains("email = \"grace@example.org\""), dump.stdout)

        let json = try run(["dump", "--json"] + column)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.stderr, "Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT: warning: 3 blobs hold no property list or archive and were not read: "
                       + "row 5 (gzip data, 1,204 bytes), row 6 (text, 1 byte), row 7 (text, 5 bytes)\n")
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["row"] as? Int }, [1, 2, 3])

        for command in ["classes", "info", "schema"] {
            let result = try run([command] + column)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        // A blob named by --row is read as asked, as a file named on the command line.
        XCTAssertEqual(try run(["dump"] + column + ["--row", "5"]).status, 1)
    }

    func testLintCountsOtherBlobsAsSkippedAndBrokenPropertyListsAsErrors() throws {
        let store = try makeMixedStore()
        let column = ["--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"]
        let lint = try run(["lint"] + column)
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout.split(separator: "\n").filter { $0.hasSuffix(": OK") }.count, 3, lint.stdout)
        XCTAssertEqual(lint.stderr, "3 blobs skipped (not property lists or archives; --verbose lists them)\n")
        let verbose = try run(["lint", "--verbose"] + column)
        XCTAssertTrue(verbose.stderr.contains("Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 5: skipped: gzip data, 1,204 bytes\n"), verbose.stderr)

        // A blob that starts like a property list but is broken still fails.
        let broken = try makeStore("Broken.sqlite", corrupt: 2)
        let failing = try run(["lint", "--sqlite", broken, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"])
        XCTAssertEqual(failing.status, 1, failing.stdout)
        let dump = try run(["dump", "--sqlite", broken, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"])
        XCTAssertEqual(dump.status, 1, dump.stdout)
        XCTAssertTrue(dump.stderr.hasPrefix("Broken.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: "), dump.stderr)
    }

    /// The overview counts typedstreams, and not bitmasks as OpenStep strings.
    func testLintOverviewCountsTypedstreamsAndNotBitmasks() throws {
        let store = try makeMixedStore()
        let scan = try run(["lint", "--sqlite", store])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(scan.stdout, """
            Mixed.sqlite: ZEMPLOYEEENTITY.ZCONTACT: 6 blobs, 3 property lists (3 keyed archives)
            Mixed.sqlite: ZEMPLOYEEENTITY.ZBODY: 1 blob, 1 typedstream
            Mixed.sqlite: Z_METADATA.Z_PLIST: 1 blob, 1 property list (0 keyed archives)

            """)
    }

    /// A store of ../shared/real-world (skipped without it).
    private func sharedStore(_ path: String) throws -> String {
        let url = TestPaths.realWorld.appendingPathComponent(path)
        try XCTSkipUnless(FileManager.default.fileExists(atPath: url.path), "no ../shared/real-world/\(path)")
        return url.path
    }

    /// Notes' store: the overview names no bitmask column; iMessage's bodies are typedstreams.
    func testLintOverviewOfRealStores() throws {
        let notes = try sharedStore("plaso/test_data/ios/NoteStore.sqlite")
        let scan = try run(["lint", "--sqlite", notes])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertFalse(scan.stdout.contains("ACHANGE.ZCOLUMNS"), scan.stdout)
        let chat = try sharedStore("plaso/test_data/sqlite/imessage_chat.db")
        let messages = try run(["lint", "--sqlite", chat])
        XCTAssertEqual(messages.status, 0, messages.stderr)
        XCTAssertTrue(messages.stdout.contains("\(chat): message.attributedBody: 10 blobs, 10 typedstreams\n"), messages.stdout)
        let data = try run(["dump", "--sqlite", notes, "--table", "ZICNOTEDATA", "--column", "ZDATA"])
        XCTAssertEqual(data.status, 0, data.stderr)
        XCTAssertTrue(data.stdout.contains("\(notes): ZICNOTEDATA.ZDATA row 3: gzip data, 295 bytes\n"), data.stdout)
    }
}
