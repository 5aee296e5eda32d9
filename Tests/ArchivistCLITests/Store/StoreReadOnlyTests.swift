import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// Read-only commands on stores a read-only connection cannot open as they
/// are (issue 24, item 19): a hot journal (rolled back in a private copy),
/// a WAL store on read-only media (read with its log from a private copy).
extension CLITests {
    /// A copy of a store taken while a writer was in the middle of a
    /// transaction that had already spilled pages: `NAME` and a hot `NAME-journal`.
    func makeHotJournalStore(_ name: String) throws -> String {
        let source = try makeStore("Source-" + name)
        let sourcePath = work.appendingPathComponent(source).path
        let db = try SQLiteDatabase(path: sourcePath)
        try db.execute("CREATE TABLE FILLER (X BLOB); PRAGMA cache_size = 1; BEGIN IMMEDIATE")
        for _ in 0..<200 { try db.execute("INSERT INTO FILLER VALUES (zeroblob(2000))") }
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: sourcePath + suffix, toPath: work.appendingPathComponent(name + suffix).path)
        }
        try db.execute("ROLLBACK")
        return name
    }

    func testReadCommandsReadAStoreWithAHotJournal() throws {
        let store = try makeHotJournalStore("Hot.sqlite")
        let journal = try XCTUnwrap(contents("Hot.sqlite-journal"))
        XCTAssertEqual(journal.first, 0xD9, "the journal has its header: it is hot")
        let before = contents(store)
        let warning = "Hot.sqlite: warning: Hot.sqlite-journal is a hot journal (a writer stopped in the middle of a transaction); "
            + "the store is read as that transaction is rolled back, in a private copy (the store and its journal are left as they are)\n"
        let lint = try run(["lint", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stderr, warning)
        XCTAssertEqual(lint.stdout.split(separator: "\n").count, 3, lint.stdout)
        let scan = try run(["lint", "--sqlite", store])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        XCTAssertEqual(scan.stderr, warning)
        XCTAssertTrue(scan.stdout.hasPrefix("Hot.sqlite: ZEMPLOYEEENTITY.ZCONTACT: 3 blobs"), scan.stdout)
        let dump = try run(["dump", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--row", "2", "--key-path", "root.email"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertEqual(dump.stdout, "Hot.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2:\n\"grace@example.org\"\n")
        XCTAssertEqual(dump.stderr, warning, "once, though the store is read twice")
        XCTAssertEqual(contents(store), before, "read-only: nothing rolled back")
        XCTAssertEqual(contents("Hot.sqlite-journal"), journal)
    }

    /// A WAL store copied with its log onto read-only media (a read-only bind
    /// mount in a private mount namespace; skipped where there is none).
    func testReadCommandsReadAWALStoreOnReadOnlyMedia() throws {
        let media = work.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let mount = "mount --bind media media && mount -o remount,bind,ro media"
        let env = ProcessInfo.processInfo.environment
        let probe = try shell(["unshare", "-m", "--propagation", "private", "sh", "-c", mount + " && ! touch media/probe 2>/dev/null"], in: work, environment: env)
        try XCTSkipUnless(probe.status == 0, "no read-only bind mount here: \(probe.stdout)")

        let store = try makeStore("Wal.sqlite")
        let path = work.appendingPathComponent(store).path
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try db.execute("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) SELECT 5, 1, 1, 'In the log', ZCONTACT FROM ZEMPLOYEEENTITY WHERE Z_PK = 1")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: media.appendingPathComponent(store + suffix).path)
        }
        let archivist = Self.productsDirectory.appendingPathComponent("archivist").path
        let lint = try shell(["unshare", "-m", "--propagation", "private", "sh", "-c",
                              mount + " && exec \"$0\" lint --sqlite media/Wal.sqlite --table ZEMPLOYEEENTITY --column ZCONTACT", archivist],
                             in: work, environment: env)
        XCTAssertEqual(lint.status, 0, lint.stdout)
        XCTAssertFalse(lint.stdout.contains("warning"), lint.stdout)
        XCTAssertEqual(lint.stdout.split(separator: "\n").filter { $0.hasSuffix(": OK") }.count, 4, "the row in the log is read too: \(lint.stdout)")
    }
}
