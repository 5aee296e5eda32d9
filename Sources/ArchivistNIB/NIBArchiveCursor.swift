import ArchivistCore

/// Reads the units of a NIBArchive from its bytes: little-endian 32-bit
/// integers, the format's varints and byte runs. Every read is checked
/// against the end; a read past it throws.
struct NIBArchiveCursor {
    /// The longest varint read: ten 7-bit groups hold any 64-bit value.
    static let maxVarintBytes = 10

    let bytes: UnsafeRawBufferPointer
    var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The bytes left from the offset.
    var remaining: Int { bytes.count - offset }

    /// A corrupt-file error at the current offset.
    func error(_ message: String) -> PlistError {
        PlistError(.corrupt, "NIBArchive: \(message)", at: .binary(offset: offset, object: nil))
    }

    /// The next `count` bytes, as offsets into the input.
    mutating func take(_ count: Int) throws -> Range<Int> {
        guard count >= 0, count <= remaining else {
            throw error("\(count) bytes wanted, \(max(0, remaining)) left")
        }
        defer { offset += count }
        return offset..<(offset + count)
    }

    mutating func byte() throws -> UInt8 {
        bytes[try take(1).lowerBound]
    }

    /// A little-endian unsigned integer of `width` bytes (at most 8).
    mutating func unsigned(_ width: Int) throws -> UInt64 {
        let range = try take(width)
        var v: UInt64 = 0
        for (shift, i) in range.enumerated() { v |= UInt64(bytes[i]) << UInt64(8 * shift) }
        return v
    }

    /// A header field: a little-endian signed 32-bit count or offset, which
    /// must not be negative.
    mutating func headerField(_ name: String) throws -> Int {
        let v = Int32(truncatingIfNeeded: try unsigned(4))
        guard v >= 0 else { throw error("the header's \(name) is negative (\(v))") }
        return Int(v)
    }

    /// A varint: 7-bit groups, least significant first; the group whose high
    /// bit is set is the last (the opposite of LEB128). At most ten bytes,
    /// and the value must fit in an `Int`.
    mutating func varint() throws -> Int {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for _ in 0..<Self.maxVarintBytes {
            let b = try byte()
            let group = UInt64(b & 0x7F)
            // The bits shifted out must be zero, or the value does not fit.
            guard shift < 64, (group << shift) >> shift == group else { break }
            value |= group << shift
            if b & 0x80 != 0 {
                guard value <= UInt64(Int.max) else { break }
                return Int(value)
            }
            shift += 7
        }
        offset = start
        throw error("a varint of more than ten bytes, or past 64 bits")
    }
}
