/// A `bplist00` buffer with its validated trailer, and the checked reads of
/// single objects that every reader of the format shares (`BinaryScanner`,
/// which builds a tree, and `BinaryPlistView`, which reads in place): counts,
/// references, lengths inside the object area, scalars, the offset table.
/// Each failure is a `PlistError` located at the byte offset and object index.
struct BinaryObjectArea {
    let buf: UnsafeRawBufferPointer
    let trailer: BinaryTrailer
    let limits: Limits

    /// Checks the header and the trailer (the offset table is checked by
    /// `checkOffsetTable()` or entry by entry with `offset(_:)`).
    init(_ buffer: UnsafeRawBufferPointer, limits: Limits) throws {
        guard buffer.count >= 8, buffer.starts(with: "bplist".utf8) else {
            throw PlistError(.corrupt, "not a binary property list: missing \"bplist00\" header", at: .binary(offset: 0, object: nil))
        }
        guard buffer[6] == UInt8(ascii: "0"), buffer[7] == UInt8(ascii: "0") else {
            let version = String(decoding: buffer[6..<8], as: UTF8.self)
            throw PlistError(.unsupported, "binary property list version \"bplist\(version)\" is not supported (only bplist00)",
                             at: .binary(offset: 6, object: nil))
        }
        buf = buffer
        self.limits = limits
        trailer = try BinaryTrailer(buffer)
        guard trailer.offsetTableOffset <= Int(UInt32.max) else {
            throw PlistError(.limitExceeded, "binary property lists whose objects take more than 4 GiB are not supported",
                             at: .binary(offset: trailer.offsetTableOffset, object: nil))
        }
    }

    /// The end of the object area (where the offset table starts).
    @inline(__always)
    var end: Int { trailer.offsetTableOffset }

    // MARK: - Offset table

    /// The offset of object `i` as the table gives it, checked to lie in the object area.
    @inline(__always)
    func offset(_ i: Int) throws -> Int {
        let at = trailer.offsetTableOffset + i * trailer.offsetIntSize
        let off = BinaryObjectArea.readUInt(buf, at, trailer.offsetIntSize)
        guard off >= 8, off < UInt64(end) else {
            throw PlistError(.corrupt, "offset table entry \(i) points at \(off), outside the object area 8..<\(end)",
                             at: .binary(offset: at, object: i))
        }
        return Int(off)
    }

    /// The offset of object `i` once `checkOffsetTable()` has passed: read
    /// from the table again rather than kept (the table is the input's own).
    @inline(__always)
    func checkedOffset(_ i: Int) -> Int {
        Int(truncatingIfNeeded: BinaryObjectArea.readUInt(buf, trailer.offsetTableOffset + i * trailer.offsetIntSize, trailer.offsetIntSize))
    }

    /// Checks every entry of the offset table, in order (the first bad one is the error).
    func checkOffsetTable() throws {
        for i in 0..<trailer.numObjects { _ = try offset(i) }
    }

    // MARK: - Primitive reads

    /// Counts may be written as integers of 1 to 128 bytes (2^0...2^7), as
    /// CoreFoundation reads them; only their last 8 bytes are significant.
    static let maxCountWidthLog2 = 7

    /// The last 8 bytes (all of them when fewer) of the big-endian integer of
    /// `size` bytes at `at`: CoreFoundation's reading of wide counts and UIDs.
    @inline(__always)
    static func readLow64(_ b: UnsafeRawBufferPointer, _ at: Int, _ size: Int) -> UInt64 {
        size <= 8 ? readUInt(b, at, size) : readUInt(b, at + size - 8, 8)
    }

