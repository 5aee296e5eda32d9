import ArchivistCore

extension SQLiteDatabase {
    /// The SQL that names the row id of `table`: `_rowid_`, `rowid` or `oid`,
    /// the first that no column of the table shadows (a user column named
    /// `rowid` holds whatever the app put there, not the row id), else the
    /// table's INTEGER PRIMARY KEY column, which is the row id. A `WITHOUT
    /// ROWID` table, or one that shadows all three names and has no INTEGER
    /// PRIMARY KEY, has no row id to address rows by: an error that says so.
    package func rowID(of table: String) throws -> String {
        let info = try prepare("PRAGMA table_info(\(Self.quote(table)))")
        var names = Set<String>(), keys: [(name: String, type: String)] = []
        while try info.step() {
            let name = info.text(1) ?? ""
            names.insert(name.asciiLowercased)
            if info.int(5) > 0 { keys.append((name, info.text(2) ?? "")) }
        }
        for alias in ["_rowid_", "rowid", "oid"] where !names.contains(alias) {
            guard (try? prepare("SELECT \(alias) FROM \(Self.quote(table)) LIMIT 0")) != nil else {
                throw PlistError(.io, "\(table) is a WITHOUT ROWID table: its rows have no row id to address them by (Archivist works on tables with row ids, as Core Data makes them)")
            }
            return alias
        }
        if keys.count == 1, let key = keys.first, key.type.asciiLowercased == "integer" { return Self.quote(key.name) }
        throw PlistError(.io, "\(table) has columns named _rowid_, rowid and oid and no INTEGER PRIMARY KEY: its rows cannot be addressed by their row id")
    }
}

extension String {
    /// The string with ASCII letters lowercased, as SQLite compares identifiers.
    var asciiLowercased: String {
        String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
