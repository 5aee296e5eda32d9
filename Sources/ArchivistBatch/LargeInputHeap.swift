import CArchivistSupport

/// How the C library's allocator serves a process that works on a large
/// input: every block of `mappedFrom` bytes or more in a mapping of its own,
/// handed back to the system when it is freed.
///
/// glibc raises its threshold for such blocks to the size of each one freed
/// (up to 32 MiB), so after the first large table is freed the next ones come
/// from the heap, and a table freed there leaves a hole that later, larger
/// tables cannot use: `migrate` of the benchmark's W3 archive (16 MiB) kept
/// 2-3 MiB of such holes at its peak, beside the read tree and the writer's
/// tables. A fixed threshold keeps the heap for small blocks. It is set once,
/// when the first input of `InputBytes.mapThreshold` bytes or more is opened:
/// a batch of small files keeps glibc's adjusting threshold, whose heap
/// serves each file's 1 MiB output buffer without a system call.
enum LargeInputHeap {
    /// Blocks of this size or more are mapped on their own (512 KiB): a
    /// large input's tables and the arrays growing towards them.
    static let mappedFrom = 512 << 10

    private static let fixed: Void = {
        _ = archivist_map_blocks_from(Int32(mappedFrom))
    }()

    /// Sets the threshold, the first time only (thread-safe).
    static func prepare() {
        _ = fixed
    }
}
