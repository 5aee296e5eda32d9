import ArchivistCore
import CArchivistSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open folder: a descriptor that keeps naming the folder it was opened
/// on whatever happens to its path afterwards. Batches read, stage, rename
/// and link relative to it (`openat`, `renameat`, `linkat`), and reach the
/// folders below it without following symbolic links, so a folder that
/// someone else can write (another user's) cannot turn a checked name into a
/// link between the check and the write.
package final class Folder: Sendable {
    /// The descriptor (`O_DIRECTORY`), closed when the last reference goes.
    package let descriptor: Int32
    /// The folder as named, for messages.
    package let path: String

    /// Subfolders already entered through `cachedSubfolder`, by path below this one.
    private let entered = Locked<[String: Folder]>([:])

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the folder at `path` as named (links in the path followed: it
    /// is the caller's name); `.` for the empty path.
    package static func open(_ path: String) throws -> Folder {
        let fd = Sys.open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.ioError("cannot open the folder \(path)") }
        return Folder(descriptor: fd, path: path)
    }

    /// `open(_:)`, or nil with `errno` set.
    package static func openIfPossible(_ path: String) -> Folder? {
        let fd = Sys.open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return fd >= 0 ? Folder(descriptor: fd, path: path) : nil
    }

    /// The folder `relative` below this one (components separated by `/`),
    /// reached without following a symbolic link anywhere on the way
    /// (`archivist_open_beneath`). With `create`, missing folders are made
    /// (`mkdirat`, mode 0777 less the umask) one component at a time, each
    /// entered with `O_DIRECTORY|O_NOFOLLOW`. A component that is, or became,
    /// a symbolic link is refused, never followed.
    package func subfolder(_ relative: String, create: Bool = false) throws -> Folder {
        let parts = relative.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }.filter { $0 != "." }
        guard !parts.isEmpty else { return self }
        let shown = path.hasSuffix("/") ? path + relative : path + "/" + relative
        if !create {
            switch enter(relative) {
            case .success(let folder): return folder
            case .failure(let code): throw Folder.refusal(shown, code.value)
            }
        }
        var current = self
        var named = path
        for part in parts {
            named = named.hasSuffix("/") ? named + part : named + "/" + part
            if SystemPath.with(part, { mkdirat(current.descriptor, $0, 0o777) }) != 0, errno != EEXIST {
                throw FileIO.ioError("cannot create the folder \(named)")
            }
            let fd = SystemPath.with(part) { archivist_open_beneath(current.descriptor, $0, O_RDONLY | O_DIRECTORY, 0) }
            guard fd >= 0 else { throw Folder.refusal(named, errno) }
            current = Folder(descriptor: fd, path: named)
        }
        return current
    }

    /// A system error number.
    package struct SystemError: Error {
        package let value: Int32
    }

    /// The existing folder `relative` below this one, entered with no link
    /// followed (see `subfolder(_:create:)`), or the system's error.
    package func enter(_ relative: String) -> Result<Folder, SystemError> {
        let fd = SystemPath.with(relative) { archivist_open_beneath(descriptor, $0, O_RDONLY | O_DIRECTORY, 0) }
        guard fd >= 0 else { return .failure(SystemError(value: errno)) }
        return .success(Folder(descriptor: fd, path: shown(relative)))
    }

    /// `subfolder(_:create:)`, entered once per run: the batch's results in
    /// one folder share its descriptor until they are put in place together.
    package func cachedSubfolder(_ relative: String, create: Bool = false) throws -> Folder {
        if relative.isEmpty { return self }
        if let known = entered.withLock({ $0[relative] }) { return known }
        _ = OpenFileLimit.raised  // A batch holds one descriptor per folder it writes into until it commits.
        let folder = try subfolder(relative, create: create)
        return entered.withLock { entered in
            if let known = entered[relative] { return known }
            entered[relative] = folder
            return folder
        }
    }

    /// Opens the file `relative` below this folder for reading, without
    /// following a symbolic link on the way or at the end, and without
    /// waiting on a FIFO put there; -1 with `errno` otherwise.
    package func openFile(_ relative: String, _ flags: Int32 = O_RDONLY | O_NONBLOCK) -> Int32 {
        SystemPath.with(relative) { archivist_open_beneath(descriptor, $0, flags, 0) }
    }

    /// The status of `name` in this folder, the link itself for a link.
    package func status(of name: String) -> stat? {
        var st = stat()
        let done = SystemPath.with(name) { fstatat(descriptor, $0, &st, AT_SYMLINK_NOFOLLOW) }
        return done == 0 ? st : nil
    }

    /// The error for a folder or file that is a symbolic link where none is followed.
    static func refusal(_ shown: String, _ code: Int32) -> PlistError {
        if code == ELOOP || code == EXDEV || code == ENOTDIR {
            return PlistError(.io, "refusing \(shown): it is (or became) a symbolic link or no folder, which is not followed here")
        }
        return FileIO.ioError("cannot open the folder \(shown)", errno: code)
    }

    /// A name in this folder, as `path/name` for messages.
    package func shown(_ name: String) -> String {
        path.hasSuffix("/") ? path + name : path + "/" + name
    }
}

/// Calls on names in an open folder, each handing the system the name's own
/// bytes (see `SystemPath`).
extension Sys {
    static func unlink(_ name: String, in folder: Folder) {
        _ = SystemPath.with(name) { unlinkat(folder.descriptor, $0, 0) }
    }

    static func rename(_ from: String, _ to: String, in folder: Folder) -> Int32 {
        SystemPath.with(from) { a in SystemPath.with(to) { b in renameat(folder.descriptor, a, folder.descriptor, b) } }
    }

    static func renameNoReplace(_ from: String, _ to: String, in folder: Folder) -> Int32 {
        SystemPath.with(from) { a in SystemPath.with(to) { b in archivist_rename_noreplace_at(folder.descriptor, a, b) } }
    }

    static func link(_ from: String, _ to: String, in folder: Folder) -> Int32 {
        SystemPath.with(from) { a in SystemPath.with(to) { b in linkat(folder.descriptor, a, folder.descriptor, b, 0) } }
    }

    static func exchange(_ a: String, _ b: String, in folder: Folder) -> Int32 {
        SystemPath.with(a) { pa in SystemPath.with(b) { pb in archivist_exchange_at(folder.descriptor, pa, pb) } }
    }

    /// Opens `name` in `folder` itself (no folders on the way), never through a link.
    static func open(_ name: String, in folder: Folder, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        SystemPath.with(name) { openat(folder.descriptor, $0, flags | O_NOFOLLOW | O_CLOEXEC, mode) }
    }
}
