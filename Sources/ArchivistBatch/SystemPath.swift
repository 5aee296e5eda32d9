import CArchivistSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names as the system has them: bytes, not always UTF-8.
///
/// A path is a `String` everywhere in Archivist; a name that is not UTF-8 (a
/// Latin-1 name from an old archive, say) keeps its bytes in it: each byte
/// 0x80-0xFF that is not part of valid UTF-8 stands as the code point
/// U+10FF80-U+10FFFF (the end of the last private-use plane), and so does
/// each byte of a real code point of that range, so the mapping goes both
/// ways for every name. `Sys` hands the bytes back to the system, and
/// terminal output shows those code points as `\xHH`. Names from folders
/// and from the command line (`CommandLineBytes`) are read this way.
package enum SystemPath {
    /// The first code point of the range that stands for single bytes.
    static let byteBase: UInt32 = 0x10FF00

    /// The text of a name (or path) the system gave as bytes.
    package static func string<C: Collection>(fromBytes bytes: C) -> String where C.Element == UInt8 {
        let array = Array(bytes)
        if let text = String(validating: array, as: UTF8.self), !text.utf8.contains(0xF4) { return text }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < array.count {
            let length = sequenceLength(array, at: i)
            if length > 0, let scalar = String(validating: array[i..<(i + length)], as: UTF8.self)?.unicodeScalars.first,
               scalar.value < byteBase + 0x80 {
                scalars.append(scalar)
                i += length
                continue
            }
            // A byte of no valid sequence, or of a code point in the range.
            let take = max(length, 1)
            for byte in array[i..<(i + take)] {
                if let escaped = Unicode.Scalar(byteBase + UInt32(byte)) { scalars.append(escaped) }
            }
            i += take
        }
        return String(scalars)
    }

    /// The length of the well-formed UTF-8 sequence at `i`, or 0.
    private static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        return String(validating: bytes[i..<(i + length)], as: UTF8.self) == nil ? 0 : length
    }

    /// Calls `body` with the path's bytes as the system names them (a
    /// C string).
    static func with<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        // U+10FF80 and above start with the byte 0xF4; most paths have none.
        guard path.utf8.contains(0xF4) else { return try path.withCString(body) }
        var bytes: [CChar] = []
        bytes.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if scalar.value >= byteBase + 0x80 {
                bytes.append(CChar(bitPattern: UInt8(truncatingIfNeeded: scalar.value - byteBase)))
            } else {
                for byte in String(scalar).utf8 { bytes.append(CChar(bitPattern: byte)) }
            }
        }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return try "".withCString(body) }
            return try body(base)
        }
    }
}

/// The system calls on paths, each handing the system a path's own bytes
/// (see `SystemPath`).
enum Sys {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        SystemPath.with(path) { systemOpen($0, flags, mode) }
    }

    static func lstat(_ path: String, _ st: inout stat) -> Int32 {
        SystemPath.with(path) { systemLstat($0, &st) }
    }

    static func stat(_ path: String, _ st: inout stat) -> Int32 {
        SystemPath.with(path) { systemStat($0, &st) }
    }

    static func unlink(_ path: String) {
        _ = SystemPath.with(path) { systemUnlink($0) }
    }

    static func rename(_ from: String, _ to: String) -> Int32 {
        SystemPath.with(from) { a in SystemPath.with(to) { b in systemRename(a, b) } }
    }

    static func link(_ from: String, _ to: String) -> Int32 {
        SystemPath.with(from) { a in SystemPath.with(to) { b in systemLink(a, b) } }
    }

    static func exchange(_ a: String, _ b: String) -> Int32 {
        SystemPath.with(a) { pa in SystemPath.with(b) { pb in archivist_exchange(pa, pb) } }
    }

    static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        SystemPath.with(path) { systemMkdir($0, mode) }
    }

    static func opendir(_ path: String) -> DirectoryHandle? {
        SystemPath.with(path) { systemOpendir($0) }
    }

    static func copyExtendedAttributes(from path: String, to fd: Int32, copied: inout Int32) -> Int32 {
        SystemPath.with(path) { archivist_copy_xattrs($0, fd, &copied) }
    }

    /// The canonical absolute path of an existing file or folder.
    static func realPath(_ path: String) -> String? {
        guard let resolved = SystemPath.with(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return SystemPath.string(fromBytes: UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
    }

    /// The text of a symbolic link.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = SystemPath.with(path) { readlink($0, &buffer, buffer.count - 1) }
        guard n > 0 else { return nil }
        return SystemPath.string(fromBytes: buffer[..<n].map { UInt8(bitPattern: $0) })
    }
}

#if canImport(Glibc)
/// An open folder listing (`DIR *`).
typealias DirectoryHandle = OpaquePointer
private func systemOpen(_ p: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(p, flags, mode) }
private func systemLstat(_ p: UnsafePointer<CChar>, _ st: inout stat) -> Int32 { Glibc.lstat(p, &st) }
private func systemStat(_ p: UnsafePointer<CChar>, _ st: inout stat) -> Int32 { stat(p, &st) }
private func systemUnlink(_ p: UnsafePointer<CChar>) -> Int32 { Glibc.unlink(p) }
private func systemRename(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Glibc.rename(a, b) }
private func systemLink(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Glibc.link(a, b) }
private func systemMkdir(_ p: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { Glibc.mkdir(p, mode) }
private func systemOpendir(_ p: UnsafePointer<CChar>) -> OpaquePointer? { Glibc.opendir(p) }
#elseif canImport(Darwin)
/// An open folder listing (`DIR *`).
typealias DirectoryHandle = UnsafeMutablePointer<DIR>
private func systemOpen(_ p: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { Darwin.open(p, flags, mode) }
private func systemLstat(_ p: UnsafePointer<CChar>, _ st: inout stat) -> Int32 { Darwin.lstat(p, &st) }
private func systemStat(_ p: UnsafePointer<CChar>, _ st: inout stat) -> Int32 { stat(p, &st) }
private func systemUnlink(_ p: UnsafePointer<CChar>) -> Int32 { Darwin.unlink(p) }
private func systemRename(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Darwin.rename(a, b) }
private func systemLink(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Darwin.link(a, b) }
private func systemMkdir(_ p: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { Darwin.mkdir(p, mode) }
private func systemOpendir(_ p: UnsafePointer<CChar>) -> UnsafeMutablePointer<DIR>? { Darwin.opendir(p) }
#endif
