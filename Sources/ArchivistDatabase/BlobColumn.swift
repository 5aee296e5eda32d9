import ArchivistArchive
import ArchivistCore

/// A table column holding archived values as blobs, as Core Data stores
/// Transformable attributes (`ZEMPLOYEEENTITY.ZCONTACT`).
public struct BlobColumn: Sendable, Equatable {
    /// The table.
    public var table: String
    /// The column.
    public var column: String

    /// A column of a table.
    ///
    /// - Parameters:
    ///   - table: The table's name.
    ///   - column: The column's name.
    public init(table: String, column: String) {
        self.table = table
        self.column = column
    }

    /// `TABLE.COLUMN`.
    public var label: String { "\(table).\(column)" }

    /// Fails when the table or the column does not exist, or when the column
    /// holds no blob; the error names it and lists the columns that do hold blobs.
    ///
    /// - Parameter db: The open database.
    /// - Throws: `PlistError` (`io`) saying what is missing.
    public func check(in db: SQLiteDatabase) throws {
        let tables = try db.tables()
        guard tables.contains(table) else {
            throw PlistError(.io, "no table \(table) in \(db.path) (\(try Self.blobColumnList(in: db)))")
        }
        let columns = try db.columns(of: table).map(\.name)
        guard columns.contains(column) else {
            throw PlistError(.io, "no column \(column) in \(table) (columns: \(columns.joined(separator: ", ")); \(try Self.blobColumnList(in: db)))")
        }
        guard try !holdsBlobs(in: db) else { return }
        let counts = try db.prepare("SELECT typeof(\(SQLiteDatabase.quote(column))), count(*) FROM \(SQLiteDatabase.quote(table)) GROUP BY 1 ORDER BY 1")
        var found: [String] = []
        while try counts.step() { found.append("\(counts.int(1)) \(counts.text(0) ?? "unknown")") }
        let values = found.isEmpty ? "the table has no rows" : "its values: " + found.joined(separator: ", ")
        throw PlistError(.io, "\(label) holds no blobs (\(values)); \(try Self.blobColumnList(in: db))")
    }

    /// True when at least one value of the column is a blob.
    private func holdsBlobs(in db: SQLiteDatabase) throws -> Bool {
        let s = try db.prepare("SELECT 1 FROM \(SQLiteDatabase.quote(table)) WHERE typeof(\(SQLiteDatabase.quote(column))) = 'blob' LIMIT 1")
        return try s.step()
    }

    /// Every column of every table that holds at least one blob, in table and column order.
    ///
    /// - Parameter db: The open database.
    /// - Returns: The columns.
    /// - Throws: `PlistError` (`io`) when SQLite fails.
    public static func blobColumns(in db: SQLiteDatabase) throws -> [BlobColumn] {
        var found: [BlobColumn] = []
        for table in try db.tables() {
            for (name, _) in try db.columns(of: table) {
                let column = BlobColumn(table: table, column: name)
                if try column.holdsBlobs(in: db) { found.append(column) }
            }
        }
        return found
    }

    /// `blob columns: T.C, ...` (or that there are none), for errors.
    private static func blobColumnList(in db: SQLiteDatabase) throws -> String {
        let columns = try blobColumns(in: db)
        return columns.isEmpty ? "no column holds blobs" : "blob columns: " + columns.map(\.label).joined(separator: ", ")
    }

    /// Calls `body` with the rowid and bytes of every blob in the column, in
    /// rowid order (NULLs and non-blob values are skipped: see
    /// ``forEachValue(in:row:_:)``), or with `row`, only that row's blob (an
    /// error when it has none). Fails first as `check` does, and for a
    /// table whose rows have no row id (`WITHOUT ROWID`). Rows are always
    /// addressed by their row id, also when a column is named `rowid`.
    ///
    /// - Parameters:
    ///   - db: The open database.
    ///   - row: One row's id, or nil for every row.
    ///   - body: Called with each row's id and blob.
    /// - Throws: `PlistError` (`io`) as described, and what `body` throws.
    public func forEachBlob(in db: SQLiteDatabase, row: Int64? = nil, _ body: (Int64, [UInt8]) throws -> Void) throws {
        if let row {
            let value = try value(row: row, in: db)
            guard case .blob(let bytes)? = value else {
                throw PlistError(.io, Self.notABlobMessage(row: row, of: label, holding: value))
            }
            try body(row, bytes)
            return
        }
        try forEachValue(in: db) { rowid, value in
            if case .blob(let bytes) = value { try body(rowid, bytes) }
        }
    }

