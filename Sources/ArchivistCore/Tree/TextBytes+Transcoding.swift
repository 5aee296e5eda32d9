extension TextBytes {
    /// Calls `body` with the text as UTF-8: UTF-8 and ASCII text as it is,
    /// other Latin-1 and UTF-16BE text transcoded into `scratch` (reused from
    /// call to call, so a writer allocates no memory per string). A lone
    /// surrogate becomes U+FFFD, as the binary reader reads it.
    @inline(__always)
    func withUTF8<R>(scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch encoding {
        case .utf8:
            return try body(bytes.assumingMemoryBound(to: UInt8.self))
        case .latin1:
            // Binary plists' 0x5X strings are ASCII but for rare exceptions.
            let text = bytes.assumingMemoryBound(to: UInt8.self)
            var ascii = true
            for b in text where b >= 0x80 {
                ascii = false
                break
            }
            if ascii { return try body(text) }
            transcode(into: &scratch)
            return try scratch.withUnsafeBufferPointer(body)
        case .utf16BE:
            transcode(into: &scratch)
            return try scratch.withUnsafeBufferPointer(body)
        }
    }

    /// The text as UTF-8 in `out` (replacing its contents).
    func transcode(into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var units = UTF16Units(self)
        while let u = units.next() {
            var c = UInt32(u)
            // UTF16Units replaces lone surrogates: a lead unit comes with its trail.
            if u >= 0xD800, u <= 0xDBFF, let low = units.next() {
                c = 0x10000 + ((c - 0xD800) << 10) + (UInt32(low) & 0x3FF)
            }
            TextBytes.appendUTF8(c, to: &out)
        }
    }

    @inline(__always)
    private static func appendUTF8(_ c: UInt32, to out: inout [UInt8]) {
        if c < 0x80 {
            out.append(UInt8(c))
        } else if c < 0x800 {
            out.append(UInt8(0xC0 | (c >> 6))); out.append(UInt8(0x80 | (c & 0x3F)))
        } else if c < 0x10000 {
            out.append(UInt8(0xE0 | (c >> 12))); out.append(UInt8(0x80 | ((c >> 6) & 0x3F))); out.append(UInt8(0x80 | (c & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (c >> 18))); out.append(UInt8(0x80 | ((c >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((c >> 6) & 0x3F))); out.append(UInt8(0x80 | (c & 0x3F)))
        }
    }

    /// True when `a` sorts before `b` by UTF-16 code units, as CoreFoundation
    /// sorts dictionary keys, whatever their encodings.
    static func precedesInUTF16(_ a: TextBytes, _ b: TextBytes) -> Bool {
        if a.encoding == .utf8, b.encoding == .utf8,
           let byBytes = PlistDictionary.precedesInUTF16(utf8: a.bytes.assumingMemoryBound(to: UInt8.self), b.bytes.assumingMemoryBound(to: UInt8.self)) {
            return byBytes
        }
        var x = UTF16Units(a), y = UTF16Units(b)
        while true {
            switch (x.next(), y.next()) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case let (p?, q?): if p != q { return p < q }
            }
        }
    }

    /// True when `a` and `b` are the same text (as the strings read from them
    /// would be equal byte for byte), whatever their encodings.
    static func sameText(_ a: TextBytes, _ b: TextBytes) -> Bool {
        if a.encoding == b.encoding, a.encoding != .utf16BE {
            return a.bytes.elementsEqual(b.bytes)
        }
        var x = UTF16Units(a), y = UTF16Units(b)
        while true {
            let p = x.next(), q = y.next()
            if p != q { return false }
            if p == nil { return true }
        }
    }
}

/// The UTF-16 code units of a text of any `TextBytes.Encoding`, a lone
/// surrogate of UTF-16BE text replaced by U+FFFD.
struct UTF16Units: IteratorProtocol {
    private let text: TextBytes
    private var offset = 0
    /// The trail surrogate of a UTF-8 character beyond U+FFFF, or a unit read ahead.
    private var pending: UInt16?

    init(_ text: TextBytes) {
        self.text = text
    }

    mutating func next() -> UInt16? {
        if let p = pending {
            pending = nil
            return p
        }
        let bytes = text.bytes
        guard offset < bytes.count else { return nil }
        switch text.encoding {
        case .latin1:
            offset += 1
            return UInt16(bytes[offset - 1])
        case .utf16BE:
            guard offset + 1 < bytes.count else {
                offset = bytes.count
                return nil
            }
            let u = unit(at: offset)
            offset += 2
            if u >= 0xDC00, u <= 0xDFFF { return 0xFFFD }
            guard u >= 0xD800, u <= 0xDBFF else { return u }
            guard offset + 1 < bytes.count else { return 0xFFFD }
            let low = unit(at: offset)
            guard low >= 0xDC00, low <= 0xDFFF else { return 0xFFFD }
            offset += 2
            pending = low
            return u
        case .utf8:
            let b0 = UInt32(bytes[offset])
            var c: UInt32
            var n: Int
            switch b0 {
            case 0..<0x80: c = b0; n = 1
            case 0x80..<0xC0: c = 0xFFFD; n = 1
            case 0xC0..<0xE0: c = b0 & 0x1F; n = 2
            case 0xE0..<0xF0: c = b0 & 0x0F; n = 3
            default: c = b0 & 0x07; n = 4
            }
            // Validated UTF-8: a cut-off sequence only at a caller's mistake; stop there.
            guard offset + n <= bytes.count else {
                offset = bytes.count
                return 0xFFFD
            }
            var k = 1
            while k < n {
                c = c << 6 | (UInt32(bytes[offset + k]) & 0x3F)
                k += 1
            }
            offset += n
            guard c >= 0x10000 else { return UInt16(truncatingIfNeeded: c) }
            let v = c - 0x10000
            pending = UInt16(truncatingIfNeeded: 0xDC00 + (v & 0x3FF))
            return UInt16(truncatingIfNeeded: 0xD800 + (v >> 10))
        }
    }

    @inline(__always)
    private func unit(at k: Int) -> UInt16 {
        UInt16(text.bytes[k]) << 8 | UInt16(text.bytes[k + 1])
    }
}
