import ArchivistBatch
import ArchivistCore
import ArchivistDatabase
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where archives stored in an SQLite database are: `--sqlite STORE --table T --column C`.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp("An SQLite database (a Core Data store) whose blobs to work on.", valueName: "STORE"))
    var sqlite: String?

    @Option(help: ArgumentHelp("With --sqlite, the table.", valueName: "TABLE"))
    var table: String?

    @Option(help: ArgumentHelp("With --sqlite, the blob column.", valueName: "COLUMN"))
    var column: String?

    /// The column named, when both --table and --column are given.
    var blobColumn: BlobColumn? {
        guard let table, let column else { return nil }
        return BlobColumn(table: table, column: column)
    }

    /// Rejects --table/--column without --sqlite, and one without the other
    /// when `bothRequired` (or when either is given).
    func validate(requireColumn: Bool) throws {
        if sqlite == nil, table != nil || column != nil { throw ValidationError("--table and --column go with --sqlite.") }
        guard sqlite != nil else { return }
        if (table == nil) != (column == nil) { throw ValidationError("Give both --table and --column.") }
        if requireColumn, table == nil { throw ValidationError("--sqlite needs --table and --column here.") }
    }
}

extension DatabaseOptions {
    /// Before a store is written, inside the run's write transaction: a copy
    /// of the store exactly as the run starts from, at `backup` or at
    /// `STORE.bak`, with the store's permissions (and owner where permitted).
    /// An existing backup is never overwritten; one that holds exactly the
    /// copy (an interrupted earlier run's backup of the store as it still is)
    /// is kept, so that run can be retried as it was. Returns the path when
    /// this run wrote it.
    private func backUp(_ db: SQLiteDatabase, to backup: String?) throws -> String? {
        guard let store = sqlite else { return nil }
        let path = backup ?? store + ".bak"
        let outcome: BackupOutcome
        do {
            outcome = try db.backup(to: path)
        } catch is BackupExists {
            throw PlistError(.io, "the backup \(path) exists already and is not a copy of the store as it is now; remove it or choose another with --backup PATH")
        }
        if !outcome.ownerKept { Console.error("\(store): warning: the backup \(path) could not be given the store's owner (not permitted); it belongs to you") }
        if outcome.written {
            Console.output("\(store): backed up to \(path)")
        } else {
            Console.output("\(store): kept the backup \(path): it is a copy of the store as it is now (left by an interrupted run)")
        }
        Console.flush()
        return outcome.written ? path : nil
    }

    /// The one way a command changes a store (`migrate --sqlite`, `convert
    /// --into-column`): `body` gets the store, opened read-write (read-only
    /// for a `dryRun`, which never backs up), and `backUp`, which the run
    /// calls inside its write transaction right before its first write, and
    /// only when it writes: a retry with nothing left to change (a second
    /// run, or one after a run killed past its commit) needs no backup and
    /// so is never refused by the one a first run left. A failing row, or an
    /// error, is reported, the backup this run wrote is removed (the store is
    /// unchanged), and the command exits 1.
    func change<T>(backup: String?, dryRun: Bool = false, _ body: (SQLiteDatabase, _ backUp: () throws -> Void) throws -> T) throws -> T {
        guard let store = sqlite else { throw ExitCode.failure }
        var backupWritten: String?
        do {
            let db = dryRun ? try StoreRowOptions.open(store) : try SQLiteDatabase(path: store)
            return try body(db) { backupWritten = try backUp(db, to: backup) }
        } catch let failure as StoreMigration.Failure {
            reportRolledBack(failure)
            removeBackup(backupWritten)
            throw ExitCode.failure
        } catch let error as PlistError {
            Console.error(error.hinted(path: store))
            removeBackup(backupWritten)
            throw ExitCode.failure
        }
    }

    /// Removes the backup a run wrote when the run left the store unchanged,
    /// so that a retry is not refused by it.
    func removeBackup(_ path: String?) {
        guard let store = sqlite, let path, SystemPath.with(path, { unlink($0) }) == 0 else { return }
        Console.error("\(store): removed the backup \(path) (the store is unchanged)")
    }

    /// The errors of the row that rolled a store's transaction back.
    func reportRolledBack(_ failure: StoreMigration.Failure) {
        guard let store = sqlite, let column = blobColumn else { return }
        for e in failure.errors { Console.error(e.commandFormatted(path: "\(store): \(column.label) row \(failure.row)")) }
        Console.error("\(store): error: row \(failure.row) failed; the transaction was rolled back and the store is unchanged (--keep-going skips failing rows)")
    }

    /// The errors of rows that --keep-going left untouched.
    func reportLeftUntouched(_ failures: [StoreMigration.Failure]) {
        guard let store = sqlite, let column = blobColumn else { return }
        for failure in failures {
            let label = "\(store): \(column.label) row \(failure.row)"
            for e in failure.errors { Console.error(e.hinted(path: label)) }
            Console.error("\(label): error: left untouched")
        }
    }
}
