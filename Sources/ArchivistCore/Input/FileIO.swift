#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading whole files and replacing files atomically, with libc only.
public enum FileIO {
    /// The bytes of a file, or of standard input for `-`.
    public static func read(_ path: String) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot read \(path)") }
        defer { if path != "-" { close(fd) } }
        var st = stat()
        var out: [UInt8] = []
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            throw PlistError(.io, "cannot read \(path): is a directory")
        }
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 {
            out.reserveCapacity(Int(st.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc_read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read \(path)")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// Writes `bytes` to `path` through a temporary file in the same folder that
    /// is renamed into place, so the destination is either the old file or the
    /// complete new one. `-` writes standard output. A replaced file keeps its
    /// permissions.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            try writeAll(bytes, fd: STDOUT_FILENO, path: "standard output")
            return
        }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(dir.isEmpty ? "/" : dir)/.\(base).archivist-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { p -> Int32 in
            guard let base = p.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw ioError("cannot create a temporary file beside \(path)") }
        let tempPath = template.withUnsafeBufferPointer { p in String(decoding: p.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        var ok = false
        defer {
            if !ok { unlink(tempPath) }
        }
        do {
            var st = stat()
            let mode: mode_t = stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0o644 & ~currentUmask()
            fchmod(fd, mode)
            try writeAll(bytes, fd: fd, path: tempPath)
            guard close(fd) == 0 else { throw ioError("cannot write \(path)") }
        } catch {
            close(fd)
            throw error
        }
        guard rename(tempPath, path) == 0 else { throw ioError("cannot replace \(path)") }
        ok = true
    }

    /// True when something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// Creates a directory and any missing parents (`mkdir -p`).
    public static func createDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty, !isDirectory(parent) { try createDirectories(parent) }
        guard mkdir(path, 0o777) == 0 || errno == EEXIST else { throw ioError("cannot create \(path)") }
    }

    /// True when `path` is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The regular files below a directory, recursively, sorted, skipping hidden
    /// entries.
    public static func files(under dir: String) throws -> [String] {
        guard let handle = opendir(dir) else { throw ioError("cannot list \(dir)") }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        var out: [String] = []
        for name in names.sorted() {
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            if isDirectory(path) {
                out += try files(under: path)
            } else {
                out.append(path)
            }
        }
        return out
    }

    private static func writeAll(_ bytes: [UInt8], fd: Int32, path: String) throws {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc_write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot write \(path)")
            }
            written += n
        }
    }

    private static func currentUmask() -> mode_t {
        let old = umask(0)
        umask(old)
        return old
    }

    private static func ioError(_ what: String) -> PlistError {
        PlistError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}

#if canImport(Glibc)
@inline(__always) private func Glibc_read(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Glibc.read(fd, p, n) }
@inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Glibc.write(fd, p, n) }
#elseif canImport(Darwin)
@inline(__always) private func Glibc_read(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Darwin.read(fd, p, n) }
@inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Darwin.write(fd, p, n) }
#endif