    /// Calls `body` with the rowid and value of every row whose value is not
    /// NULL, in rowid order: blobs, and whatever else the column holds (text,
    /// integers, reals), so that no row goes uncounted. Fails first as
    /// `check` does, and for a table whose rows have no row id. With `row`,
    /// only that row's value (an error when it holds NULL or does not exist).
    ///
    /// - Parameters:
    ///   - db: The open database.
    ///   - row: One row's id, or nil for every row.
    ///   - body: Called with each row's id and value.
    /// - Throws: `PlistError` (`io`) as described, and what `body` throws.
    public func forEachValue(in db: SQLiteDatabase, row: Int64? = nil, _ body: (Int64, StoredValue) throws -> Void) throws {
        if let row {
            guard let value = try value(row: row, in: db) else { throw PlistError(.io, Self.notABlobMessage(row: row, of: label, holding: nil)) }
            try body(row, value)
            return
        }
        try check(in: db)
        let rowID = try db.rowID(of: table)
        let s = try db.prepare("SELECT \(rowID), \(SQLiteDatabase.quote(column)) FROM \(SQLiteDatabase.quote(table)) ORDER BY \(rowID)")
        while try s.step() {
            guard let value = s.value(1) else { continue }
            try body(s.int(0), value)
        }
    }

    /// What a row that was asked for holds instead of a blob, for errors:
    /// `row 4 of T.C is NULL (no value, so nothing to read)`, or
    /// `row 4 of T.C holds text, not a blob`.
    package static func notABlobMessage(row: Int64, of label: String, holding value: StoredValue?) -> String {
        guard let value else { return "row \(row) of \(label) is NULL (no value, so nothing to read)" }
        return "row \(row) of \(label) holds \(value.typeName), not a blob"
    }

    /// One row's value, nil when it holds NULL; throws when the table has no
    /// such row, and first as `check` does.
    package func value(row: Int64, in db: SQLiteDatabase) throws -> StoredValue? {
        try check(in: db)
        let s = try db.prepare("SELECT \(SQLiteDatabase.quote(column)) FROM \(SQLiteDatabase.quote(table)) WHERE \(try db.rowID(of: table)) = ?")
        try s.bind(1, int: row)
        guard try s.step() else { throw PlistError(.io, "\(table) has no row \(row)") }
        return s.value(0)
    }

    /// The bytes of one row's blob, or nil when the row holds NULL or a value
    /// that is not a blob; throws when the table has no such row, and first
    /// as `check` does.
    package func blob(row: Int64, in db: SQLiteDatabase) throws -> [UInt8]? {
        try rowBlob(row, in: db)
    }

    private func rowBlob(_ row: Int64, in db: SQLiteDatabase) throws -> [UInt8]? {
        guard case .blob(let bytes)? = try value(row: row, in: db) else { return nil }
        return bytes
    }

    /// Every blob of the column, without row ids (a `WITHOUT ROWID` table
    /// too), for scanning every column.
    fileprivate func eachBlob(in db: SQLiteDatabase, _ body: ([UInt8]) throws -> Void) throws {
        let s = try db.prepare("SELECT \(SQLiteDatabase.quote(column)) FROM \(SQLiteDatabase.quote(table))")
        while try s.step() {
            guard s.isBlob(0), let bytes = s.blob(0) else { continue }
            try body(bytes)
        }
    }
}

/// What a scan of a whole store finds: the columns whose blobs are property
/// lists, keyed archives or NSArchiver typedstreams. Only blobs that start
/// like a property list, or text that reads as a dictionary or array, count
/// (see `BlobContent`): a bitmask such as the byte `$` is not an OpenStep
/// string in an overview.
public struct BlobColumnSummary: Sendable, Equatable {
    /// The column.
    public var column: BlobColumn
    /// Blobs in it.
    public var blobs: Int
    /// Blobs that read as property lists (archives included).
    public var propertyLists: Int
    /// Blobs that are keyed archives.
    public var archives: Int
    /// Blobs that read as NSArchiver typedstreams (an iMessage `attributedBody`).
    public var typedstreams: Int = 0

    /// Every column of every table with at least one blob that reads as a
    /// property list or a typedstream, in table and column order.
    ///
    /// - Parameter db: The open database.
    /// - Returns: A summary of each such column.
    /// - Throws: `PlistError` (`io`) when SQLite fails.
    public static func scan(_ db: SQLiteDatabase) throws -> [BlobColumnSummary] {
        var found: [BlobColumnSummary] = []
        for table in try db.tables() {
            for (name, _) in try db.columns(of: table) {
                let column = BlobColumn(table: table, column: name)
                var summary = BlobColumnSummary(column: column, blobs: 0, propertyLists: 0, archives: 0)
                try column.eachBlob(in: db) { bytes in
                    summary.blobs += 1
                    guard BlobContent.of(bytes).otherKind == nil else { return }
                    if bytes.withUnsafeBytes({ FormatSniffer.isTypedstream($0) }) {
                        if (try? Typedstream.document(bytes)) != nil { summary.typedstreams += 1 }
                        return
                    }
                    guard let tree = try? PropertyList.read(bytes).tree else { return }
                    summary.propertyLists += 1
                    if KeyedArchive.looksLikeArchive(tree) { summary.archives += 1 }
                }
                if summary.propertyLists > 0 || summary.typedstreams > 0 { found.append(summary) }
            }
        }
        return found
    }
}
