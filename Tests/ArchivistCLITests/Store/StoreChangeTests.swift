import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// Commands that change a store (issue 34, items 5, 6, 11 and 17): backups
/// SQLite would delete, retries, rows a trigger skips, columns that hold
/// other data.
extension CLITests {
    private var contactArguments: [String] { ["--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"] }

    /// A backup named after one of the store's own files (its journal, its
    /// log, its shared-memory file), which SQLite deletes or replays when
    /// the store next opens, is refused, by whatever path it is named, and
    /// the store is left as it was; the store itself too.
    func testBackupNamedAfterTheStoresOwnFilesIsRefused() throws {
        let store = try makeStore("Own.sqlite")
        let before = contents(store)
        try FileManager.default.createDirectory(at: work.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for backup in ["Own.sqlite-journal", "Own.sqlite-wal", "Own.sqlite-shm", "sub/../Own.sqlite-journal", "./Own.sqlite"] {
            let migrate = try run(["migrate", "--sqlite", store] + contactArguments + ["--rules", contactRules(), "--backup", backup])
            XCTAssertEqual(migrate.status, 1, backup)
            XCTAssertTrue(migrate.stderr.hasPrefix("Own.sqlite: error: the backup \(backup) would be the store"), migrate.stderr)
            XCTAssertTrue(migrate.stderr.contains("which SQLite deletes or replays when the store is next opened; choose another --backup PATH\n"), migrate.stderr)
            let fill = try run(["convert", "--sqlite", store] + contactArguments + ["--to", "codable-json", "--into-column", "ZJSON", "--backup", backup])
            XCTAssertEqual(fill.status, 1, backup)
            XCTAssertTrue(fill.stderr.hasPrefix("Own.sqlite: error: the backup \(backup) would be the store"), fill.stderr)
            XCTAssertEqual(contents(store), before, "the store is unchanged")
        }
        XCTAssertEqual(try listing(), ["Own.sqlite", "contact-rules.json", "sub"])
        // Through a link to the store, the files SQLite uses are the real store's.
        XCTAssertEqual(symlink("Own.sqlite", work.appendingPathComponent("link.sqlite").path), 0)
        let linked = try run(["migrate", "--sqlite", "link.sqlite"] + contactArguments + ["--rules", contactRules(), "--backup", "Own.sqlite-wal"])
        XCTAssertEqual(linked.status, 1, linked.stdout)
        XCTAssertTrue(linked.stderr.contains("would be the store's -wal file"), linked.stderr)
    }

    /// `convert --into-column` run again, or after a run killed past its
    /// commit, retries as `migrate` does: nothing left to write, no backup
    /// needed, exit 0; the first run's backup is kept as it was.
    func testColumnFillRetriesAsMigrateDoes() throws {
        let store = try makeStore("Again.sqlite")
        let fill = ["convert", "--sqlite", store] + contactArguments + ["--to", "codable-json", "--into-column", "ZJSON"]
        let first = try run(fill)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "Again.sqlite: backed up to Again.sqlite.bak\nAgain.sqlite: added the column ZEMPLOYEEENTITY.ZJSON\n"
                       + "Again.sqlite: ZEMPLOYEEENTITY.ZCONTACT -> ZEMPLOYEEENTITY.ZJSON: wrote 3 rows, 0 unchanged, 0 failed\n")
        let backup = contents("Again.sqlite.bak")
        let second = try run(fill)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, "Again.sqlite: ZEMPLOYEEENTITY.ZCONTACT -> ZEMPLOYEEENTITY.ZJSON: wrote 0 rows, 3 unchanged, 0 failed\n")
        XCTAssertEqual(second.stderr, "")
        XCTAssertEqual(contents("Again.sqlite.bak"), backup)
        // A row whose archive changed since: written again, after a backup; the old one is never overwritten.
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path)
        try db.execute("UPDATE ZEMPLOYEEENTITY SET ZCONTACT = (SELECT ZCONTACT FROM ZEMPLOYEEENTITY WHERE Z_PK = 1) WHERE Z_PK = 2")
        let changed = try run(fill + ["--backup", "second.bak"])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertTrue(changed.stdout.hasSuffix("wrote 1 rows, 2 unchanged, 0 failed\n"), changed.stdout)
        XCTAssertEqual(contents("Again.sqlite.bak"), backup)
    }

    /// A trigger that skips updates (`RAISE(IGNORE)`) makes those rows
    /// failures, not migrated ones: the whole run rolls back, or with
    /// --keep-going those rows are reported and the exit status is 1.
    func testRowsATriggerSkipsAreFailures() throws {
        let store = try makeStore("Trigger.sqlite")
        let path = work.appendingPathComponent(store).path
        let db = try SQLiteDatabase(path: path)
        try db.execute("CREATE TRIGGER keep BEFORE UPDATE ON ZEMPLOYEEENTITY WHEN old.Z_PK = 2 BEGIN SELECT RAISE(IGNORE); END")
        let before = contents(store)
        let migrate = try run(["migrate", "--sqlite", store] + contactArguments + ["--rules", contactRules()])
        XCTAssertEqual(migrate.status, 1, migrate.stdout)
        XCTAssertTrue(migrate.stderr.contains("Trigger.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: error: the update changed 0 rows instead of 1 (a trigger skipped it, e.g. RAISE(IGNORE)); the row is as it was\n"), migrate.stderr)
        XCTAssertTrue(migrate.stderr.hasSuffix("Trigger.sqlite: error: row 2 failed; the transaction was rolled back and the store is unchanged (--keep-going skips failing rows)\n"
                                               + "Trigger.sqlite: removed the backup Trigger.sqlite.bak (the store is unchanged)\n"), migrate.stderr)
        XCTAssertEqual(contents(store), before)

        let keepGoing = try run(["migrate", "--sqlite", store] + contactArguments + ["--rules", contactRules(), "--keep-going"])
        XCTAssertEqual(keepGoing.status, 1, keepGoing.stdout)
        XCTAssertEqual(migratedRows(keepGoing.stdout, store), [1, 3])
        XCTAssertTrue(keepGoing.stdout.hasSuffix("Trigger.sqlite: ZEMPLOYEEENTITY.ZCONTACT: migrated 2 rows, 0 unchanged, 1 failed\n"), keepGoing.stdout)
        XCTAssertTrue(keepGoing.stderr.contains("Trigger.sqlite: ZEMPLOYEEENTITY.ZCONTACT row 2: error: left untouched\n"), keepGoing.stderr)

        let fill = try run(["convert", "--sqlite", store] + contactArguments + ["--to", "codable-json", "--into-column", "ZJSON", "--backup", "fill.bak", "--keep-going"])
        XCTAssertEqual(fill.status, 1, fill.stdout)
        XCTAssertTrue(fill.stdout.hasSuffix("wrote 2 rows, 0 unchanged, 1 failed\n"), fill.stdout)
        let filled = try blobRows(store, column: "ZJSON")
        XCTAssertEqual(filled, [1, 3], "row 2 was skipped by the trigger")
    }

    /// `--into-column` naming a column that holds other blobs is refused,
    /// and nothing is written; the command's own earlier output (JSON) is
    /// replaced where it changed.
    func testColumnFillRefusesAColumnHoldingOtherData() throws {
        let store = try makeStore("Other.sqlite")
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path)
        try db.execute("ALTER TABLE ZEMPLOYEEENTITY ADD COLUMN ZPHOTO BLOB; UPDATE ZEMPLOYEEENTITY SET ZPHOTO = X'89504E470D0A1A0A0000' WHERE Z_PK = 2")
        let before = contents(store)
        let refused = try run(["convert", "--sqlite", store] + contactArguments + ["--to", "codable-json", "--into-column", "ZPHOTO"])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertEqual(refused.stderr, "Other.sqlite: error: ZEMPLOYEEENTITY.ZPHOTO holds other data than this command writes (row 2); nothing was written: fill a new column (or one a previous run filled)\n")
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(contents(store), before)
        XCTAssertEqual(try listing(), ["Other.sqlite"], "no backup is left")
        // An earlier run's JSON (from another archive) is this command's own output.
        try db.execute("UPDATE ZEMPLOYEEENTITY SET ZPHOTO = CAST('{\"tel\":\"old\"}' AS BLOB) WHERE Z_PK = 2")
        let replaced = try run(["convert", "--sqlite", store] + contactArguments + ["--to", "codable-json", "--into-column", "ZPHOTO"])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(replaced.stdout.hasSuffix("wrote 3 rows, 0 unchanged, 0 failed\n"), replaced.stdout)
    }
}
