#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a file looked like when it was read: its identity, size, times,
/// permissions and owner. Two stamps of one path whose content parts differ
/// (`sameContent(as:)`) mean the file was replaced or written in between. Equal
/// ones do not prove the opposite (a new file can get the inode number of one
/// that was removed, within the file system's timestamp granularity and with
/// the same size; a same-size write can set the modification time back):
/// `FileIO.Precondition` compares the bytes' `ContentDigest` too.
package struct FileStamp: Sendable, Equatable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: (seconds: Int64, nanoseconds: Int64)
    package var changed: (seconds: Int64, nanoseconds: Int64)
    /// The permission bits (with set-id and sticky bits).
    package var mode: mode_t
    package var owner: uid_t
    package var group: gid_t
    /// How many names the file has (hard links).
    package var links: UInt64
    /// True for a regular file.
    package var isRegular: Bool

    /// The stamp of a file's status.
    package init(_ st: stat) {
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modified = (Int64(st.st_mtimespec.tv_sec), Int64(st.st_mtimespec.tv_nsec))
        changed = (Int64(st.st_ctimespec.tv_sec), Int64(st.st_ctimespec.tv_nsec))
        #else
        modified = (Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec))
        changed = (Int64(st.st_ctim.tv_sec), Int64(st.st_ctim.tv_nsec))
        #endif
        mode = st.st_mode & 0o7777
        owner = st.st_uid
        group = st.st_gid
        links = UInt64(truncatingIfNeeded: st.st_nlink)
        isRegular = (st.st_mode & S_IFMT) == S_IFREG
    }

    /// False when the content can have changed between the two stamps: a
    /// different file (replaced by a rename), size or modification time. The
    /// status-change time is not compared: it also moves when a hard link
    /// of the file is renamed over, which changes no content.
    package func sameContent(as other: FileStamp) -> Bool {
        device == other.device && inode == other.inode && size == other.size && modified == other.modified
    }

    package static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.sameContent(as: b) && a.changed == b.changed && a.mode == b.mode && a.owner == b.owner && a.group == b.group && a.links == b.links
    }
}