    @inline(__always)
    static func readUInt(_ b: UnsafeRawBufferPointer, _ at: Int, _ size: Int) -> UInt64 {
        switch size {
        case 1: return UInt64(b[at])
        case 2: return UInt64(UInt16(bigEndian: b.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        case 8: return UInt64(bigEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        default:
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(b[at + k]) }
            return v
        }
    }

    func fail(_ kind: PlistError.Kind, _ message: String, offset: Int, object: Int) -> PlistError {
        PlistError(kind, message, at: .binary(offset: offset, object: object))
    }

    /// Checks that `length` bytes from `start` lie inside the object area.
    @inline(__always)
    func checkRange(_ start: Int, _ length: Int, object: Int, what: @autoclosure () -> String) throws {
        let end = start.addingReportingOverflow(length)
        guard length >= 0, !end.overflow, end.partialValue <= trailer.offsetTableOffset else {
            throw fail(.corrupt, "\(what()) of \(length) bytes at offset \(start) runs past the object area (ends at \(trailer.offsetTableOffset))",
                       offset: start, object: object)
        }
    }

    /// Reads the count of a data, string or collection object whose marker is at `at`;
    /// returns the count and the offset of the payload.
    @inline(__always)
    func count(marker: UInt8, at: Int, object: Int) throws -> (Int, Int) {
        let info = Int(marker & 0x0F)
        if info != 0x0F { return (info, at + 1) }
        try checkRange(at + 1, 1, object: object, what: "count header")
        let intMarker = buf[at + 1]
        guard intMarker & 0xF0 == 0x10, Int(intMarker & 0x0F) <= BinaryObjectArea.maxCountWidthLog2 else {
            throw fail(.corrupt, "count is not an integer of 1 to 128 bytes (marker 0x\(String(intMarker, radix: 16)))", offset: at + 1, object: object)
        }
        let size = 1 << Int(intMarker & 0x0F)
        try checkRange(at + 2, size, object: object, what: "count")
        let raw = BinaryObjectArea.readLow64(buf, at + 2, size)
        guard raw <= UInt64(trailer.offsetTableOffset) * 2 + 1 else {
            throw fail(.corrupt, "count \(raw) is larger than the file can hold", offset: at + 2, object: object)
        }
        return (Int(raw), at + 2 + size)
    }

    func checkLength(_ n: Int, object: Int, at: Int) throws {
        guard n <= limits.maxValueLength else {
            throw fail(.limitExceeded, "value of \(n) bytes exceeds the limit of \(limits.maxValueLength)", offset: at, object: object)
        }
    }

    /// Reads the `i`th object reference of a list starting at `p`.
    @inline(__always)
    func ref(_ p: Int, _ i: Int, object: Int) throws -> Int {
        let r = BinaryObjectArea.readUInt(buf, p + i * trailer.objectRefSize, trailer.objectRefSize)
        guard r < UInt64(trailer.numObjects) else {
            throw fail(.corrupt, "reference \(r) is not below the object count \(trailer.numObjects)",
                       offset: p + i * trailer.objectRefSize, object: object)
        }
        return Int(r)
    }

    // MARK: - Objects

    /// The payload of a data (`0x4X`), one-byte string (`0x5X`) or UTF-16
    /// string (`0x6X`) object: its count, length and place checked.
    @inline(__always)
    func payload(_ marker: UInt8, at: Int, object: Int) throws -> UnsafeRawBufferPointer {
        let (n, p) = try count(marker: marker, at: at, object: object)
        var length = n
        let what: String
        switch marker >> 4 {
        case 0x4: what = "data"
        case 0x5: what = "ASCII string"
        default:
            let bytes = n.multipliedReportingOverflow(by: 2)
            guard !bytes.overflow else { throw fail(.corrupt, "UTF-16 string length overflows", offset: at, object: object) }
            length = bytes.partialValue
            what = "UTF-16 string"
        }
        try checkLength(length, object: object, at: at)
        try checkRange(p, length, object: object, what: what)
        return UnsafeRawBufferPointer(rebasing: buf[p..<(p + length)])
    }

    /// The count and first reference of an array or set (`0xAX`, `0xCX`) or
    /// dictionary (`0xDX`), its references checked to lie in the object area.
    @inline(__always)
    func container(_ marker: UInt8, at: Int, object: Int) throws -> (count: Int, refs: Int) {
        let (n, p) = try count(marker: marker, at: at, object: object)
        let dictionary = marker >> 4 == 0xD
        let refBytes = n.multipliedReportingOverflow(by: (dictionary ? 2 : 1) * trailer.objectRefSize)
        guard !refBytes.overflow else {
            throw fail(.corrupt, "\(dictionary ? "dictionary" : "array") count \(n) overflows", offset: at, object: object)
        }
        try checkRange(p, refBytes.partialValue, object: object,
                       what: dictionary ? "dictionary of \(n) entries" : "array of \(n) references")
        return (n, p)
    }

    /// A null, boolean, integer, real, date or UID object (markers `0x0X`,
    /// `0x1X`, `0x2X`, `0x3X`, `0x8X`), decoded and checked as CoreFoundation reads it.
    func scalar(_ marker: UInt8, at: Int, object index: Int) throws -> PlistItem {
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default:
                throw fail(.corrupt, "unknown object marker 0x\(String(marker, radix: 16))", offset: at, object: index)
            }
        case 0x1:
            return .integer(try integer(marker, at: at, object: index))
        case 0x2:
            switch marker & 0x0F {
            case 2:
                try checkRange(at + 1, 4, object: index, what: "real")
                let bits = UInt32(bigEndian: buf.loadUnaligned(fromByteOffset: at + 1, as: UInt32.self))
                return .real(PlistReal(float: Float(bitPattern: bits)))
            case 3:
                try checkRange(at + 1, 8, object: index, what: "real")
                return .real(PlistReal(Double(bitPattern: BinaryObjectArea.readUInt(buf, at + 1, 8))))
            default:
                throw fail(.corrupt, "real of unsupported width (marker 0x\(String(marker, radix: 16)))", offset: at, object: index)
            }
        case 0x3:
            guard marker == 0x33 else {
                throw fail(.corrupt, "date with marker 0x\(String(marker, radix: 16)) (expected 0x33)", offset: at, object: index)
            }
            try checkRange(at + 1, 8, object: index, what: "date")
            return .date(PlistDate(secondsSinceReferenceDate: Double(bitPattern: BinaryObjectArea.readUInt(buf, at + 1, 8))))
        case 0x8:
            // 1 to 16 bytes, of which the last 8 count; CoreFoundation refuses
            // values above 32 bits.
            let size = Int(marker & 0x0F) + 1
            try checkRange(at + 1, size, object: index, what: "UID")
            let uid = BinaryObjectArea.readLow64(buf, at + 1, size)
            guard uid <= UInt64(UInt32.max) else {
                throw fail(.invalidValue, "UID \(uid) is above 4294967295 (2^32-1), the largest CoreFoundation reads", offset: at, object: index)
            }
            return .uid(uid)
        default:
            throw fail(.unsupported, "unknown object type 0x\(String(marker, radix: 16))", offset: at, object: index)
        }
    }

    private func integer(_ marker: UInt8, at: Int, object: Int) throws -> PlistInteger {
        let info = Int(marker & 0x0F)
        switch info {
        case 0, 1, 2:
            let size = 1 << info
            try checkRange(at + 1, size, object: object, what: "integer")
            return PlistInteger(BinaryObjectArea.readUInt(buf, at + 1, size))
        case 3:
            try checkRange(at + 1, 8, object: object, what: "integer")
            return PlistInteger(Int64(bitPattern: BinaryObjectArea.readUInt(buf, at + 1, 8)))
        case 4:
            try checkRange(at + 1, 16, object: object, what: "integer")
            let high = BinaryObjectArea.readUInt(buf, at + 1, 8)
            let low = BinaryObjectArea.readUInt(buf, at + 9, 8)
            if high == 0 { return PlistInteger(low) }
            if high == UInt64.max, low >> 63 == 1 { return PlistInteger(Int64(bitPattern: low)) }
            throw fail(.invalidValue, "128-bit integer is outside the 64-bit range", offset: at, object: object)
        default:
            throw fail(.corrupt, "integer of unsupported width (marker 0x\(String(marker, radix: 16)))", offset: at, object: object)
        }
    }
}
