import ArchivistCore
import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``SQLiteDatabase/backup(to:)`` did.
public struct BackupOutcome: Sendable, Equatable {
    /// True when the copy was written; false when the destination was
    /// already there holding byte for byte the copy that would have been
    /// written (one an interrupted earlier run left of the store as it still
    /// is), and was kept as it was.
    public var written: Bool
    /// False when the copy could not be given the store's owner and group
    /// (changing a file's owner takes privileges); it then belongs to the
    /// user who ran the backup.
    public var ownerKept: Bool
}

/// The destination of a backup exists and is not a copy of the store as it
/// is: it is never overwritten.
public struct BackupExists: Error, Sendable {
    /// The destination.
    public var path: String
}

extension SQLiteDatabase {
    /// Writes a copy of the whole database, as last committed, to
    /// `destination` with SQLite's backup API, through a temporary file that
    /// gets the store's permission bits (and owner and group where
    /// permitted) before anything is written to it. Called inside
    /// `transaction(write: true)` before the transaction writes, the copy is
    /// exactly the database that transaction starts from: no other writer can
    /// commit while it holds the write lock.
    ///
    /// An existing destination is never overwritten: when it holds exactly
    /// the bytes of the copy (an interrupted earlier attempt's backup of the
    /// store as it still is; the copy of an unchanged store comes out the
    /// same each time), it is kept and `written` is false; anything else
    /// throws ``BackupExists``.
    ///
    /// The database file itself and the names SQLite gives the files it
    /// keeps beside it (`STORE-journal`, `STORE-wal`, `STORE-shm`, in the
    /// folder of the path as given and of the file it resolves to) are
    /// refused: SQLite deletes or replays such a file the next time the
    /// store is opened, in whichever journal mode.
    ///
    /// - Parameter destination: The backup's path.
    /// - Returns: Whether the copy was written and whether its owner was kept.
    /// - Throws: ``BackupExists`` when another file is there; `PlistError`
    ///   (`io`) when the copy fails or the path is one of the store's own files
    ///   (reason `PlistError.Reason.backupIsStoreFile`).
    @discardableResult
    public func backup(to destination: String) throws -> BackupOutcome {
        var store = stat()
        guard StorePath.stat(path, &store) == 0 else { throw PlistError(.io, "cannot read the database \(path): " + String(cString: strerror(errno))) }
        if let own = ownFile(destination, store: store) {
            throw PlistError(.io, "the backup \(destination) would be \(own), which SQLite deletes or replays when the store is next opened").because(.backupIsStoreFile)
        }
        // A file whose size is not the copy's is not the copy: refused before copying.
        if StorePath.exists(destination), let size = try? copySize(), size != Self.fileSize(destination) {
            throw BackupExists(path: destination)
        }
        let temporary = destination + ".archivist-partial"
        StorePath.unlink(temporary)
        let ownerKept = try Self.createFile(temporary, like: store, for: destination)
        var keep = false
        defer { if !keep { StorePath.unlink(temporary) } }
        try copy(into: temporary, for: destination)
        if !StorePath.exists(destination) {
            // link() never replaces a file that appeared meanwhile; rename() where links are not supported.
            if StorePath.link(temporary, destination) == 0 { return BackupOutcome(written: true, ownerKept: ownerKept) }
            if errno != EEXIST {
                guard StorePath.rename(temporary, destination) == 0 else {
                    throw PlistError(.io, "cannot write the backup \(destination): " + String(cString: strerror(errno)))
                }
                keep = true
                return BackupOutcome(written: true, ownerKept: ownerKept)
            }
        }
        guard try Self.sameBytes(temporary, destination) else { throw BackupExists(path: destination) }
        return BackupOutcome(written: false, ownerKept: ownerKept)
    }

    /// What `destination` is of the database's own files (the database, its
    /// rollback journal, write-ahead log or shared-memory file), or nil. A
    /// file not yet made is compared by its folder's device and inode and
    /// its name, so the check holds whatever path leads there.
    private func ownFile(_ destination: String, store: stat) -> String? {
        var existing = stat()
        if StorePath.stat(destination, &existing) == 0, existing.st_dev == store.st_dev, existing.st_ino == store.st_ino { return "the store itself" }
        let (folder, name) = Self.split(destination)
        var destinationFolder = stat()
        guard StorePath.stat(folder, &destinationFolder) == 0 else { return nil }
        var storePaths = [path]
        if let resolved = StorePath.realPath(path) { storePaths.append(resolved) }
        for storePath in storePaths {
            let (storeFolder, storeName) = Self.split(storePath)
            var folderInfo = stat()
            guard StorePath.stat(storeFolder, &folderInfo) == 0, folderInfo.st_dev == destinationFolder.st_dev, folderInfo.st_ino == destinationFolder.st_ino else { continue }
            for (suffix, what) in [("-journal", "its rollback journal"), ("-wal", "its write-ahead log"), ("-shm", "its write-ahead log's shared-memory file")]
            where name == storeName + suffix {
                return "the store's \(suffix) file (\(what))"
            }
        }
        return nil
    }

