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
    /// exist or holds no blobs (with the blob columns there are), the row has
    /// no blob. Rows holding text or numbers instead of blobs are not read:
    /// one warning names them. A store read as its file is (a hot journal, a
    /// WAL store on read-only media) gets a warning that says what that means.
    func forEachRow(_ body: (StoreRow) throws -> Void) throws {
        guard let store = database.sqlite, let column = database.blobColumn else { return }
        let db = try Self.open(store)
        if let row {
            try column.forEachBlob(in: db, row: row) { rowid, bytes in
                try body(StoreRow(rowid: rowid, bytes: bytes, label: "\(store): \(column.label) row \(rowid)"))
            }
            return
        }
        var others: [(row: Int64, type: String)] = []
        try column.forEachValue(in: db) { rowid, value in
            guard case .blob(let bytes) = value else {
                others.append((rowid, value.typeName))
                return
            }
            try body(StoreRow(rowid: rowid, bytes: bytes, label: "\(store): \(column.label) row \(rowid)"))
        }
        if let warning = Self.notBlobsWarning(others) { Self.warnOnce("\(store): \(column.label): warning: \(warning)") }
    }

    /// Opens a store for reading (``SQLiteDatabase/openForReading(path:)``),
    /// printing its warning once however often the store is opened.
    static func open(_ store: String) throws -> SQLiteDatabase {
        let opened = try SQLiteDatabase.openForReading(path: store)
        if let warning = opened.warning { warnOnce("\(store): warning: \(warning)") }
        return opened.database
    }

    /// `N rows hold values that are not blobs and were not read: row 5 (text), ...`
    /// (the first 20 named), or nil when there are none.
    static func notBlobsWarning(_ rows: [(row: Int64, type: String)]) -> String? {
        guard !rows.isEmpty else { return nil }
        let named = rows.prefix(20).map { "row \($0.row) (\($0.type))" }.joined(separator: ", ")
        let more = rows.count > 20 ? " and \(rows.count - 20) more" : ""
        return "\(rows.count) \(rows.count == 1 ? "row holds a value that is not a blob and was" : "rows hold values that are not blobs and were") not read: \(named)\(more)"
    }

    /// The warnings printed so far.
    private static let warned = Locked(Set<String>())

    /// Prints a warning on standard error unless it was printed before.
    static func warnOnce(_ line: String) {
        if warned.withLock({ $0.insert(line).inserted }) { Console.error(line) }
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
