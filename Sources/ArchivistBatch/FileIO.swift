import ArchivistCore
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
        let isStdin = path == "-"
        let name = isStdin ? "standard input" : path
        let fd = isStdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot read \(name)") }
        defer { if !isStdin { close(fd) } }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ioError("cannot read \(name)") }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw PlistError(.io, "cannot read \(name): Is a directory")
        }
        var out: [UInt8] = []
        if (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 {
            guard st.st_size <= maxSize else { throw tooLarge(name, maxSize) }
            let size = Int(st.st_size)
            var failure: Int32 = 0
            out = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = 0
                while count < size {
                    let n = systemRead(fd, buffer.baseAddress.map { $0 + count }, size - count)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    if n == 0 { return }  // The file shrank while we read it.
                    count += n
                }
            }
            if failure != 0 { throw ioError("cannot read \(name)", errno: failure) }
            if out.count < size { return out }
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

    /// Writes `bytes` to `path`; `-` writes standard output.
    ///
    /// A file is written to a temporary file `.NAME.archivist-XXXXXX` in the
    /// same folder, optionally flushed to disk (`durable`), and renamed into
    /// place, so the destination is either left as it was or is the complete new
    /// file. On any failure the temporary file is removed. A replaced file keeps
    /// its permission bits; a symbolic link is followed and its target replaced.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = false) throws {
        if path == "-" {
            try writeAll(bytes, fd: STDOUT_FILENO, name: "standard output")
            return
        }
        // One lstat tells a link (whose target is replaced), an existing file
        // (whose permissions are kept) and a new one.
        var existing = stat()
        let exists = lstat(path, &existing) == 0
        var target = path
        var existingMode: mode_t? = exists ? existing.st_mode & 0o7777 : nil
        if exists, (existing.st_mode & S_IFMT) == S_IFLNK {
            existingMode = nil
            if let resolved = resolvedLink(path) {
                target = resolved
                var st = stat()
                if stat(target, &st) == 0 { existingMode = st.st_mode & 0o7777 }
            }
        }
        let (dir, base) = split(target)
        // Keep the temporary name within NAME_MAX (255 bytes) for long names.
        let stem = String(decoding: base.utf8.prefix(200), as: UTF8.self)
        var template = Array("\(dir)/.\(stem).archivist-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { p -> Int32 in
            guard let start = p.baseAddress else { return -1 }
            return mkstemp(start)
        }
        guard fd >= 0 else { throw ioError("cannot write \(path): cannot create a temporary file in \(dir)") }
        let tempPath = template.withUnsafeBufferPointer { p in
            String(decoding: p.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var isOpen = true
        var renamed = false
        defer {
            if isOpen { close(fd) }
            if !renamed { unlink(tempPath) }
        }
        let mode: mode_t = existingMode ?? 0o666 & ~currentUmask()
        guard fchmod(fd, mode) == 0 else { throw ioError("cannot write \(path)") }
        try writeAll(bytes, fd: fd, name: path)
        if durable, fsync(fd) != 0 { throw ioError("cannot write \(path)") }
        isOpen = false
        guard close(fd) == 0 else { throw ioError("cannot write \(path)") }
        guard rename(tempPath, target) == 0 else { throw ioError("cannot write \(path)") }
        renamed = true
        if durable {
            // Make the rename itself durable: flush the folder's entry.
            let dirFD = open(dir, O_RDONLY | O_CLOEXEC)
            guard dirFD >= 0 else { throw ioError("cannot write \(path)") }
            defer { close(dirFD) }
            guard fsync(dirFD) == 0 else { throw ioError("cannot write \(path)") }
        }
    }

    /// True when something exists at `path` (a symbolic link counts even when
    /// it dangles).
    package static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// True when `path` is a directory (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// What identifies a file however its path is spelled: device and inode.
    package struct FileIdentity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the existing file at `path` (links followed), or nil.
    package static func identity(of path: String) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino))
    }

    /// True when both paths name the same existing file, however they are spelled.
    package static func isSameFile(_ a: String, _ b: String) -> Bool {
        guard let ia = identity(of: a) else { return false }
        return ia == identity(of: b)
    }

    /// Creates a directory and any missing parents (`mkdir -p`).
    package static func createDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0, errno != EEXIST {
                throw ioError("cannot create the folder \(prefix)")
            }
            prefix += "/"
        }
        guard isDirectory(path) else {
            throw PlistError(.io, "cannot create the folder \(path): Not a directory")
        }
    }

    /// The regular files below a directory, recursively, in sorted order (by
    /// the bytes of each name, files and folders interleaved as `ls` sorts
    /// them), skipping entries whose names start with a dot. Symbolic links to
    /// files are listed; symbolic links to folders are not followed, so links
    /// cannot make the walk loop. The walk keeps its own stack. Without
    /// `recursive`, only the files directly inside `root`.
    package static func files(under root: String, recursive: Bool = true) throws -> [String] {
        var out: [String] = []
        // Entries still to visit, the next one last.
        var pending: [(path: String, isFolder: Bool)] = [(root, true)]
        var first = true
        while let next = pending.popLast() {
            guard next.isFolder else {
                out.append(next.path)
                continue
            }
            guard recursive || first else { continue }
            first = false
            pending += try entries(of: next.path).reversed()
        }
        return out
    }

    /// The visible files and folders directly inside `dir`, sorted by name bytes.
    private static func entries(of dir: String) throws -> [(path: String, isFolder: Bool)] {
        guard let handle = opendir(dir) else { throw ioError("cannot list \(dir)") }
        defer { closedir(handle) }
        var names: [(name: [UInt8], type: UInt8)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name.first == UInt8(ascii: ".") { continue }
            names.append((name, entry.pointee.d_type))
        }
        names.sort { $0.name.lexicographicallyPrecedes($1.name) }
        let prefix = dir.hasSuffix("/") ? dir : dir + "/"
        var result: [(path: String, isFolder: Bool)] = []
        for (name, type) in names {
            let path = prefix + String(decoding: name, as: UTF8.self)
            // The entry's type from readdir where the file system gives it
            // (no lstat per file); lstat otherwise.
            if type == UInt8(DT_REG) { result.append((path, false)); continue }
            if type == UInt8(DT_DIR) { result.append((path, true)); continue }
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                result.append((path, true))
            case S_IFREG:
                result.append((path, false))
            case S_IFLNK:
                var target = stat()
                if stat(path, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG { result.append((path, false)) }
            default:
                continue  // Sockets, FIFOs and devices are not files to read.
            }
        }
        return result
    }

    private static func writeAll(_ bytes: [UInt8], fd: Int32, name: String) throws {
        try bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let n = systemWrite(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ioError("cannot write \(name)")
                }
                written += n
            }
        }
    }

    /// The folder (`.` when none) and the last component of a path.
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }

    /// The final target of a symbolic link at `path`, or nil when `path` is not
    /// a link or does not resolve.
    private static func resolvedLink(_ path: String) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return nil }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func currentUmask() -> mode_t {
        let old = umask(0)
        umask(old)
        return old
    }

    private static func tooLarge(_ name: String, _ limit: Int) -> PlistError {
        PlistError(.limitExceeded, "cannot read \(name): larger than the limit of \(limit) bytes")
    }

    private static func ioError(_ what: String, errno code: Int32 = errno) -> PlistError {
        PlistError(.io, "\(what): \(String(cString: strerror(code)))")
    }
}

#if canImport(Glibc)
@inline(__always) private func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Glibc.read(fd, p, n) }
@inline(__always) private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Glibc.write(fd, p, n) }
#elseif canImport(Darwin)
@inline(__always) private func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Darwin.read(fd, p, n) }
@inline(__always) private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Darwin.write(fd, p, n) }
#endif
