#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pages of an input that is a read-only private mapping of a file, which
/// a reader may hand back to the system once it has read them: a dropped page
/// is read from the file again if it is touched, so nothing the reader sees
/// changes, but the input no longer has to be resident all at once. A reader
/// that reads its input front to back (a binary property list written in
/// the order its objects are reached) then holds a window of it, not all of
/// it, beside the tree it builds.
///
/// Only the owner of the mapping may make one (ArchivistBatch's mapped
/// inputs): dropping the pages of memory that is not a file mapping would
/// lose its content.
package struct InputPages: Sendable, Equatable {
    /// Where the mapping starts, and its length.
    private let base: UInt
    private let count: Int

    /// The pages of `mapping`, which must be a read-only private mapping of a
    /// file, never written.
    package init(mapping: UnsafeRawBufferPointer) {
        base = UInt(bitPattern: mapping.baseAddress)
        count = mapping.count
    }

    /// True when `buffer` is this mapping (a reader releases only the pages of
    /// the buffer it was given).
    package func isMapping(of buffer: UnsafeRawBufferPointer) -> Bool {
        base != 0 && UInt(bitPattern: buffer.baseAddress) == base && buffer.count == count
    }

    /// The size of the pages the system maps.
    private static let pageSize: Int = {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        return size > 0 ? size : 4096
    }()

    /// Hands back the whole pages inside `range` (offsets in the mapping);
    /// the part of a page at either end that lies outside it is kept.
    package func release(_ range: Range<Int>) {
        let page = InputPages.pageSize
        let lower = max(range.lowerBound, 0), upper = min(range.upperBound, count)
        // The first page boundary at or above `lower`, and the last at or below `upper`.
        let start = (Int(base) + lower + page - 1) / page * page, end = (Int(base) + upper) / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_DONTNEED)
    }
}
