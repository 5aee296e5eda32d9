import ArchivistCore
import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteDatabase {
    /// Opens a store for commands that only read it. A read-only connection
    /// cannot open every store as it is: a hot journal (a writer stopped in
    /// the middle of a transaction) must be rolled back, which takes write
    /// access, and a store in WAL mode needs a shared-memory file beside it
    /// that cannot be made on read-only media. Such a store is read as its
    /// file is (SQLite's `immutable=1`), and `warning` says what that means
    /// for what is seen; it is nil when the store opened as usual.
    public static func openForReading(path: String) throws -> (database: SQLiteDatabase, warning: String?) {
        let db = try SQLiteDatabase(path: path, readOnly: true)
        guard let code = db.probe() else { return (db, nil) }
        let primary = code & 0xff
        guard primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN else { throw db.error("cannot read the database \(path)") }
        let failure = db.error("cannot read the database \(path)")
        let immutable = try SQLiteDatabase(filename: "file:" + uriPath(path) + "?mode=ro&immutable=1", path: path,
                                           flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX)
        guard immutable.probe() == nil else { throw failure }
        let hotJournal = code == SQLITE_READONLY | (3 << 8) || fileSize(path + "-journal") > 0
        let warning: String
        if hotJournal {
            warning = "\(path)-journal is a hot journal (a writer stopped in the middle of a transaction) that only a connection with write access can roll back; "
                + "the store is read as its file is, without the rollback, so rows may show part of that unfinished transaction "
                + "(open the store once with write access, e.g. sqlite3 \(path) 'PRAGMA quick_check', to roll it back)"
        } else {
            let wal = fileSize(path + "-wal") > 0
                ? ": changes in \(path)-wal not yet checkpointed into the store are not seen"
                : " (there is no write-ahead log content that would be missed)"
            warning = "the store cannot be opened read-only through its write-ahead log (\(path)-shm cannot be made: read-only media?); "
                + "it is read as its file is" + wal
        }
        return (immutable, warning)
    }

    /// Reads the schema, as every first read does; the extended error code
    /// when that fails, nil when it works.
    private func probe() -> Int32? {
        guard sqlite3_exec(handle, "SELECT count(*) FROM sqlite_master", nil, nil, nil) != SQLITE_OK else { return nil }
        return sqlite3_extended_errcode(handle)
    }

    /// A path as the path of a `file:` URI: every byte but unreserved ones and `/` percent-encoded.
    private static func uriPath(_ path: String) -> String {
        var out = ""
        let hex = Array("0123456789ABCDEF")
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// The size of a file, 0 when it does not exist.
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }
}
