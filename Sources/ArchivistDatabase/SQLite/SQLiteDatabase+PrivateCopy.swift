import ArchivistCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A copy of a store and the files beside it that SQLite reads with it (its
/// write-ahead log, or a hot journal), in a folder of its own (mode 700) in
/// the temporary folder: SQLite may make its shared-memory file there, replay
/// the log or roll the journal back, and the store's own folder is left as
/// it was. Removed with the connection that reads it.
struct StorePrivateCopy {
    /// The folder that holds the copy.
    let folder: String
    /// The copy of the store.
    var path: String { folder + "/store" }

    /// Copies `store` and each existing `store + suffix` (read with
    /// O_NOATIME where permitted). A file that changes while it is copied (a
    /// writer at work) is copied again, up to three times; then ``Changing``.
    init(of store: String, with suffixes: [String]) throws {
        var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/archivist-store.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw PlistError(.io, "cannot make a private folder to read \(store) in: " + String(cString: strerror(errno)))
        }
        folder = String(cString: made)
        var done = false
        defer { if !done { Self.remove(folder) } }
        for attempt in 1...3 {
            var changed = false
            for suffix in [""] + suffixes {
                guard let copied = try Self.copy(store + suffix, to: path + suffix) else { continue }
                if !copied { changed = true }
            }
            if !changed { break }
            guard attempt < 3 else { throw Changing() }
        }
        done = true
    }

    /// The store or a file beside it changed each time it was copied: a
    /// writer is at work on it.
    struct Changing: Error {}

    /// Removes the copy and the files SQLite made beside it, then the folder.
    static func remove(_ folder: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { StorePath.unlink(folder + "/store" + suffix) }
        StorePath.rmdir(folder)
    }

    /// Copies one file; nil when it does not exist, false when it changed
    /// while it was read (size, modification or change time).
    private static func copy(_ source: String, to destination: String) throws -> Bool? {
        let input = openForReading(source)
        guard input >= 0 else {
            if errno == ENOENT {
                StorePath.unlink(destination)
                return nil
            }
            throw PlistError(.io, "cannot read \(source): " + String(cString: strerror(errno)))
        }
        defer { close(input) }
        var before = stat(), after = stat()
        guard fstat(input, &before) == 0 else { throw PlistError(.io, "cannot read \(source): " + String(cString: strerror(errno))) }
        StorePath.unlink(destination)
        let output = StorePath.open(destination, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw PlistError(.io, "cannot copy \(source) to \(destination): " + String(cString: strerror(errno))) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw PlistError(.io, "cannot read \(source): " + String(cString: strerror(errno))) }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress.map { $0 + written }, n - written) }
                if w < 0, errno == EINTR { continue }
                guard w > 0 else { throw PlistError(.io, "cannot copy \(source) to \(destination): " + String(cString: strerror(errno))) }
                written += w
            }
        }
        guard fstat(input, &after) == 0 else { throw PlistError(.io, "cannot read \(source): " + String(cString: strerror(errno))) }
        return stamp(before) == stamp(after)
    }

    /// Size, modification and change time: what a writer changes.
    static func stamp(_ s: stat) -> [Int] {
        #if canImport(Darwin)
        let (m, c) = (s.st_mtimespec, s.st_ctimespec)
        #else
        let (m, c) = (s.st_mtim, s.st_ctim)
        #endif
        return [Int(s.st_size), Int(m.tv_sec), Int(m.tv_nsec), Int(c.tv_sec), Int(c.tv_nsec)]
    }

    /// Opens a file for reading without changing its access time where
    /// O_NOATIME is permitted (the file's owner, or CAP_FOWNER).
    static func openForReading(_ path: String) -> Int32 {
        #if os(Linux)
        let noAccessTime: Int32 = 0o1000000
        let fd = StorePath.open(path, O_RDONLY | O_CLOEXEC | noAccessTime)
        if fd >= 0 || errno != EPERM { return fd }
        #endif
        return StorePath.open(path, O_RDONLY | O_CLOEXEC)
    }
}
