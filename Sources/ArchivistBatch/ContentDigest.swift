#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 128-bit fingerprint of a file's bytes: what an in-place result checks
/// besides the file's stamp before it replaces the file, so a file whose
/// stamp happens to match (a new file given a freed inode number, a write of
/// the same size within the file system's timestamp granularity) is still
/// seen to hold something else. Not cryptographic: it tells apart content
/// changed by chance, not content made to collide.
package struct ContentDigest: Sendable, Hashable {
    private var lanes: (UInt64, UInt64)

    /// The digest of `bytes`.
    package init(_ bytes: UnsafeRawBufferPointer) {
        var state = State()
        state.add(bytes)
        lanes = state.finish()
    }

    /// The digest of what the file at `path` holds now, read a piece at a
    /// time; nil when it cannot be read.
    package init?(file path: String) {
        let fd = Sys.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        self.init(descriptor: fd)
    }

    /// The digest of what the open file `fd` holds from its current offset
    /// on (a regular file only); nil when it cannot be read.
    package init?(descriptor fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = State.chunk
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var state = State()
        while true {
            // Fill the whole buffer (short reads are only the end), so only
            // the last piece is not a multiple of the block.
            var count = 0
            while count < size {
                let n = systemRead(fd, buffer + count, size - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if n == 0 { break }
                count += n
            }
            state.add(UnsafeRawBufferPointer(start: buffer, count: count))
            if count < size { break }
        }
        lanes = state.finish()
    }

    package static func == (a: ContentDigest, b: ContentDigest) -> Bool {
        a.lanes.0 == b.lanes.0 && a.lanes.1 == b.lanes.1
    }

    /// The digest of a string's UTF-8 bytes (a name `RunOutputs` keys by).
    package init(_ text: String) {
        var copy = text
        self = copy.withUTF8 { ContentDigest(UnsafeRawBufferPointer($0)) }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(lanes.0)
        hasher.combine(lanes.1)
    }

    /// Two lanes of multiply-rotate rounds over 16-byte blocks (the rounds
    /// of xxHash64), each finished with its avalanche and the length.
    private struct State {
        /// Bytes read from a file at a time (a multiple of the block).
        static let chunk = 1 << 16
        private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
        private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        private static let p3: UInt64 = 0x1656_67B1_9E37_79F9

        private var a: UInt64 = 0x6A09_E667_F3BC_C908
        private var b: UInt64 = 0xBB67_AE85_84CA_A73B
        private var length: UInt64 = 0

        /// Adds bytes; every call but the last must add a multiple of 16.
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            var at = 0
            while bytes.count - at >= 16 {
                a = Self.round(a, bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                b = Self.round(b, bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
                at += 16
            }
            // The tail, a byte at a time into one word per lane.
            var tail: (UInt64, UInt64) = (0, 0)
            var shift: UInt64 = 0
            while at < bytes.count {
                let byte = UInt64(bytes[at])
                if shift < 64 { tail.0 |= byte << shift } else { tail.1 |= byte << (shift - 64) }
                shift += 8
                at += 1
            }
            if shift > 0 {
                a = Self.round(a, tail.0 ^ shift)
                b = Self.round(b, tail.1 ^ shift)
            }
        }

        func finish() -> (UInt64, UInt64) {
            (Self.avalanche(a ^ length), Self.avalanche(b ^ (length &* Self.p3)))
        }

        private static func round(_ acc: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = acc &+ UInt64(littleEndian: word) &* p2
            return ((mixed << 31) | (mixed >> 33)) &* p1
        }

        private static func avalanche(_ value: UInt64) -> UInt64 {
            var h = value
            h ^= h >> 33
            h &*= p2
            h ^= h >> 29
            h &*= p3
            h ^= h >> 32
            return h
        }
    }
}
