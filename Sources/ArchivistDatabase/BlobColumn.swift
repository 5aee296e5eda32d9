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
    public init(table: String, column: String) {
        self.table = table
        self.column = column
    }

    /// `TABLE.COLUMN`.
    public var label: String { "\(table).\(column)" }

    /// Fails when the table or the column does not exist.
    public func check(in db: SQLiteDatabase) throws {
        let tables = try db.tables()
        guard tables.contains(table) else {
            throw PlistError(.io, "no table \(table) in \(db.path) (tables: \(tables.joined(separator: ", ")))")
        }
        let columns = try db.columns(of: table).map(\.name)
        guard columns.contains(column) else {
            throw PlistError(.io, "no column \(column) in \(table) (columns: \(columns.joined(separator: ", ")))")
        }
    }

    /// Calls `body` with the rowid and bytes of every blob in the column, in
    /// rowid order (NULLs and non-blob values are skipped).
    public func forEachBlob(in db: SQLiteDatabase, _ body: (Int64, [UInt8]) throws -> Void) throws {
        try check(in: db)
        let s = try db.prepare("SELECT rowid, \(SQLiteDatabase.quote(column)) FROM \(SQLiteDatabase.quote(table)) ORDER BY rowid")
        while try s.step() {
            guard s.isBlob(1), let bytes = s.blob(1) else { continue }
            try body(s.int(0), bytes)
        }
    }

    /// The bytes of one row's blob, or nil when the row holds NULL or a value
    /// that is not a blob; throws when the table has no such row.
    public func blob(row: Int64, in db: SQLiteDatabase) throws -> [UInt8]? {
        try check(in: db)
        let s = try db.prepare("SELECT \(SQLiteDatabase.quote(column)) FROM \(SQLiteDatabase.quote(table)) WHERE rowid = ?")
        try s.bind(1, int: row)
        guard try s.step() else { throw PlistError(.io, "\(table) has no row \(row)") }
        guard s.isBlob(0) else { return nil }
        return s.blob(0)
    }
}

/// What a scan of a whole store finds: the columns whose blobs are property
/// lists or keyed archives.
public struct BlobColumnSummary: Sendable, Equatable {
    /// The column.
    public var column: BlobColumn
    /// Blobs in it.
    public var blobs: Int
    /// Blobs that read as property lists (archives included).
    public var propertyLists: Int
    /// Blobs that are keyed archives.
    public var archives: Int

    /// Every column of every table with at least one blob that reads as a
    /// property list, in table and column order.
    public static func scan(_ db: SQLiteDatabase) throws -> [BlobColumnSummary] {
        var found: [BlobColumnSummary] = []
        for table in try db.tables() {
            for (name, _) in try db.columns(of: table) {
                let column = BlobColumn(table: table, column: name)
                var summary = BlobColumnSummary(column: column, blobs: 0, propertyLists: 0, archives: 0)
                try column.forEachBlob(in: db) { _, bytes in
                    summary.blobs += 1
                    guard let value = try? PropertyList.read(bytes).value else { return }
                    summary.propertyLists += 1
                    if KeyedArchive.looksLikeArchive(value) { summary.archives += 1 }
                }
                if summary.propertyLists > 0 { found.append(summary) }
            }
        }
        return found
    }
}
