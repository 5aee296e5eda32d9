import ArchivistCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls the database code makes on paths, each handing the
/// system the path's own bytes: a store named on the command line or found
/// in a folder may have a name that is not UTF-8, kept in its `String` as
/// `SystemPath` keeps such names.
enum StorePath {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        SystemPath.with(path) { systemOpen($0, flags, mode) }
    }

    static func stat(_ path: String, _ info: inout stat) -> Int32 {
        SystemPath.with(path) { systemStat($0, &info) }
    }

    /// True when something exists at `path` (`access(F_OK)`).
    static func exists(_ path: String) -> Bool {
        SystemPath.with(path) { access($0, F_OK) } == 0
    }

    @discardableResult
    static func unlink(_ path: String) -> Int32 {
        SystemPath.with(path) { systemUnlink($0) }
    }

    @discardableResult
    static func rmdir(_ path: String) -> Int32 {
        SystemPath.with(path) { systemRmdir($0) }
    }

    static func rename(_ from: String, _ to: String) -> Int32 {
        SystemPath.with(from) { a in SystemPath.with(to) { b in systemRename(a, b) } }
    }

    static func link(_ from: String, _ to: String) -> Int32 {
        SystemPath.with(from) { a in SystemPath.with(to) { b in systemLink(a, b) } }
    }

    /// The canonical absolute path of an existing file, or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = SystemPath.with(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return SystemPath.string(fromBytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// The bytes of a path as the system names it.
    static func bytes(_ path: String) -> [UInt8] {
        SystemPath.with(path) { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
    }
}

#if canImport(Glibc)
private func systemOpen(_ p: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(p, flags, mode) }
private func systemStat(_ p: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(p, &info) }
private func systemUnlink(_ p: UnsafePointer<CChar>) -> Int32 { Glibc.unlink(p) }
private func systemRmdir(_ p: UnsafePointer<CChar>) -> Int32 { Glibc.rmdir(p) }
private func systemRename(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Glibc.rename(a, b) }
private func systemLink(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Glibc.link(a, b) }
#elseif canImport(Darwin)
private func systemOpen(_ p: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { Darwin.open(p, flags, mode) }
private func systemStat(_ p: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(p, &info) }
private func systemUnlink(_ p: UnsafePointer<CChar>) -> Int32 { Darwin.unlink(p) }
private func systemRmdir(_ p: UnsafePointer<CChar>) -> Int32 { Darwin.rmdir(p) }
private func systemRename(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Darwin.rename(a, b) }
private func systemLink(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Int32 { Darwin.link(a, b) }
#endif
