import ArchivistCore
import CArchivistSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
