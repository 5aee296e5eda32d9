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
    /// Before a store is written: a consistent copy at `backup`, or at
    /// `STORE.bak`; an existing backup is never overwritten. Returns its path.
    func backUp(_ db: SQLiteDatabase, to backup: String?) throws -> String? {
        guard let store = sqlite else { return nil }
        let path = backup ?? store + ".bak"
        guard !FileIO.exists(path) else {
            throw PlistError(.io, "the backup \(path) exists already; remove it or choose another with --backup PATH")
        }
        try db.backup(to: path)
        Console.output("\(store): backed up to \(path)")
        Console.flush()
        return path
    }

    /// Removes the backup a run wrote when the run left the store unchanged,
    /// so that a retry is not refused by it.
    func removeBackup(_ path: String?) {
        guard let store = sqlite, let path, unlink(path) == 0 else { return }
        Console.error("\(store): removed the backup \(path) (the store is unchanged)")
    }

    /// The errors of the row that rolled a store's transaction back.
    func reportRolledBack(_ failure: StoreMigration.Failure) {
        guard let store = sqlite, let column = blobColumn else { return }
        for e in failure.errors { Console.error(e.formatted(path: "\(store): \(column.label) row \(failure.row)")) }
        Console.error("\(store): error: row \(failure.row) failed; the transaction was rolled back and the store is unchanged (--keep-going skips failing rows)")
    }

    /// The errors of rows that --keep-going left untouched.
    func reportLeftUntouched(_ failures: [StoreMigration.Failure]) {
        guard let store = sqlite, let column = blobColumn else { return }
        for failure in failures {
            let label = "\(store): \(column.label) row \(failure.row)"
            for e in failure.errors { Console.error(e.formatted(path: label)) }
            Console.error("\(label): error: left untouched")
        }
    }
}
