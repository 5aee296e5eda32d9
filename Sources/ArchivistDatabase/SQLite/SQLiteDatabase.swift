import ArchivistCore
import CSQLite
import CSystemLibraryLoader

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to an SQLite database (a Core Data store) through the system
/// library. Library users open one and hand it to ``BlobColumn``,
/// ``StoreMigration`` or ``ColumnFill``, list its tables and back it up; the
/// statements and transactions those run are the package's own business.
public final class SQLiteDatabase {
    let handle: OpaquePointer
    /// The file the connection opened.
    public let path: String
    /// The private folder of the copy this connection reads instead of
    /// `path`, removed when it closes (see ``openForReading(path:)``).
    var privateCopy: String?

    /// Opens a database file; `readOnly` opens it without write access. A
    /// missing file is an error (never created). Commands that only read
    /// open a store with ``openForReading(path:)``, which also reads a store
    /// that a read-only connection cannot open as it is.
    ///
    /// - Parameters:
    ///   - path: The database file's path.
    ///   - readOnly: Open without write access.
    /// - Throws: `PlistError` (`io`) when the file is missing or SQLite
    ///   cannot open it.
    public convenience init(path: String, readOnly: Bool = false) throws {
        try self.init(filename: path, path: path, flags: (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX)
    }

    /// Opens `filename` (a path, or a `file:` URI with `SQLITE_OPEN_URI`) as `path`.
    init(filename: String, path: String, flags: Int32) throws {
        try Self.requireLibrary()
        var db: OpaquePointer?
        let rc = SystemPath.with(filename) { sqlite3_open_v2($0, &db, flags, nil) }
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close(db) }
            throw PlistError(.io, "cannot open the database \(path): \(message)")
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 5_000)
    }

    /// Creates a new, empty database file (for tests and tools).
    package static func create(path: String) throws -> SQLiteDatabase {
        try requireLibrary()
        var db: OpaquePointer?
        guard SystemPath.with(path, { sqlite3_open_v2($0, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) }) == SQLITE_OK, let db else {
            throw PlistError(.io, "cannot create the database \(path)")
        }
        sqlite3_close(db)
        return try SQLiteDatabase(path: path)
    }

    /// Loads SQLite (on Linux it is loaded on first use, see
    /// `CSystemLibraryLoader`); throws `PlistError` (`io`) saying why it
    /// cannot be.
    static func requireLibrary() throws {
        if let problem = archivist_sqlite_problem() {
            throw PlistError(.io, "stores are read with SQLite, which could not be loaded: \(String(cString: problem))")
        }
    }

    deinit {
        sqlite3_close_v2(handle)
        if let privateCopy { StorePrivateCopy.remove(privateCopy) }
    }

    func error(_ what: String) -> PlistError {
        PlistError(.io, "\(what): \(String(cString: sqlite3_errmsg(handle)))")
    }

    /// Runs SQL that returns no rows (several statements allowed).
    package func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error("SQL failed") }
    }

    /// Runs `body` in one transaction and commits when it returns true; when
    /// it returns false or throws, everything it did is rolled back. `write`
    /// takes the write lock at once (`BEGIN IMMEDIATE`), so no other writer
    /// can slip in between reading the rows and updating them.
    package func transaction(write: Bool, _ body: () throws -> Bool) throws {
        try execute(write ? "BEGIN IMMEDIATE" : "BEGIN")
        var committed = false
        defer { if !committed { try? execute("ROLLBACK") } }
        guard try body() else { return }
        try execute("COMMIT")
        committed = true
    }

    /// Sets `column` of `table` to each value (a blob, or text bytes), by the
    /// row id `rowID` names (see ``rowID(of:)``). Returns the rows that were
    /// not changed, with why: an update a trigger skipped (`RAISE(IGNORE)`:
    /// SQLite counts no change) or refused (`RAISE(ABORT)` and constraint
    /// errors, which undo that one statement); the other rows are written.
    package func updateValues(table: String, column: String, rowID: String, _ rows: [(rowid: Int64, value: StoredValue)]) throws -> [(rowid: Int64, error: PlistError)] {
        let update = try prepare("UPDATE \(Self.quote(table)) SET \(Self.quote(column)) = ? WHERE \(rowID) = ?")
        var notChanged: [(rowid: Int64, error: PlistError)] = []
        for (rowid, value) in rows {
            update.reset()
            try update.bind(1, value)
            try update.bind(2, int: rowid)
            do {
                _ = try update.step()
            } catch let error as PlistError {
                // The whole transaction is gone only when SQLite rolled it back (a full disk, I/O).
                guard sqlite3_get_autocommit(handle) == 0 else { throw error }
                notChanged.append((rowid, PlistError(.io, "the update was refused: \(String(cString: sqlite3_errmsg(handle)))")))
                continue
            }
            if changes != 1 {
                notChanged.append((rowid, PlistError(.io, "the update changed \(changes) rows instead of 1 (a trigger skipped it, e.g. RAISE(IGNORE)); the row is as it was")))
            }
        }
        return notChanged
    }

    /// Prepares one statement.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error("cannot prepare \"\(sql)\"")
        }
        return SQLiteStatement(statement, database: self)
    }

    /// Rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// The tables (not SQLite's own), in name order.
    ///
    /// - Returns: The table names.
    /// - Throws: `PlistError` (`io`) when SQLite fails.
    public func tables() throws -> [String] {
        let s = try prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var names: [String] = []
        while try s.step() { if let n = s.text(0) { names.append(n) } }
        return names
    }

    /// The columns of a table with their declared types, in table order.
    package func columns(of table: String) throws -> [(name: String, type: String)] {
        let s = try prepare("PRAGMA table_info(\(Self.quote(table)))")
        var columns: [(String, String)] = []
        while try s.step() { columns.append((s.text(1) ?? "", s.text(2) ?? "")) }
        return columns
    }

    /// An identifier in double quotes, for table and column names.
    package static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// The string with every `target` replaced (no Foundation needed).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
