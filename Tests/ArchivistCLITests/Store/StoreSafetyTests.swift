import ArchivistTestSupport
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Store migrations on a real machine (issue 24, items 6 and 7): a
/// concurrent writer, a killed run retried, backups that keep the store's
/// permissions and owner.
extension CLITests {
    private var contactColumn: [String] { ["--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"] }

    /// Starts the built `archivist` without waiting for it.
    func launch(_ args: [String]) throws -> RunningProcess {
        try ProcessRunner.start(ProcessRunner.archivist, args, in: work)
    }

    /// Waits for a launched `archivist` and collects what it wrote.
    func finish(_ launched: RunningProcess) -> Result {
        launched.finish()
    }

    /// Waits until a file of the scratch folder exists, at most `seconds`; true when it does.
    func waitFor(_ name: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: work.appendingPathComponent(name).path) { return true }
            usleep(5_000)
        }
        return FileManager.default.fileExists(atPath: work.appendingPathComponent(name).path)
    }

    /// An archive of a version 1 contact.
    func contactArchive(email: String) throws -> [UInt8] {
        [UInt8](try NSKeyedArchiver.archivedData(withRootObject: ContactV1(tel: "1", fax: "2", email: email), requiringSecureCoding: false))
    }

    /// The rowids of a column's blobs in a store of the scratch folder.
    func blobRows(_ store: String, table: String = "ZEMPLOYEEENTITY", column: String = "ZCONTACT") throws -> [Int64] {
        let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path, readOnly: true)
        var rows: [Int64] = []
        try BlobColumn(table: table, column: column).forEachBlob(in: db) { row, _ in rows.append(row) }
        return rows
    }

    /// The rows a migration's output lists as migrated.
    func migratedRows(_ stdout: String, _ store: String) -> [Int64] {
        stdout.split(separator: "\n").compactMap { line in
            let prefix = "\(store): ZEMPLOYEEENTITY.ZCONTACT row "
            guard line.hasPrefix(prefix), line.hasSuffix(":") else { return nil }
            return Int64(line.dropFirst(prefix.count).dropLast())
        }
    }

    /// A writer holds the write lock with rows it has not committed when the
    /// migration starts, and commits once the migration had its chance to
    /// back up (the old code backed up before taking the write lock, so the
    /// backup lacked the rows it then migrated). The backup holds exactly
    /// the rows migrated, whoever wins.
    func testStoreBackupIsTheStoreMigratedDespiteAConcurrentWriter() throws {
        let store = try makeStore("Busy.sqlite")
        let writer = try SQLiteDatabase(path: work.appendingPathComponent(store).path)
        try writer.execute("BEGIN IMMEDIATE")
        let insert = try writer.prepare("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (?, 1, 1, 'New', ?)")
        for row in Int64(5)...8 {
            insert.reset()
            try insert.bind(1, int: row)
            try insert.bind(2, blob: try contactArchive(email: "new\(row)@example.com"))
            _ = try insert.step()
        }
        let migration = try launch(["migrate", "--sqlite", store] + contactColumn + ["--rules", contactRules()])
        // Not a timing assertion: only how long the old code is given to show its race.
        _ = waitFor("Busy.sqlite.bak", seconds: 2)
        try writer.execute("COMMIT")
        let result = finish(migration)
        XCTAssertEqual(result.status, 0, result.stderr)
        let migrated = migratedRows(result.stdout, store)
        XCTAssertEqual(migrated, [1, 2, 3, 5, 6, 7, 8], result.stdout)
        XCTAssertEqual(try blobRows("Busy.sqlite.bak"), migrated, "the backup is the store the migration started from")
    }

    /// The same for `convert --into-column`: every row filled is in the backup.
    func testColumnFillBackupIsTheStoreFilledDespiteAConcurrentWriter() throws {
        let store = try makeStore("Fill.sqlite")
        let writer = try SQLiteDatabase(path: work.appendingPathComponent(store).path)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) SELECT 10, 1, 1, 'Copy', ZCONTACT FROM ZEMPLOYEEENTITY WHERE Z_PK = 1")
        let fill = try launch(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZJSON"])
        _ = waitFor("Fill.sqlite.bak", seconds: 2)
        try writer.execute("COMMIT")
        let result = finish(fill)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix("wrote 4 rows, 0 unchanged, 0 failed\n"), result.stdout)
        XCTAssertEqual(try blobRows("Fill.sqlite.bak"), [1, 2, 3, 10], "the backup is the store the fill started from")
    }

    /// A migration killed after its backup, before its commit, leaves the
    /// store as it was and the backup: the retry keeps that backup (byte for
    /// byte the copy it would write) and migrates; a user's file at the
    /// backup path is still never overwritten.
    func testKilledStoreMigrationIsRetriedAsItWas() throws {
        let store = try makeStore("Killed.sqlite")
        let path = work.appendingPathComponent(store).path
        let original = try XCTUnwrap(try BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT").blob(row: 1, in: SQLiteDatabase(path: path, readOnly: true)))
        // A reader's lock keeps the migration from committing until it is killed.
        let reader = try SQLiteDatabase(path: path, readOnly: true)
        try reader.execute("BEGIN")
        XCTAssertTrue(try reader.prepare("SELECT count(*) FROM ZEMPLOYEEENTITY").step())
        let migration = try launch(["migrate", "--sqlite", store] + contactColumn + ["--rules", contactRules()])
        XCTAssertTrue(waitFor("Killed.sqlite.bak", seconds: 30), "the backup is written")
        kill(migration.process.processIdentifier, SIGKILL)
        migration.process.waitUntilExit()
        try reader.execute("ROLLBACK")
        XCTAssertEqual(migration.process.terminationReason, .uncaughtSignal)

        let retry = try run(["migrate", "--sqlite", store] + contactColumn + ["--rules", contactRules()])
        XCTAssertEqual(retry.status, 0, retry.stderr)
        XCTAssertTrue(retry.stdout.hasPrefix("Killed.sqlite: kept the backup Killed.sqlite.bak: it is a copy of the store as it is now (left by an interrupted run)\n"), retry.stdout)
        XCTAssertTrue(retry.stdout.hasSuffix("migrated 3 rows, 0 unchanged, 0 failed\n"), retry.stdout)
        let backup = try SQLiteDatabase(path: work.appendingPathComponent("Killed.sqlite.bak").path, readOnly: true)
        XCTAssertEqual(try BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT").blob(row: 1, in: backup), original, "the backup holds the store before")

        // Run again with nothing left to change (as a retry of a run killed
        // after its commit): no backup is needed, the old one is kept.
        let backupBytes = contents("Killed.sqlite.bak")
        let done = try run(["migrate", "--sqlite", store] + contactColumn + ["--rules", contactRules()])
        XCTAssertEqual(done.status, 0, done.stderr)
        XCTAssertEqual(done.stdout, "Killed.sqlite: ZEMPLOYEEENTITY.ZCONTACT: migrated 0 rows, 3 unchanged, 0 failed\n")
        XCTAssertEqual(contents("Killed.sqlite.bak"), backupBytes)

        // A new legacy row: the store changed since the backup, which is not
        // its copy any more, and is kept.
        let writer = try SQLiteDatabase(path: path)
        try writer.execute("INSERT INTO ZEMPLOYEEENTITY (ZCONTACT) VALUES (X'" + original.map { String(format: "%02X", $0) }.joined() + "')")
        let again = try run(["migrate", "--sqlite", store] + contactColumn + ["--rules", contactRules()])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, "Killed.sqlite: error: the backup Killed.sqlite.bak exists already and is not a copy of the store as it is now; remove it or choose another with --backup PATH\n")
        XCTAssertEqual(contents("Killed.sqlite.bak"), backupBytes)
        // A user's file, even a plain copy of the store, is never overwritten.
        try FileManager.default.copyItem(atPath: path, toPath: work.appendingPathComponent("copy.bak").path)
        let userCopy = contents("copy.bak")
        let copy = try run(["migrate", "--sqlite", store] + contactColumn + ["--rules", contactRules(), "--backup", "copy.bak"])
        XCTAssertEqual(copy.status, 1, copy.stdout)
        XCTAssertEqual(contents("copy.bak"), userCopy)
    }

    /// A 0600 store gets a 0600 backup (not one the umask allows everyone
    /// to read), owned by the store's owner (when run as root).
    func testStoreBackupKeepsTheStoreModeAndOwner() throws {
        let store = try makeStore("Private.sqlite")
        let path = work.appendingPathComponent(store).path
        XCTAssertEqual(chmod(path, 0o600), 0)
        let asRoot = geteuid() == 0
        if asRoot { XCTAssertEqual(chown(path, 4321, 4322), 0) }
        let migrated = try run(["migrate", "--sqlite", store] + contactColumn + ["--rules", contactRules()])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let filled = try run(["convert", "--sqlite", store] + contactColumn + ["--to", "codable-json", "--into-column", "ZJSON", "--backup", "fill.bak"])
        XCTAssertEqual(filled.status, 0, filled.stderr)
        for backup in ["Private.sqlite.bak", "fill.bak"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: work.appendingPathComponent(backup).path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, backup)
            if asRoot {
                XCTAssertEqual((attributes[.ownerAccountID] as? NSNumber)?.intValue, 4321, backup)
                XCTAssertEqual((attributes[.groupOwnerAccountID] as? NSNumber)?.intValue, 4322, backup)
            }
        }
    }
}
