import ArchivistCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// How a result reaches a path.
    package enum Destination: Sendable, Equatable {
        /// A regular file (or nothing yet): written to a temporary file in the
        /// folder of `target` and renamed over `target`, the path the name
        /// leads to once its symbolic links are followed. `existing` is the
        /// file there, if any.
        case file(target: String, existing: FileStamp?)
        /// A device, FIFO or socket, or a descriptor of this process named
        /// through `/proc` or `/dev/fd` (`/dev/stdout`, `/proc/self/fd/N`),
        /// itself or through links: opened and written directly, as `cp` and
        /// `plutil` write them. Renaming a file over such a name would replace
        /// the device or the link instead of writing to it.
        case special
    }

    /// What `path` is as a place to write (see `Destination`). A folder, or a
    /// link to one, is refused; so is a chain of more than 40 links.
    package static func destination(_ path: String) throws -> Destination {
        var st = stat()
        guard Sys.lstat(path, &st) == 0 else { return .file(target: path, existing: nil) }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            return .file(target: path, existing: FileStamp(st))
        case S_IFDIR:
            throw PlistError(.io, "cannot write \(path): Is a directory")
        case S_IFLNK:
            return try linkedDestination(path)
        default:
            return .special
        }
    }

    /// `destination(_:)` of a symbolic link: its chain is followed one link
    /// at a time, so a link that passes through `/proc` (a descriptor link,
    /// whose target may be a pipe, or a regular file the shell opened) is
    /// told from an ordinary one.
    private static func linkedDestination(_ path: String) throws -> Destination {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard Sys.lstat(current, &st) == 0 else {
                // The chain ends at a name with nothing there: the file is
                // created there, as `cp` creates it.
                return .file(target: current, existing: nil)
            }
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                return .file(target: current, existing: FileStamp(st))
            case S_IFDIR:
                throw PlistError(.io, "cannot write \(path): Is a directory")
            case S_IFLNK:
                let (folder, _) = split(current)
                guard let realFolder = Sys.realPath(folder) else {
                    throw PlistError(.io, "cannot write \(path): the folder of \(current) cannot be resolved")
                }
                if isProcessFileSystem(realFolder) { return .special }
                guard let next = Sys.readLink(current) else {
                    throw ioError("cannot write \(path): cannot read the link \(current)")
                }
                current = next.hasPrefix("/") ? next : (realFolder == "/" ? "/" : realFolder + "/") + next
            default:
                return .special
            }
        }
        throw PlistError(.io, "cannot write \(path): Too many levels of symbolic links")
    }

    /// True for a canonical path inside `/proc` (where links are descriptors
    /// of processes; `/dev/fd` resolves there).
    private static func isProcessFileSystem(_ path: String) -> Bool {
        path == "/proc" || path.hasPrefix("/proc/")
    }

    /// Writes directly to a special destination (see `Destination.special`):
    /// opened for writing without creating anything, truncated where that
    /// means something, written through `contents`, closed. A device that is
    /// full fails with its error (`No space left on device`).
    ///
    /// Opened without blocking: a FIFO that nothing reads is refused at once
    /// instead of waiting for a reader forever, and a FIFO stays
    /// non-blocking, so that a reader that stops reading leaves the write
    /// waiting in `poll`, where a stop request (SIGTERM, Ctrl-C) ends it.
    static func writeDirectly(to path: String, contents: (Int32) throws -> Void) throws {
        let fd = Sys.open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENXIO { throw PlistError(.io, "cannot write \(path): a FIFO that nothing reads (No such device or address)") }
            throw ioError("cannot write \(path)")
        }
        var isOpen = true
        defer { if isOpen { close(fd) } }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ioError("cannot write \(path)") }
        if (st.st_mode & S_IFMT) != S_IFIFO, (st.st_mode & S_IFMT) != S_IFSOCK {
            // A device or a file: written as usual.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        try contents(fd)
        isOpen = false
        guard close(fd) == 0 else { throw ioError("cannot write \(path)") }
    }

    /// Why `path` cannot be replaced in place, or nil when it can: only a
    /// regular file (itself or through ordinary links) is replaced; a
    /// device, FIFO, socket or descriptor link (`/dev/stdin` of a pipe) is
    /// refused, since renaming a result over it would replace the link or
    /// device rather than write the file.
    package static func inPlaceProblem(_ path: String) -> String? {
        guard path != "-" else { return "standard input cannot be replaced in place" }
        switch try? destination(path) {
        case .file(_, let existing?) where existing.isRegular:
            return nil
        case .file(_, nil):
            return "cannot replace \(path) in place: No such file or directory"
        default:
            return "cannot replace \(path) in place: not a regular file (a device, pipe, socket or descriptor; write the result with -o)"
        }
    }
}
