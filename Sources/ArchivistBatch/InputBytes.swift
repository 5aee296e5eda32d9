#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArchivistCore

/// An input's content: read into memory, or (a regular file of
/// `InputBytes.mapThreshold` bytes or more) mapped read-only, so readers read
/// it in place and a file larger than memory can be walked.
package struct InputBytes {
    /// Files at least this large are mapped instead of read (1 MiB): below it
    /// one `read` costs less than setting up and tearing down a mapping.
    package static let mapThreshold = 1 << 20

    private enum Storage {
        case bytes([UInt8])
        case mapped(MappedFile)
    }

    private let storage: Storage

    /// The stamp of the file as it was opened (nil for standard input and
    /// bytes given in memory): what an in-place result checks before it
    /// replaces the file.
    package let stamp: FileStamp?

    /// True when a file of status `st` may be mapped rather than read: one
    /// this process's user owns and nobody else may write (no group or
    /// other write permission). Another user who can truncate a mapped file
    /// while it is read would make the reader fault (`SIGBUS`) on the pages
    /// past the new end, and a root run over another user's folder must not
    /// be stopped that way; such a file is read into memory instead (its
    /// bytes are then the ones read, whatever happens to the file).
    static func mayMap(_ st: stat) -> Bool {
        st.st_uid == geteuid() && st.st_mode & (S_IWGRP | S_IWOTH) == 0
    }

    /// Bytes already in memory (`stamp`: of the file they were read from).
    package init(_ bytes: [UInt8], stamp: FileStamp? = nil) {
        storage = .bytes(bytes)
        self.stamp = stamp
    }

    init(mapped: MappedFile, stamp: FileStamp?) {
        storage = .mapped(mapped)
        self.stamp = stamp
    }

    /// The number of bytes.
    package var count: Int {
        switch storage {
        case .bytes(let bytes): return bytes.count
        case .mapped(let file): return file.count
        }
    }

    /// True when the content is a mapping of the file rather than a copy.
    package var isMapped: Bool {
        switch storage {
        case .bytes: return false
        case .mapped: return true
        }
    }

    /// Calls `body` with the content (valid only inside `body`).
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .bytes(let bytes): return try bytes.withUnsafeBytes(body)
        case .mapped(let file): return try body(file.buffer)
        }
    }

    /// Lets the system take back the pages of a mapped file that were read
    /// (they are read from the file again if touched): for a caller that
    /// has read the whole input into another form and keeps the input only
    /// to look at it again. Bytes in memory are kept.
    package func releaseResidentPages() {
        guard case .mapped(let file) = storage else { return }
        file.releaseResidentPages()
    }

    /// `options` for reading this input: with its pages (see `InputPages`)
    /// when it is a mapped file, so a reader may hand back what it has read.
    package func readOptions(_ options: ReadOptions) -> ReadOptions {
        guard case .mapped(let file) = storage else { return options }
        var options = options
        options.inputPages = InputPages(mapping: file.buffer)
        return options
    }

    /// The content as an array (a copy of a mapped file).
    package var array: [UInt8] {
        switch storage {
        case .bytes(let bytes): return bytes
        case .mapped(let file): return Array(file.buffer)
        }
    }
}

/// A read-only private mapping of a whole file, unmapped when the last
/// reference goes.
final class MappedFile {
    private let base: UnsafeMutableRawPointer
    /// The file's size when it was mapped.
    let count: Int

    /// Maps `count` bytes of the open file `fd` (the descriptor may be closed
    /// afterwards); nil when the system refuses.
    init?(fd: Int32, count: Int) {
        guard count > 0, let p = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        base = p
        self.count = count
    }

    /// The mapped bytes.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Drops the resident pages; the mapping stays valid (read-only and
    /// never written, so a page touched again is the file's).
    func releaseResidentPages() {
        _ = madvise(base, count, MADV_DONTNEED)
    }

    deinit {
        munmap(base, count)
    }
}
