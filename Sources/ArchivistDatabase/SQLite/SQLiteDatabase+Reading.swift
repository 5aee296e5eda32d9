import ArchivistCore
import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteDatabase {
    /// Opens a store for commands that only read it, leaving its folder as
    /// it was: no file is made there (no `-shm` or `-wal`), no file's size,
    /// modification or change time changes, nor (on Linux, where O_NOATIME
    /// is permitted: the files' owner, or root) its access time; and what
    /// was committed is what is read:
    ///
    /// - A store whose write-ahead log holds frames is read from a private
    ///   copy of the store and its log (`StorePrivateCopy`): reading it in
    ///   place would make `-shm` beside it, and its committed rows are in the
    ///   log. One that a writer changes each time it is copied (a live app's
    ///   store, whose `-shm` is there) is read in place, with a `warning`.
    /// - A store in WAL mode with an empty log, or none, is read as its file
    ///   is (SQLite's `immutable=1`): everything committed is in it.
    /// - A store in rollback mode is read in place, read-only. One with a
    ///   hot journal (a writer stopped in the middle of a transaction) is
    ///   read from a private copy where the journal is rolled back, so it is
    ///   read exactly as a writer (`migrate`) would find it; `warning` says so.
    ///
    /// A store that cannot be read in place at all (read-only media) is read
    /// as its file is, with a `warning`; it is nil when nothing is to be said.
    ///
    /// - Parameter path: The store's path.
    /// - Returns: The open database and a warning to show, if any.
    /// - Throws: `PlistError` (`io`) when the store cannot be read.
    public static func openForReading(path: String) throws -> (database: SQLiteDatabase, warning: String?) {
        _ = keepAccessTimes
        let files = sidecarBase(path)
        if fileSize(files + "-wal") > 0 {
            do {
                let copy = try StorePrivateCopy(of: files, with: ["-wal"])
                return (try SQLiteDatabase(reading: copy, as: path, readOnly: true), nil)
            } catch is StorePrivateCopy.Changing {
                // A live store: its writer keeps -shm beside it, which a reader in place shares.
                let db = try SQLiteDatabase(path: path, readOnly: true)
                if db.probe() != nil { throw db.error("cannot read the database \(path)") }
                return (db, "the store changed each time it was copied to be read (a writer is at work): it is read in place, through its log")
            }
        }
        if isWALMode(path) || StorePath.exists(files + "-wal") {
            return (try immutable(path), nil)
        }
        let db = try SQLiteDatabase(path: path, readOnly: true)
        guard let code = db.probe() else { return (db, nil) }
        if code == SQLITE_READONLY | (3 << 8) {
            // SQLITE_READONLY_ROLLBACK: a hot journal that only a writer may roll back.
            let copy = try StorePrivateCopy(of: files, with: ["-journal"])
            let rolledBack = try SQLiteDatabase(reading: copy, as: path, readOnly: false)
            if let failed = rolledBack.probe() {
                throw PlistError(.io, "cannot read the database \(path): its hot journal \(path)-journal cannot be rolled back in a private copy: \(String(cString: sqlite3_errstr(failed)))")
            }
            let warning = "\(path)-journal is a hot journal (a writer stopped in the middle of a transaction); "
                + "the store is read as that transaction is rolled back, in a private copy (the store and its journal are left as they are)"
            return (rolledBack, warning)
        }
        let primary = code & 0xff
        guard primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN else { throw db.error("cannot read the database \(path)") }
        let failure = db.error("cannot read the database \(path)")
        guard let opened = try? immutable(path) else { throw failure }
        return (opened, "the store cannot be opened read-only in place (read-only media?); it is read as its file is")
    }

    /// Opens the store as its file is (SQLite's `immutable=1`: no lock, no
    /// journal, no log, nothing made beside it); fails when that cannot read it.
    private static func immutable(_ path: String) throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(filename: "file:" + uriPath(path) + "?mode=ro&immutable=1", path: path,
                                    flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX)
        guard db.probe() == nil else { throw db.error("cannot read the database \(path)") }
        return db
    }

    /// Opens a private copy of the store, named `path` in messages, which
    /// removes the copy when it closes.
    private convenience init(reading copy: StorePrivateCopy, as path: String, readOnly: Bool) throws {
        do {
            try self.init(filename: copy.path, path: path, flags: (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX)
        } catch {
            StorePrivateCopy.remove(copy.folder)
            throw error
        }
        privateCopy = copy.folder
    }

    /// O_NOATIME for the files SQLite opens read-only (set up once, before
    /// the first store is opened for reading); Linux only.
    private static let keepAccessTimes: Void = {
        #if os(Linux)
        _ = archivist_sqlite_keep_access_times()
        #endif
    }()

    /// The path SQLite names the files beside a store after: the store's
    /// path with symbolic links resolved, as SQLite resolves them.
    private static func sidecarBase(_ path: String) -> String {
        StorePath.realPath(path) ?? path
    }

    /// True when the store's header says WAL mode (file format versions 2).
    private static func isWALMode(_ path: String) -> Bool {
        let fd = StorePrivateCopy.openForReading(path)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 20)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 20, 0) }
        return n == 20 && (header[18] == 2 || header[19] == 2)
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
        for byte in StorePath.bytes(path) {
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
        guard StorePath.stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }
}
