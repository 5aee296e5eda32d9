import ArchivistCore
import CArchivistSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading whole files and replacing files atomically, with libc only.
///
/// Every failure is a `PlistError` of kind `.io` whose message names the path
/// and the system's reason (`cannot read PATH: No such file or directory`).
package enum FileIO {
    /// The bytes of a file, or of standard input for `-`.
    ///
    /// A regular file is read into one allocation of its size; a pipe or
    /// terminal is read in chunks. Reading stops with `.limitExceeded` once the
    /// input passes `maxSize` bytes.
    package static func read(_ path: String, maxSize: Int = Limits.default.maxInputSize) throws -> [UInt8] {
        try withOpenInput(path, anchor: nil) { fd, st, name in try read(fd, st, name: name, maxSize: maxSize) }
    }

    /// The bytes of a batch item (see `input(_:maxSize:)` of an item).
    package static func read(_ item: BatchItem, maxSize: Int = Limits.default.maxInputSize) throws -> [UInt8] {
        try withOpenInput(item.source, anchor: item.anchor) { fd, st, name in try read(fd, st, name: name, maxSize: maxSize) }
    }

    /// The first bytes of a file (at most `count`), for telling its kind
    /// after a reader refused it; nil for standard input or a file that
    /// cannot be read.
    package static func head(_ path: String, count: Int = 64) -> [UInt8]? {
        head(BatchItem(source: path), count: count)
    }

    /// `head(_:count:)` of an item, opened as `read(_:)` opens it (below its
    /// walk's folder, with no link followed).
    package static func head(_ item: BatchItem, count: Int = 64) -> [UInt8]? {
        guard item.source != "-", count > 0 else { return nil }
        return try? withOpenInput(item.source, anchor: item.anchor) { fd, _, _ in
            var out = [UInt8](repeating: 0, count: count)
            let got = out.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, count) }
            return got >= 0 ? Array(out.prefix(got)) : []
        }
    }

    /// The content of a file, or of standard input for `-`, for reading in
    /// place: a regular file of `InputBytes.mapThreshold` bytes or more that
    /// only this user may change is mapped read-only (private, so the input
    /// is never changed; see `InputBytes.mayMap`); anything else, or a file
    /// the system does not map, is read as `read` reads it.
    /// The result carries the file's stamp as it was opened. The errors are
    /// `read`'s.
    package static func input(_ path: String, maxSize: Int = Limits.default.maxInputSize) throws -> InputBytes {
        try input(BatchItem(source: path), maxSize: maxSize)
    }

    /// `input(_:maxSize:)` of a batch item: a file found in a folder is
    /// opened below the folder's descriptor with no symbolic link followed
    /// (see `BatchItem.anchor`), and must be a regular file: one swapped for
    /// a link (or anything else) since the walk is refused, not followed.
    package static func input(_ item: BatchItem, maxSize: Int = Limits.default.maxInputSize) throws -> InputBytes {
        let path = item.source
        return try withOpenInput(path, anchor: item.anchor) { fd, st, name in
            // The stamp of the file as it was opened, before it is read: a
            // change after this shows in a later stamp (see `FileStamp`).
            let stamp = path == "-" ? nil : FileStamp(st)
            if (st.st_mode & S_IFMT) == S_IFREG, st.st_size >= InputBytes.mapThreshold {
                guard st.st_size <= maxSize else { throw tooLarge(name, maxSize) }
                LargeInputHeap.prepare()
                if InputBytes.mayMap(st), let mapped = MappedFile(fd: fd, count: Int(st.st_size)) { return InputBytes(mapped: mapped, stamp: stamp) }
            }
            return InputBytes(try read(fd, st, name: name, maxSize: maxSize), stamp: stamp)
        }
    }

    /// A file found in a folder: the folder's descriptor, and the path of the
    /// file below it (see `BatchItem.anchor`).
    package struct Anchor: Sendable {
        /// The folder walked.
        package let root: Folder
        /// The file's path below it (the file itself, never a link).
        package let file: String

        /// An anchor.
        package init(root: Folder, file: String) {
            self.root = root
            self.file = file
        }

        /// The folder holding the file, entered from the root with no link
        /// followed, and the file's name in it.
        func place() throws -> (folder: Folder, name: String) {
            guard let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (root, file) }
            return (try root.cachedSubfolder(String(file[..<slash])), String(file[file.utf8.index(after: slash)...]))
        }
    }

    /// The message for a file found in a folder that is no longer the regular
    /// file the walk found (a link, a FIFO): refused, not followed.
    static func notWalkedFile(_ path: String) -> PlistError {
        PlistError(.io, "cannot read \(path): it is no longer the regular file found in the folder (a symbolic link or another kind of file now); it was not followed")
    }

    /// Opens `path` (standard input for `-`; below `anchor`'s folder when
    /// given) and calls `body` with the descriptor, its status and the name
    /// errors use; a folder is refused.
    private static func withOpenInput<R>(_ path: String, anchor: Anchor?, _ body: (Int32, stat, String) throws -> R) throws -> R {
        let isStdin = path == "-"
        let name = isStdin ? "standard input" : path
        let fd: Int32
        if let anchor {
            fd = anchor.root.openFile(anchor.file)
            if fd < 0, errno == ELOOP || errno == EXDEV || errno == ENOTDIR || errno == ENXIO { throw notWalkedFile(name) }
        } else {
            fd = isStdin ? STDIN_FILENO : Sys.open(path, O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw ioError("cannot read \(name)") }
        defer { if !isStdin { close(fd) } }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ioError("cannot read \(name)") }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw PlistError(.io, "cannot read \(name): Is a directory")
        }
        if anchor != nil, (st.st_mode & S_IFMT) != S_IFREG { throw notWalkedFile(name) }
        if (st.st_mode & S_IFMT) == S_IFREG { try AddressSpace.check(inputOf: Int(st.st_size), name: name) }
        return try body(fd, st, name)
    }

    /// The bytes of the open file `fd` whose status is `st`.
    static func read(_ fd: Int32, _ st: stat, name: String, maxSize: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        if (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 {
            guard st.st_size <= maxSize else { throw tooLarge(name, maxSize) }
            let size = Int(st.st_size)
            // One byte more than the size asks: a short read of a regular file
            // is its end, so a file of the size it had is read in one call,
            // and one that grew fills the spare byte and is read on below.
            let (capacity, overflow) = size.addingReportingOverflow(1)
            guard !overflow else { throw tooLarge(name, maxSize) }
            var failure: Int32 = 0
            out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                while count < capacity {
                    let asked = capacity - count
                    let n = systemRead(fd, buffer.baseAddress.map { $0 + count }, asked)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    count += n
                    if n < asked { return }  // The end of the file (it may have shrunk).
                }
            }
            if failure != 0 { throw ioError("cannot read \(name)", errno: failure) }
            if out.count <= size { return out }
            guard out.count <= maxSize else { throw tooLarge(name, maxSize) }
        }
        // Standard input, special files, and regular files that grew: read on
        // in chunks through a stack buffer.
        try withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 1) { chunk in
            while true {
                let n = systemRead(fd, chunk.baseAddress, chunk.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ioError("cannot read \(name)")
                }
                if n == 0 { return }
                guard n <= maxSize - out.count else { throw tooLarge(name, maxSize) }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            }
        }
        return out
    }

    /// True when something exists at `path` (a symbolic link counts even when
    /// it dangles).
    package static func exists(_ path: String) -> Bool {
        var st = stat()
        return Sys.lstat(path, &st) == 0
    }

    /// True when `path` is a symbolic link (dangling or not).
    package static func isSymbolicLink(_ path: String) -> Bool {
        var st = stat()
        return Sys.lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
    }

    /// True when `path` is a directory (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return Sys.stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// What identifies a file however its path is spelled: device and inode.
    package struct FileIdentity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// Whether `path` is a directory, and its identity (links followed); nil when nothing is there.
    package static func status(of path: String) -> (isDirectory: Bool, identity: FileIdentity)? {
        var st = stat()
        guard Sys.stat(path, &st) == 0 else { return nil }
        return ((st.st_mode & S_IFMT) == S_IFDIR,
                FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino)))
    }

    /// The identity of the existing file at `path` (links followed), or nil.
    package static func identity(of path: String) -> FileIdentity? {
        var st = stat()
        guard Sys.stat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino))
    }

    /// True when both paths name the same existing file, however they are spelled.
    package static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard let ia = identity(of: a) else { return false }
        return ia == identity(of: b)
    }

    /// Creates a directory and any missing parents (`mkdir -p`).
    package static func createDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if Sys.mkdir(prefix, 0o777) != 0, errno != EEXIST {
                throw ioError("cannot create the folder \(prefix)")
            }
            prefix += "/"
        }
        guard isDirectory(path) else {
            throw PlistError(.io, "cannot create the folder \(path): Not a directory")
        }
    }

    static func writeAll(_ bytes: [UInt8], fd: Int32, name: String) throws {
        try bytes.withUnsafeBytes { try writeAll($0, fd: fd, name: name) }
    }

    static func writeAll(_ raw: UnsafeRawBufferPointer, fd: Int32, name: String) throws {
        var written = 0
        while written < raw.count {
            let n = systemWrite(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // A FIFO opened without blocking is full: wait for its
                    // reader, a stop request (SIGTERM, Ctrl-C) ending the wait.
                    guard !BatchInterrupt.isRequested else { throw PlistError(.io, "cannot write \(name): interrupted while its reader was not reading") }
                    var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiting, 1, 100)
                    continue
                }
                throw ioError("cannot write \(name)")
            }
            written += n
        }
    }

    /// A sink whose output goes to `fd` a buffer at a time (see `ByteSink`):
    /// `finish()` writes the rest and throws the first write failure.
    package static func streamingSink(fd: Int32, name: String) -> ByteSink {
        ByteSink(capacity: 1 << 20) { try writeAll($0, fd: fd, name: name) }
    }

    /// The folder (`.` when none) and the last component of a path.
    static func split(_ path: String) -> (String, String) {
        // By bytes: "/" is one byte in UTF-8, and searching characters costs
        // more than the rest of placing a small file.
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.utf8.index(after: slash)...]))
    }

    private static func tooLarge(_ name: String, _ limit: Int) -> PlistError {
        PlistError(.limitExceeded, "cannot read \(name): larger than the limit of \(limit) bytes")
    }

    static func ioError(_ what: String, errno code: Int32 = errno) -> PlistError {
        PlistError(.io, "\(what): \(String(cString: strerror(code)))")
    }
}

#if canImport(Glibc)
@inline(__always) func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Glibc.read(fd, p, n) }
@inline(__always) func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Glibc.write(fd, p, n) }
#elseif canImport(Darwin)
@inline(__always) func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Darwin.read(fd, p, n) }
@inline(__always) func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Darwin.write(fd, p, n) }
#endif
