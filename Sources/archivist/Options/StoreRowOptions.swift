import ArchivistCore
import ArchivistDatabase
import ArgumentParser

/// One blob of a store's column, as the read commands see it.
struct StoreRow {
    /// Its rowid (Core Data's Z_PK).
    var rowid: Int64
    /// The blob.
    var bytes: [UInt8]
    /// `STORE: TABLE.COLUMN row N`, the name its results and errors carry.
    var label: String
}

/// What the read commands (`dump`, `classes`, `info`, `lint`, `convert`) take
/// to work on the archives of a store: `--sqlite STORE --table T --column C`
/// for every blob of the column, `--row ID` for one.
struct StoreRowOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("With --sqlite, only the blob of this rowid (Core Data's Z_PK).", valueName: "ID"))
    var row: Int64?

    /// True when --sqlite is given.
    var isSet: Bool { database.sqlite != nil }

    /// Rejects --table/--column/--row without --sqlite, and --row without a column;
    /// `requireColumn` also makes --table and --column required with --sqlite.
    func validate(requireColumn: Bool) throws {
        try database.validate(requireColumn: requireColumn || row != nil)
        if row != nil, database.sqlite == nil { throw ValidationError("--row goes with --sqlite.") }
    }

    /// Opens the store read-only and calls `body` with each blob of the column
    /// (only --row's when given), in rowid order. Throws a `PlistError` naming
    /// the store's problem: it cannot be opened, the table or column does not
    /// exist or holds no blobs (with the blob columns there are), the row has no blob.
    func forEachRow(_ body: (StoreRow) throws -> Void) throws {
        guard let store = database.sqlite, let column = database.blobColumn else { return }
        let db = try SQLiteDatabase(path: store, readOnly: true)
        try column.forEachBlob(in: db, row: row) { rowid, bytes in
            try body(StoreRow(rowid: rowid, bytes: bytes, label: "\(store): \(column.label) row \(rowid)"))
        }
    }

    /// `forEachRow` for the read commands: a `PlistError` of one row is
    /// printed as that row's (`STORE: T.C row N: error: …`) and the next row
    /// is read; one of the store itself is printed as the store's. Returns
    /// false when anything failed.
    func forEachRowReportingErrors(_ body: (StoreRow) throws -> Void) throws -> Bool {
        var ok = true
        do {
            try forEachRow { row in
                do {
                    try body(row)
                } catch let error as PlistError {
                    Console.error(error.formatted(path: row.label))
                    ok = false
                }
            }
        } catch let error as PlistError {
            Console.error(error.formatted(path: database.sqlite ?? "-"))
            ok = false
        }
        return ok
    }
}