    /// A path's folder (`.` when it names none) and last component.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// The size of a copy: the database's pages.
    private func copySize() throws -> Int64 {
        let count = try prepare("PRAGMA page_count"), size = try prepare("PRAGMA page_size")
        guard try count.step(), try size.step() else { throw error("cannot read the size of \(path)") }
        return count.int(0) * size.int(0)
    }

    /// Copies the database into the empty file `temporary` through a
    /// connection of its own, which sees what was last committed.
    private func copy(into temporary: String, for destination: String) throws {
        let source = try SQLiteDatabase(path: path, readOnly: true)
        var target: OpaquePointer?
        guard SystemPath.with(temporary, { sqlite3_open_v2($0, &target, SQLITE_OPEN_READWRITE, nil) }) == SQLITE_OK, let target else {
            if let target { sqlite3_close(target) }
            throw PlistError(.io, "cannot write the backup \(destination)")
        }
        defer { sqlite3_close(target) }
        guard let backup = sqlite3_backup_init(target, "main", source.handle, "main") else {
            throw PlistError(.io, "cannot back up to \(destination): \(String(cString: sqlite3_errmsg(target)))")
        }
        let rc = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else { throw PlistError(.io, "cannot back up to \(destination): \(String(cString: sqlite3_errstr(rc)))") }
    }

    /// Creates an empty file with the permission bits of `like`, and its
    /// owner and group when permitted; true when the owner is `like`'s.
    private static func createFile(_ path: String, like original: stat, for destination: String) throws -> Bool {
        let fd = StorePath.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PlistError(.io, "cannot write the backup \(destination): " + String(cString: strerror(errno))) }
        defer { close(fd) }
        if fchown(fd, original.st_uid, original.st_gid) != 0 { _ = fchown(fd, ~0, original.st_gid) }
        guard fchmod(fd, original.st_mode & 0o777) == 0 else {
            throw PlistError(.io, "cannot set the permissions of the backup \(destination): " + String(cString: strerror(errno)))
        }
        var made = stat()
        return fstat(fd, &made) == 0 && made.st_uid == original.st_uid
    }

    /// True when two files hold the same bytes.
    private static func sameBytes(_ a: String, _ b: String) throws -> Bool {
        let fa = StorePath.open(a, O_RDONLY | O_CLOEXEC), fb = StorePath.open(b, O_RDONLY | O_CLOEXEC)
        defer {
            if fa >= 0 { close(fa) }
            if fb >= 0 { close(fb) }
        }
        guard fa >= 0, fb >= 0 else { throw PlistError(.io, "cannot read \(fa < 0 ? a : b): " + String(cString: strerror(errno))) }
        let chunk = 1 << 16
        var bufferA = [UInt8](repeating: 0, count: chunk), bufferB = [UInt8](repeating: 0, count: chunk)
        while true {
            let na = try readFully(fa, &bufferA, a), nb = try readFully(fb, &bufferB, b)
            guard na == nb, bufferA[..<na] == bufferB[..<nb] else { return false }
            if na < chunk { return true }
        }
    }

    /// Reads until `buffer` is full or the file ends; the bytes read.
    private static func readFully(_ fd: Int32, _ buffer: inout [UInt8], _ path: String) throws -> Int {
        var total = 0
        while total < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + total }, $0.count - total) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw PlistError(.io, "cannot read \(path): " + String(cString: strerror(errno))) }
            if n == 0 { break }
            total += n
        }
        return total
    }
}

extension PlistError.Reason {
    /// A backup path names the store or a file SQLite keeps beside it
    /// (`-journal`, `-wal`, `-shm`), which it deletes or replays when the
    /// store is next opened: ``SQLiteDatabase/backup(to:)`` needs another path.
    public static let backupIsStoreFile = PlistError.Reason("backupIsStoreFile")
}
