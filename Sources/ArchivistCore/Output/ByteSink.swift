#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writers' output: one growing buffer, appended to with plain stores and
/// `memcpy` (no per-append generic collection code), handed over as one
/// `[UInt8]` (or `String`) at the end. Package API for the renderers of other
/// modules (`dump`).
///
/// A sink made with a `drain` hands its bytes to the drain whenever the next
/// append would not fit in its buffer, so a writer's output streams out in
/// pieces of about the buffer's size instead of growing with the output; call
/// `finish()` at the end. Core does no file access: the drain is the caller's.
package final class ByteSink {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// Where full buffers go, when streaming.
    private let drain: ((UnsafeRawBufferPointer) throws -> Void)?
    /// Bytes already handed to the drain.
    private var drained = 0
    /// The drain's first failure; later output is dropped and `finish` throws it.
    private var drainError: (any Error)?

    package init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        drain = nil
    }

    /// A sink that streams: its buffer (`capacity` bytes) goes to `drain`
    /// each time it is full, and what remains when `finish()` is called.
    package init(capacity: Int = 1 << 20, drain: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        self.drain = drain
    }

    deinit { base.deallocate() }

    /// The number of bytes written (those already drained included).
    package var byteCount: Int { drained + count }

    /// Hands what is buffered to the drain (a sink without one keeps it) and
    /// reports the drain's first failure.
    package func finish() throws {
        if drain != nil { flush() }
        if let drainError { throw drainError }
    }

    /// Throws the drain's first failure, if any: a writer calls it as it
    /// goes, so that output nobody can receive (a closed pipe) stops being
    /// made at the first failed write.
    @inline(__always)
    package func checkDrain() throws {
        if let drainError { throw drainError }
    }

    private func flush() {
        guard let drain, count > 0 else { return }
        if drainError == nil {
            do {
                try drain(UnsafeRawBufferPointer(start: base, count: count))
            } catch {
                drainError = error
            }
        }
        drained += count
        count = 0
    }

    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { makeRoom(extra) }
    }

    private func makeRoom(_ extra: Int) {
        if drain != nil {
            flush()
            if extra <= capacity { return }
        }
        grow(count + extra)
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// One byte.
    @inline(__always)
    package func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n > 0, let from = bytes.baseAddress else { return }
        reserve(n)
        let to = UnsafeMutableRawPointer(base + count)
        if n <= 16 {
            // Tags and short texts: two overlapping copies of a word (or half
            // or quarter word), no call.
            if n >= 8 {
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                (to + (n - 8)).storeBytes(of: from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self), as: UInt64.self)
            } else if n >= 4 {
                to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
                (to + (n - 4)).storeBytes(of: from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self), as: UInt32.self)
            } else {
                // One to three bytes: the first, and the last two (overlapping).
                to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self)
                if n > 1 {
                    (to + (n - 2)).storeBytes(of: from.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self), as: UInt16.self)
                }
            }
        } else {
            memcpy(to, from, n)
        }
        count += n
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    @inline(__always)
    func append(_ s: StaticString) {
        s.withUTF8Buffer { append($0) }
    }

    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The UTF-8 bytes of a string.
    @inline(__always)
    package func append(utf8 s: String) {
        // Native and small strings hand over their UTF-8 directly.
        if s.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) != nil { return }
        var s = s
        s.withUTF8 { append($0) }
    }

    /// `n` copies of `byte`.
    @inline(__always)
    func append(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        reserve(n)
        if n <= 8 {
            for k in 0..<n { base[count + k] = byte }
        } else {
            memset(base + count, Int32(byte), n)
        }
        count += n
    }

    /// A line feed and `n` spaces (an indent), the spaces stored a word at a time.
    /// The first two words are stored whatever `n` (most indents are up to 16
    /// spaces): a loop from the first would be compiled into a call of
    /// `memset`, which costs more than the stores for so few bytes.
    @inline(__always)
    func appendLineFeed(indent n: Int) {
        guard n >= 0 else { return }
        // The last words may be stored past the spaces, into the room reserved.
        reserve(n + 17)
        let to = UnsafeMutableRawPointer(base + count)
        let spaces: UInt64 = 0x2020_2020_2020_2020
        to.storeBytes(of: 0x0A, as: UInt8.self)
        (to + 1).storeBytes(of: spaces, as: UInt64.self)
        (to + 9).storeBytes(of: spaces, as: UInt64.self)
        var k = 17
        while k <= n {
            (to + k).storeBytes(of: spaces, as: UInt64.self)
            k &+= 8
        }
        count += n + 1
    }

    /// Runs `body` on `n` bytes of new space at the end; `body` returns how many it wrote.
    @inline(__always)
    func appendUninitialized(max n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(n)
        count += body(base + count)
    }

    /// Plain decimal over the signed and unsigned 64-bit range.
    func appendDecimal(_ i: PlistInteger) {
        var magnitude = i.bitPattern
        if i.isNegative {
            append(UInt8(ascii: "-"))
            magnitude = Int64(bitPattern: i.bitPattern).magnitude
        }
        appendUninitialized(max: 20) { p in
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            return withUnsafeMutableBytes(of: &digits) { buffer in
                var k = buffer.count
                repeat {
                    k -= 1
                    buffer[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                let n = buffer.count - k
                if let from = buffer.baseAddress { memcpy(p, from + k, n) }
                return n
            }
        }
    }

    /// Takes back the last byte appended when it is `byte` (`get -n` leaves
    /// out the line break a view ends with). The last append is always still
    /// in the buffer: a streaming sink hands its buffer on before an append
    /// that does not fit, never after one.
    package func dropLast(_ byte: UInt8) {
        if count > 0, base[count - 1] == byte { count -= 1 }
    }

    /// The bytes written, as an array (the sink may be reused or dropped after).
    package func bytes() -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes written, as UTF-8 text.
    package func text() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}
