import ArchivistCore

/// Reads the primitive units of a typedstream from its bytes: head bytes,
/// integers (one byte, or a 0x81/0x82 tag and two or four bytes), reals
/// (0x83 and four or eight bytes) and byte runs. Every read is checked
/// against the end; a read past it throws.
struct TypedstreamCursor {
    /// Head byte: a 16-bit integer follows.
    static let int16Tag: Int8 = -127
    /// Head byte: a 32-bit integer follows.
    static let int32Tag: Int8 = -126
    /// Head byte: a float or double follows.
    static let realTag: Int8 = -125
    /// Head byte: something new (an object, class, string) starts.
    static let newTag: Int8 = -124
    /// Head byte: nil.
    static let nilTag: Int8 = -123
    /// Head byte: the end of an object's contents.
    static let endTag: Int8 = -122
    /// Head bytes -128...-111 are tags; a reference number n is stored as n - 110.
    static let tagRange: ClosedRange<Int8> = -128 ... -111
    static let firstReference: Int64 = -110

    let bytes: [UInt8]
    /// True for the big-endian signature `typedstream`; `streamtyped` is little-endian.
    var bigEndian = false
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// True when every byte has been read.
    var atEnd: Bool { offset >= bytes.count }

    /// An error at the current offset.
    func error(_ message: String) -> PlistError {
        PlistError(.corrupt, "typedstream: \(message)", at: .binary(offset: offset, object: nil))
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else {
            throw error("\(count) bytes wanted, \(max(0, bytes.count - offset)) left")
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// The next byte, as a signed head byte.
    mutating func head() throws -> Int8 {
        Int8(bitPattern: try take(1).first ?? 0)
    }

    /// An unsigned integer of `width` bytes in the stream's byte order.
    private mutating func fixed(_ width: Int) throws -> UInt64 {
        let run = try take(width)
        var value: UInt64 = 0
        if bigEndian {
            for b in run { value = value << 8 | UInt64(b) }
        } else {
            for b in run.reversed() { value = value << 8 | UInt64(b) }
        }
        return value
    }

    /// An integer whose head byte has been read.
    mutating func integer(head: Int8, signed: Bool) throws -> Int64 {
        if !Self.tagRange.contains(head) { return signed ? Int64(head) : Int64(UInt8(bitPattern: head)) }
        switch head {
        case Self.int16Tag:
            let raw = UInt16(truncatingIfNeeded: try fixed(2))
            return signed ? Int64(Int16(bitPattern: raw)) : Int64(raw)
        case Self.int32Tag:
            let raw = UInt32(truncatingIfNeeded: try fixed(4))
            return signed ? Int64(Int32(bitPattern: raw)) : Int64(raw)
        default:
            throw error("head byte 0x\(String(UInt8(bitPattern: head), radix: 16)) where an integer was expected")
        }
    }

    /// An integer (head byte included).
    mutating func integer(signed: Bool) throws -> Int64 {
        try integer(head: try head(), signed: signed)
    }

    /// A float (`double` false) or double whose head byte has been read: 0x83
    /// and its bytes, or an integer.
    mutating func real(head: Int8, double: Bool) throws -> Double {
        guard head == Self.realTag else { return Double(try integer(head: head, signed: true)) }
        if double { return Double(bitPattern: try fixed(8)) }
        return Double(Float(bitPattern: UInt32(truncatingIfNeeded: try fixed(4))))
    }

    /// The index a reference head (and what follows it) stands for.
    mutating func reference(head: Int8) throws -> Int {
        let n = try integer(head: head, signed: true)
        let index = n - Self.firstReference
        guard index >= 0, index <= Int64(Int32.max) else { throw error("reference number \(n) out of range") }
        return Int(index)
    }
}
