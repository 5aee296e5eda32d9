import ArchivistCore
import CSQLite

/// A prepared statement: bind, step, read columns.
package final class SQLiteStatement {
    let handle: OpaquePointer
    let database: SQLiteDatabase
    /// Copies of bound blobs and texts, kept until the statement is reset or
    /// finalized (SQLite reads them while stepping; no destructor is needed).
    private var bound: [UnsafeMutableRawPointer] = []

    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
        release()
    }

    private func release() {
        for p in bound { p.deallocate() }
        bound.removeAll()
    }

    /// A copy of bytes that lives until the statement is reset.
    private func keep(_ bytes: UnsafeRawBufferPointer, extra: Int = 0) -> UnsafeMutableRawPointer {
        let p = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count + extra, 1), alignment: 1)
        if let base = bytes.baseAddress, bytes.count > 0 { p.copyMemory(from: base, byteCount: bytes.count) }
        if extra > 0 { p.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self) }
        bound.append(p)
        return p
    }

    /// Binds a blob (1-based index).
    package func bind(_ index: Int32, blob: [UInt8]) throws {
        let copy = blob.withUnsafeBytes { keep($0) }
        guard sqlite3_bind_blob64(handle, index, copy, sqlite3_uint64(blob.count), nil) == SQLITE_OK else {
            throw database.error("cannot bind a value")
        }
    }

    /// Binds an integer (1-based index).
    package func bind(_ index: Int32, int: Int64) throws {
        guard sqlite3_bind_int64(handle, index, int) == SQLITE_OK else { throw database.error("cannot bind a value") }
    }

    /// Binds text (1-based index).
    package func bind(_ index: Int32, text: String) throws {
        let utf8 = Array(text.utf8)
        let copy = utf8.withUnsafeBytes { keep($0, extra: 1) }
        guard sqlite3_bind_text(handle, index, copy.assumingMemoryBound(to: CChar.self), Int32(clamping: utf8.count), nil) == SQLITE_OK else {
            throw database.error("cannot bind a value")
        }
    }

    /// Binds text given as its bytes (1-based index), stored as they are.
    package func bind(_ index: Int32, textBytes bytes: [UInt8]) throws {
        let copy = bytes.withUnsafeBytes { keep($0, extra: 1) }
        guard sqlite3_bind_text64(handle, index, copy.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8)) == SQLITE_OK else {
            throw database.error("cannot bind a value")
        }
    }

    /// Binds a stored value (1-based index) with its own type.
    package func bind(_ index: Int32, _ value: StoredValue) throws {
        switch value {
        case .blob(let bytes): try bind(index, blob: bytes)
        case .text(let bytes): try bind(index, textBytes: bytes)
        case .integer(let n): try bind(index, int: n)
        case .real(let x):
            guard sqlite3_bind_double(handle, index, x) == SQLITE_OK else { throw database.error("cannot bind a value") }
        }
    }

    /// The value of a column of the current row, nil when NULL.
    package func value(_ column: Int32) -> StoredValue? {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let p = sqlite3_column_text(handle, column) else { return .text([]) }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(Array(UnsafeRawBufferPointer(start: p, count: count)))
        default: return .blob(blob(column) ?? [])
        }
    }

    /// Advances; true when a row is ready, false when done.
    package func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error("SQL failed")
        }
    }

    /// Resets the statement to run again with new bindings.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        release()
    }

    /// True when a column of the current row is a blob.
    package func isBlob(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_BLOB }

    /// An integer column.
    package func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// A text column, nil when NULL.
    package func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: p)
    }

    /// A blob column's bytes, nil when NULL (an empty blob is empty).
    package func blob(_ column: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let p = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: count))
    }
}
