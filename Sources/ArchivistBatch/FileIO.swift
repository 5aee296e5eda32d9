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
        try withOpenInput(path) { fd, st, name in try read(fd, st, name: name, maxSize: maxSize) }
    }

    /// The content of a file, or of standard input for `-`, for reading in
    /// place: a regular file of `InputBytes.mapThreshold` bytes or more is
    /// mapped read-only (private, so the input is never changed); anything
    /// else, or a file the system does not map, is read as `read` reads it.
    /// The errors are `read`'s.
    package static func input(_ path: String, maxSize: Int = Limits.default.maxInputSize) throws -> InputBytes {
        try withOpenInput(path) { fd, st, name in
            if (st.st_mode & S_IFMT) == S_IFREG, st.st_size >= InputBytes.mapThreshold {
                guard st.st_size <= maxSize else { throw tooLarge(name, maxSize) }
                if let mapped = MappedFile(fd: fd, count: Int(st.st_size)) { return InputBytes(mapped: mapped) }
            }
            return InputBytes(try read(fd, st, name: name, maxSize: maxSize))
        }
    }

    /// Opens `path` (standard input for `-`) and calls `body` with the
    /// descriptor, its status and the name errors use; a folder is refused.
    private static func withOpenInput<R>(_ path: String, _ body: (Int32, stat, String) throws -> R) throws -> R {
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
        return try body(fd, st, name)
    }

    /// The bytes of the open file `fd` whose status is `st`.
    private static func read(_ fd: Int32, _ st: stat, name: String, maxSize: Int) throws -> [UInt8] {
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

    /// Writes `bytes` to `path`; `-` writes standard output.
    ///
    /// A file is written to a temporary file `.NAME.archivist-XXXXXX` in the
    /// same folder, flushed to disk, renamed into place, and the folder flushed
    /// too, so the destination is either left as it was or is the complete new
    /// file, even after a power loss; once this returns, the new file survives
    /// one. On any failure the temporary file is removed. A replaced file keeps
    /// its permission bits; a symbolic link is followed and its target
    /// replaced. (`WriteBatch` does the same for many files with one flush.)
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            try writeAll(bytes, fd: STDOUT_FILENO, name: "standard output")
            return
        }
        let staged = try stage(bytes, for: path, flush: true)
        try place(staged)
        try flushFolder(staged.folder, for: path)
    }

    /// A result written to a temporary file beside its destination, not yet
    /// renamed into place (see `stage(_:for:flush:)` and `WriteBatch`).
    package struct StagedFile: Sendable, Equatable {
        /// The destination as named.
        package let path: String
        /// The file the rename replaces: `path`, or the target of the link at `path`.
        package let target: String
        /// The folder of `target`, where the temporary file is.
        package let folder: String
        /// The temporary file `.NAME.archivist-XXXXXX`.
        package let temporary: String
    }

    /// Writes `bytes` to a new temporary file `.NAME.archivist-XXXXXX` in the
    /// folder of `path` (of its target when `path` is a symbolic link), with
    /// the permission bits of the file it will replace (or the default ones),
    /// flushed to disk when `flush`. Nothing else is touched; on failure the
    /// temporary file is removed. A destination that is a folder is refused.
    /// `knownAbsent` says the caller found nothing at `path` when it planned
    /// the batch, which saves looking again (a file that appears in between
    /// is replaced like any other, with the default permissions).
    package static func stage(_ bytes: [UInt8], for path: String, flush: Bool, knownAbsent: Bool = false) throws -> StagedFile {
        try stage(for: path, flush: flush, knownAbsent: knownAbsent) { fd in try writeAll(bytes, fd: fd, name: path) }
    }

    /// `stage(_:for:flush:knownAbsent:)` for a result written as it is made:
    /// `write` gets a sink that streams into the temporary file.
    package static func stage(for path: String, flush: Bool, knownAbsent: Bool = false,
                              streaming write: (ByteSink) throws -> Void) throws -> StagedFile {
        try stage(for: path, flush: flush, knownAbsent: knownAbsent) { fd in
            let sink = streamingSink(fd: fd, name: path)
            try write(sink)
            try sink.finish()
        }
    }

    private static func stage(for path: String, flush: Bool, knownAbsent: Bool, contents: (Int32) throws -> Void) throws -> StagedFile {
        // One lstat tells a link (whose target is replaced), an existing file
        // (whose permissions are kept) and a new one.
        var existing = stat()
        let exists = !knownAbsent && lstat(path, &existing) == 0
        var target = path
        var existingMode: mode_t? = exists ? existing.st_mode & 0o7777 : nil
        if exists, (existing.st_mode & S_IFMT) == S_IFDIR {
            throw PlistError(.io, "cannot write \(path): Is a directory")
        }
        if exists, (existing.st_mode & S_IFMT) == S_IFLNK {
            existingMode = nil
            if let resolved = resolvedLink(path) {
                target = resolved
                var st = stat()
                if stat(target, &st) == 0 {
                    if (st.st_mode & S_IFMT) == S_IFDIR { throw PlistError(.io, "cannot write \(path): Is a directory") }
                    existingMode = st.st_mode & 0o7777
                }
            }
        }
        let (dir, base) = split(target)
        // Keep the temporary name within NAME_MAX (255 bytes) for long names.
        let stem = String(decoding: base.utf8.prefix(200), as: UTF8.self)
        // A new file gets the default permissions from open itself (0666 less
        // the umask); one that replaces a file takes that file's bits, which
        // the umask may not narrow, so they are set after.
        let (fd, tempPath) = try createTemporary(in: dir, stem: stem, for: path)
        var isOpen = true
        var written = false
        defer {
            if isOpen { close(fd) }
            if !written { unlink(tempPath) }
        }
        if let existingMode, existingMode != 0o666 & ~processUmask {
            guard fchmod(fd, existingMode) == 0 else { throw ioError("cannot write \(path)") }
        }
        try contents(fd)
        if flush, fsync(fd) != 0 { throw ioError("cannot write \(path)") }
        isOpen = false
        guard close(fd) == 0 else { throw ioError("cannot write \(path)") }
        written = true
        return StagedFile(path: path, target: target, folder: dir, temporary: tempPath)
    }

    /// Creates `DIR/.STEM.archivist-XXXXXXXX` exclusively, open for writing
    /// with mode 0666 less the umask. The name's suffix counts up from a
    /// random start drawn once per process (no random draw per file); a name
    /// that exists already is skipped.
    private static func createTemporary(in dir: String, stem: String, for path: String) throws -> (Int32, String) {
        for _ in 0..<100 {
            let suffix = temporarySuffixes.withLock { next -> UInt32 in
                defer { next &+= 1 }
                return next
            }
            var digits = String(suffix, radix: 36)
            digits = String(repeating: "0", count: max(0, 7 - digits.utf8.count)) + digits
            let candidate = "\(dir)/.\(stem).archivist-\(digits)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, candidate) }
            guard errno == EEXIST else { break }
        }
        throw ioError("cannot write \(path): cannot create a temporary file in \(dir)")
    }

    /// The next temporary-name suffix of this process.
    private static let temporarySuffixes = Locked(UInt32.random(in: 0...UInt32.max))

    /// True when the staged file holds exactly what the file at `path`
    /// holds (compared a piece at a time); false when either cannot be read.
    package static func hasSameContents(_ staged: StagedFile, as path: String) -> Bool {
        let a = open(staged.temporary, O_RDONLY | O_CLOEXEC), b = open(path, O_RDONLY | O_CLOEXEC)
        defer {
            if a >= 0 { close(a) }
            if b >= 0 { close(b) }
        }
        guard a >= 0, b >= 0 else { return false }
        var sa = stat(), sb = stat()
        guard fstat(a, &sa) == 0, fstat(b, &sb) == 0, sa.st_size == sb.st_size else { return false }
        let size = 1 << 16
        let pa = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        let pb = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer {
            pa.deallocate()
            pb.deallocate()
        }
        while true {
            let na = systemRead(a, pa, size)
            guard na >= 0 else { return false }
            var nb = 0
            while nb < na {
                let n = systemRead(b, pb + nb, na - nb)
                guard n > 0 else { return false }
                nb += n
            }
            if na == 0 { return systemRead(b, pb, 1) == 0 }
            guard memcmp(pa, pb, na) == 0 else { return false }
        }
    }

    /// Renames a staged file into place; on failure removes it and throws.
    package static func place(_ staged: StagedFile) throws {
        guard rename(staged.temporary, staged.target) == 0 else {
            let code = errno
            unlink(staged.temporary)
            throw ioError("cannot write \(staged.path)", errno: code)
        }
    }

    /// Removes a staged file that will not be placed.
    package static func discard(_ staged: StagedFile) {
        unlink(staged.temporary)
    }

    /// Flushes a folder's entries to disk (the renames done in it), for the
    /// file `path` written there (named in the error).
    package static func flushFolder(_ folder: String, for path: String) throws {
        let fd = open(folder, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot write \(path): cannot flush the folder \(folder)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw ioError("cannot write \(path): cannot flush the folder \(folder)") }
    }

    /// Flushes the contents of staged files to disk before any is renamed into
    /// place: one `syncfs` per file system on Linux, else `fsync` of each
    /// file. Throws naming the first file that could not be flushed.
    package static func flushContents(of staged: [StagedFile]) throws {
        if archivist_has_syncfs() != 0 {
            var flushed: Set<UInt64> = []
            var seenFolders: Set<String> = []
            for file in staged where seenFolders.insert(file.folder).inserted {
                var st = stat()
                guard stat(file.folder, &st) == 0 else { throw ioError("cannot write \(file.path)") }
                guard flushed.insert(UInt64(truncatingIfNeeded: st.st_dev)).inserted else { continue }
                let fd = open(file.folder, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw ioError("cannot write \(file.path)") }
                defer { close(fd) }
                guard archivist_syncfs(fd) == 0 else { throw ioError("cannot write \(file.path): cannot flush the file system") }
            }
            return
        }
        for file in staged {
            let fd = open(file.temporary, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ioError("cannot write \(file.path)") }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw ioError("cannot write \(file.path)") }
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

    /// Whether `path` is a directory, and its identity (links followed); nil when nothing is there.
    package static func status(of path: String) -> (isDirectory: Bool, identity: FileIdentity)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return ((st.st_mode & S_IFMT) == S_IFDIR,
                FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino)))
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
        if isDirectory(path) { return }
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
        try bytes.withUnsafeBytes { try writeAll($0, fd: fd, name: name) }
    }

    private static func writeAll(_ raw: UnsafeRawBufferPointer, fd: Int32, name: String) throws {
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

    /// A sink whose output goes to `fd` a buffer at a time (see `ByteSink`):
    /// `finish()` writes the rest and throws the first write failure.
    package static func streamingSink(fd: Int32, name: String) -> ByteSink {
        ByteSink(capacity: 1 << 20) { try writeAll($0, fd: fd, name: name) }
    }

    /// The folder (`.` when none) and the last component of a path.
    private static func split(_ path: String) -> (String, String) {
        // By bytes: "/" is one byte in UTF-8, and searching characters costs
        // more than the rest of placing a small file.
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.utf8.index(after: slash)...]))
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

    /// The process's file mode creation mask, read once: `umask` can only be
    /// read by setting it, which is neither free nor safe while other
    /// threads create files.
    private static let processUmask: mode_t = {
        let old = umask(0)
        umask(old)
        return old
    }()

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
