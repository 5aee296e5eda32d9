import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Read-only store commands leave the store's folder as it was (issue 34,
/// items 12 and 13): no new file, no size or time changed, and still every
/// committed row read, also those only in the write-ahead log, and not
/// those of a transaction a hot journal holds.
extension CLITests {
    /// Every entry of a folder with its size, modification and change times
    /// (and on Linux its access time).
    func folderStamps(_ folder: URL) throws -> [String: [Int]] {
        var stamps: [String: [Int]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var s = stat()
            XCTAssertEqual(lstat(folder.appendingPathComponent(name).path, &s), 0)
            #if canImport(Darwin)
            let (m, c, a) = (s.st_mtimespec, s.st_ctimespec, s.st_atimespec)
            #else
            let (m, c, a) = (s.st_mtim, s.st_ctim, s.st_atim)
            #endif
            stamps[name] = [Int(s.st_size), m.tv_sec, m.tv_nsec, c.tv_sec, c.tv_nsec].map { Int($0) }
            #if os(Linux)
            // Access times are kept where O_NOATIME is permitted: Linux, for the files' owner (these are ours).
            stamps[name]? += [Int(a.tv_sec), Int(a.tv_nsec)]
            #endif
        }
        return stamps
    }

    /// Every read-only command that takes a store's column.
    private func readCommands(_ store: String) -> [[String]] {
        let column = ["--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"]
        return [["lint"] + column, ["lint", "--sqlite", store], ["dump"] + column, ["dump", "--json"] + column, ["dump", "--json-lines"] + column,
                ["classes"] + column, ["info"] + column, ["codegen", "--codable"] + column, ["schema"] + column,
                ["convert"] + column + ["--to", "codable-json", "--output-dir", "out"],
                ["migrate"] + column + ["--rules", contactRules(), "--dry-run"]]
    }

    /// A WAL-mode store whose log still holds a committed row (no
    /// checkpoint), copied with its log into `evidence/` as a forensic
    /// image is: every read-only command reads that row, and the folder
    /// keeps its listing, sizes and times (access times too: the files are
    /// ours, so O_NOATIME is permitted).
    func testReadCommandsLeaveAWALStoreFolderAsItWas() throws {
        let source = work.appendingPathComponent(try makeStore("Source.sqlite")).path
        let writer = try SQLiteDatabase(path: source)
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try writer.execute("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) SELECT 5, 1, 1, 'In the log', ZCONTACT FROM ZEMPLOYEEENTITY WHERE Z_PK = 1")
        let evidence = work.appendingPathComponent("evidence")
        try FileManager.default.createDirectory(at: evidence, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: evidence.appendingPathComponent("Wal.sqlite" + suffix).path)
        }
        XCTAssertGreaterThan(try XCTUnwrap(contents("evidence/Wal.sqlite-wal")).count, 0, "the row is in the log only")
        // Times older than now, so that an access would show.
        for name in ["Wal.sqlite", "Wal.sqlite-wal"] {
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, evidence.appendingPathComponent(name).path, &times, 0), 0)
        }
        let before = try folderStamps(evidence)
        let privateCopies = try Set(FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("archivist-store.") })
        for command in readCommands("evidence/Wal.sqlite") {
            let result = try run(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("warning"), "\(command): \(result.stderr)")
            XCTAssertEqual(try folderStamps(evidence), before, "\(command) left the folder as it was")
        }
        let dump = try run(["dump", "--sqlite", "evidence/Wal.sqlite", "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--row", "5", "--key-path", "root.email"])
        XCTAssertEqual(dump.stdout, "evidence/Wal.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 5:\n\"ada@example.com\"\n", "the row in the log is read")
        XCTAssertEqual(try listing("out"), ["1.json", "2.json", "3.json", "5.json"])
        XCTAssertEqual(try folderStamps(evidence), before)
        let left = try Set(FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("archivist-store.") })
        XCTAssertEqual(left.subtracting(privateCopies), [], "the private copies are removed")
    }

    /// A WAL-mode store without its log (read as its file is), and a store
    /// in rollback mode (read in place, read-only): nothing made or changed
    /// beside either, access times included.
    func testReadCommandsLeaveAWALStoreWithoutALogAndARollbackStoreAsTheyWere() throws {
        let path = work.appendingPathComponent(try makeStore("Empty.sqlite")).path
        let plain = work.appendingPathComponent(try makeStore("Plain.sqlite")).path
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA journal_mode = WAL")
        let evidence = work.appendingPathComponent("evidence")
        try FileManager.default.createDirectory(at: evidence, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: evidence.appendingPathComponent("Empty.sqlite").path)
        try FileManager.default.copyItem(atPath: plain, toPath: evidence.appendingPathComponent("Plain.sqlite").path)
        for name in ["Empty.sqlite", "Plain.sqlite"] {
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, evidence.appendingPathComponent(name).path, &times, 0), 0)
        }
        let before = try folderStamps(evidence)
        for command in readCommands("evidence/Empty.sqlite") + readCommands("evidence/Plain.sqlite") {
            let result = try run(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertEqual(try folderStamps(evidence), before, "\(command) left the folder as it was")
        }
        XCTAssertEqual(try listing("out"), ["1.json", "2.json", "3.json"])
    }

    /// An export behind a hot journal (issue 34, item 12) writes the rows as
    /// committed, not the unfinished transaction's, rolled back in a private
    /// copy: the store and its journal stay as they were.
    func testExportBehindAHotJournalWritesOnlyCommittedRows() throws {
        let source = try makeStore("Source.sqlite")
        let sourcePath = work.appendingPathComponent(source).path
        let db = try SQLiteDatabase(path: sourcePath)
        try db.execute("CREATE TABLE FILLER (X BLOB); PRAGMA cache_size = 1; BEGIN IMMEDIATE")
        try db.execute("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) SELECT 7, 1, 1, 'Uncommitted', ZCONTACT FROM ZEMPLOYEEENTITY WHERE Z_PK = 1")
        try db.execute("UPDATE ZEMPLOYEEENTITY SET ZCONTACT = (SELECT ZCONTACT FROM ZEMPLOYEEENTITY WHERE Z_PK = 3) WHERE Z_PK = 2")
        for _ in 0..<200 { try db.execute("INSERT INTO FILLER VALUES (zeroblob(2000))") }
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: sourcePath + suffix, toPath: work.appendingPathComponent("Hot.sqlite" + suffix).path)
        }
        try db.execute("ROLLBACK")
        let before = try folderStamps(work)
        let export = try run(["convert", "--sqlite", "Hot.sqlite", "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--to", "codable-json", "--output-dir", "out"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stderr, "Hot.sqlite: warning: Hot.sqlite-journal is a hot journal (a writer stopped in the middle of a transaction); "
                       + "the store is read as that transaction is rolled back, in a private copy (the store and its journal are left as they are)\n"
                       + "Hot.sqlite: ZEMPLOYEEENTITY.ZCONTACT: 3 rows written to out, 0 failed\n")
        XCTAssertEqual(try listing("out"), ["1.json", "2.json", "3.json"], "row 7 was never committed")
        let committed = try XCTUnwrap(String(data: try XCTUnwrap(contents("out/2.json")), encoding: .utf8))
        XCTAssertTrue(committed.contains("grace@example.org"), committed)
        var after = try folderStamps(work)
        after["out"] = nil
        XCTAssertEqual(after, before, "the store and its hot journal are as they were")
    }
}
