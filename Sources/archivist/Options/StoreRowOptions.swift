import ArchivistCore
import ArchivistDatabase
import ArgumentParser

/// One blob of a store's column, as the read commands see it.
struct StoreRow {
    /// Its rowid (Core Data's Z_PK).
    var rowid: Int64
    /// The blob.
    var bytes: [UInt8]
    /// `STORE: TABLE.COLUMN row N`, the name its results and errors carry,
    /// with `(NAME: VALUE)` after it when --label-column names a column.
    var label: String
    /// The --label-column value (nil for NULL or without the option).
    var labelValue: StoredValue?
}

/// What the read commands (`dump`, `classes`, `info`, `lint`, `convert`) take
/// to work on the archives of a store: `--sqlite STORE --table T --column C`
/// for every blob of the column, `--row ID` for one.
struct StoreRowOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("With --sqlite, only the blob of this rowid (Core Data's Z_PK).", valueName: "ID"))
    var row: Int64?

    @Option(name: .customLong("label-column"), help: ArgumentHelp("With --sqlite, label each row with this column's value too (an iOS backup's relativePath).", valueName: "NAME"))
    var labelColumn: String?

    @Option(name: .customLong("where"), help: ArgumentHelp("With --sqlite, only rows whose COLUMN holds VALUE (compared by SQLite, never read as SQL).", valueName: "COLUMN=VALUE"))
    var filter: String?

    /// --label-column and --where for the store.
    var selection: RowSelection {
        var selection = RowSelection(labelColumn: labelColumn)
        if let filter, let eq = filter.firstIndex(of: "=") {
            selection.filter = (String(filter[..<eq]), String(filter[filter.index(after: eq)...]))
        }
        return selection
    }

    /// True when --sqlite is given.
    var isSet: Bool { database.sqlite != nil }

    /// Rejects --table/--column/--row without --sqlite, and --row without a column;
    /// `requireColumn` also makes --table and --column required with --sqlite.
    func validate(requireColumn: Bool) throws {
        try database.validate(requireColumn: requireColumn || row != nil)
        if row != nil, database.sqlite == nil { throw ValidationError("--row goes with --sqlite.") }
        if database.sqlite == nil, labelColumn != nil || filter != nil { throw ValidationError("--label-column and --where go with --sqlite.") }
        if let filter {
            guard let eq = filter.firstIndex(of: "="), eq != filter.startIndex else {
                throw ValidationError("--where takes COLUMN=VALUE (the first = ends the column's name).")
            }
            if row != nil { throw ValidationError("--row picks one row and --where selects rows: give one.") }
        }
        if labelColumn?.isEmpty == true { throw ValidationError("--label-column takes a column's name.") }
    }

    /// Opens the store read-only and calls `body` with each blob of the column
    /// (only --row's when given, only those --where selects), in rowid order,
    /// labelled with --label-column's value when given. Throws a `PlistError`
    /// naming the store's problem: it cannot be opened, the table or a column
    /// does not exist or holds no blobs (with the blob columns there are), the
    /// row has no blob; a --where that selects no row is a warning. Rows
    /// holding text or numbers instead of blobs are not read:
    /// one warning names them. Blobs that are neither property lists nor
    /// archives (``BlobContent``: gzip bodies beside archives, bitmasks) are
    /// not read either: `other` gets each with its kind (`gzip data`);
    /// without it one warning names them. --row's blob is always read, as a
    /// file named on the command line is. A store read from a private copy
    /// (a hot journal) gets a warning that says so.
    func forEachRow(other: ((StoreRow, String) -> Void)? = nil, _ body: (StoreRow) throws -> Void) throws {
        guard let store = database.sqlite, let column = database.blobColumn else { return }
        let db = try Self.open(store)
        let selection = self.selection
        var others: [(row: Int64, type: String)] = []
        var skipped: [String] = []
        var found = false
        try column.forEachRow(in: db, row: row, selection: selection) { selected in
            found = true
            guard case .blob(let bytes)? = selected.value else {
                if let row { throw PlistError(.io, BlobColumn.notABlobMessage(row: row, of: column.label, holding: selected.value)) }
                if let value = selected.value { others.append((selected.rowid, value.typeName)) }
                return
            }
            var label = "\(store): \(column.label) row \(selected.rowid)"
            if let name = selection.labelColumn { label += " (\(name): \(Self.labelText(selected.label)))" }
            let storeRow = StoreRow(rowid: selected.rowid, bytes: bytes, label: label, labelValue: selected.label)
            if row == nil, let kind = BlobContent.of(bytes).otherKind {
                let described = Self.describe(kind, size: bytes.count)
                if let other { other(storeRow, described) } else { skipped.append("row \(selected.rowid) (\(described))") }
                return
            }
            try body(storeRow)
        }
        if let row, !found { throw PlistError(.io, "\(column.table) has no row \(row)") }
        if let filter = selection.filter, !found {
            Self.warnOnce("\(store): \(column.label): warning: no row has \(filter.column) = \(filter.value)")
        }
        if let warning = Self.notBlobsWarning(others) { Self.warnOnce("\(store): \(column.label): warning: \(warning)") }
        if !skipped.isEmpty {
            let more = skipped.count > 20 ? " and \(skipped.count - 20) more" : ""
            let what = skipped.count == 1 ? "1 blob holds no property list or archive and was" : "\(skipped.count) blobs hold no property list or archive and were"
            Self.warnOnce("\(store): \(column.label): warning: \(what) not read: \(skipped.prefix(20).joined(separator: ", "))\(more)")
        }
    }

    /// `gzip data, 1,204 bytes`: a blob's kind and size.
    static func describe(_ kind: String, size: Int) -> String {
        var digits = String(size)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return "\(kind), \(digits)\(grouped) \(size == 1 ? "byte" : "bytes")"
    }

    /// A --label-column value as a label shows it: text as it is (control
    /// characters are escaped where it is printed), numbers in decimal, a
    /// blob by its size, NULL as `NULL`.
    static func labelText(_ value: StoredValue?) -> String {
        switch value {
        case .text(let bytes)?: return String(decoding: bytes, as: UTF8.self)
        case .integer(let n)?: return String(n)
        case .real(let r)?: return String(r)
        case .blob(let bytes)?: return "a blob of \(bytes.count) bytes"
        case nil: return "NULL"
        }
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
    func forEachRowReportingErrors(other: ((StoreRow, String) -> Void)? = nil, _ body: (StoreRow) throws -> Void) throws -> Bool {
        var ok = true
        do {
            try forEachRow(other: other) { row in
                do {
                    try body(row)
                } catch let error as PlistError {
                    Console.error(error.hinted(path: row.label))
                    ok = false
                }
            }
        } catch let error as PlistError {
            Console.error(error.commandFormatted(path: database.sqlite ?? "-"))
            ok = false
        }
        return ok
    }
}
