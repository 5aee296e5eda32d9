import ArchivistCore

/// Which rows of a blob column the read commands take, and what labels them
/// beside the rowid: `--where COLUMN=VALUE`, `--label-column NAME`.
package struct RowSelection: Sendable, Equatable {
    /// A column whose value labels each row (an iOS backup's `relativePath`).
    package var labelColumn: String?
    /// Only rows whose `filter.column` equals `filter.value` (bound as a
    /// parameter, compared with the column's affinity as SQLite compares).
    package var filter: (column: String, value: String)?

    /// A selection of every row, unlabelled unless `labelColumn` is given.
    package init(labelColumn: String? = nil, filter: (column: String, value: String)? = nil) {
        self.labelColumn = labelColumn
        self.filter = filter
    }

    /// The same label column and filter.
    package static func == (lhs: RowSelection, rhs: RowSelection) -> Bool {
        lhs.labelColumn == rhs.labelColumn && lhs.filter?.column == rhs.filter?.column && lhs.filter?.value == rhs.filter?.value
    }
}

/// One row a ``RowSelection`` took.
package struct SelectedRow: Sendable, Equatable {
    /// Its row id.
    package var rowid: Int64
    /// The blob column's value; nil for NULL.
    package var value: StoredValue?
    /// The label column's value; nil for NULL or without a label column.
    package var label: StoredValue?

    /// A row as read.
    package init(rowid: Int64, value: StoredValue?, label: StoredValue?) {
        self.rowid = rowid
        self.value = value
        self.label = label
    }
}

extension BlobColumn {
    /// Calls `body` with every row the selection takes, in rowid order
    /// (NULLs of the blob column included, as nil), or with `row` only.
    /// Fails as ``check(in:)`` does, and when a column the selection names
    /// does not exist (names are quoted, never SQL; the value is bound).
    package func forEachRow(in db: SQLiteDatabase, row: Int64? = nil, selection: RowSelection, _ body: (SelectedRow) throws -> Void) throws {
        try check(in: db)
        let columns = try db.columns(of: table).map(\.name)
        for name in [selection.labelColumn, selection.filter?.column].compactMap({ $0 }) where !columns.contains(where: { PlistKeys.same($0, name) }) {
            throw PlistError(.io, "no column \(name) in \(table) (columns: \(columns.joined(separator: ", ")))")
        }
        let rowID = try db.rowID(of: table)
        var sql = "SELECT \(rowID), \(SQLiteDatabase.quote(column))"
        if let label = selection.labelColumn { sql += ", " + SQLiteDatabase.quote(label) }
        sql += " FROM \(SQLiteDatabase.quote(table))"
        var conditions: [String] = []
        if row != nil { conditions.append("\(rowID) = ?") }
        if let filter = selection.filter { conditions.append("\(SQLiteDatabase.quote(filter.column)) = ?") }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let s = try db.prepare(sql + " ORDER BY \(rowID)")
        var parameter: Int32 = 1
        if let row {
            try s.bind(parameter, int: row)
            parameter += 1
        }
        if let filter = selection.filter { try s.bind(parameter, text: filter.value) }
        while try s.step() {
            try body(SelectedRow(rowid: s.int(0), value: s.value(1), label: selection.labelColumn == nil ? nil : s.value(2)))
        }
    }
}
