/// The text the non-XML text readers (JSON, OpenStep) scan: the input as UTF-8
/// without a byte-order mark.
///
/// A UTF-8 BOM is skipped in place; UTF-16 and UTF-32 text (which always carries
/// a BOM here) is transcoded to UTF-8 first, so positions in errors count lines of
/// the decoded text and columns in its UTF-8 bytes.
enum TextInput {
    /// Calls `body` with the input's UTF-8 text. With `detectsUnmarkedUTF16or32`,
    /// UTF-16 and UTF-32 without a BOM are recognised as JSON readers do
    /// (RFC 4627 §3: the NUL bytes around the first two ASCII characters).
    static func withUTF8Text<R>(_ buffer: UnsafeRawBufferPointer, limits: Limits, detectsUnmarkedUTF16or32: Bool = false,
                                _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard buffer.count <= limits.maxInputSize else {
            throw PlistError(.limitExceeded, "input of \(buffer.count) bytes exceeds the limit of \(limits.maxInputSize)")
        }
        guard let (encoding, bomLength) = TextDecoding.detectBOM(buffer) else {
            guard detectsUnmarkedUTF16or32, let encoding = unmarkedEncoding(buffer) else { return try body(buffer) }
            let text = try decodeUnmarked(buffer, as: encoding, mode: .strict)
            return try text.withUnsafeBytes { try body($0) }
        }
        switch encoding {
        case .utf8:
            return try body(UnsafeRawBufferPointer(rebasing: buffer[bomLength...]))
        case .utf16BE, .utf16LE, .utf32BE, .utf32LE:
            let text = try TextDecoding.decodeToUTF8(buffer, mode: .strict)
            return try text.withUnsafeBytes { try body($0) }
        }
    }
}

extension TextInput {
    /// The UTF-16 or UTF-32 form of text without a BOM whose first two
    /// characters are ASCII, told by where the NUL bytes are; nil for anything
    /// else (UTF-8 text has no NUL bytes there).
    static func unmarkedEncoding(_ bytes: UnsafeRawBufferPointer) -> TextDecoding.Encoding? {
        let n = bytes.count
        if n >= 4 {
            let z = (bytes[0] == 0, bytes[1] == 0, bytes[2] == 0, bytes[3] == 0)
            switch z {
            case (true, true, true, false): return .utf32BE
            case (false, true, true, true): return .utf32LE
            case (true, false, true, false): return .utf16BE
            case (false, true, false, true): return .utf16LE
            default: return nil
            }
        }
        if n == 2 || n == 3 {
            if bytes[0] == 0, bytes[1] != 0 { return .utf16BE }
            if bytes[0] != 0, bytes[1] == 0 { return .utf16LE }
        }
        return nil
    }

    /// Unmarked UTF-16 or UTF-32 text as UTF-8, decoded as if it had its BOM.
    static func decodeUnmarked(_ bytes: UnsafeRawBufferPointer, as encoding: TextDecoding.Encoding) -> [UInt8] {
        (try? decodeUnmarked(bytes, as: encoding, mode: .replacing)) ?? []
    }

    /// Text without a BOM in a known encoding, as UTF-8, decoded in `mode`.
    static func decodeUnmarked(_ bytes: UnsafeRawBufferPointer, as encoding: TextDecoding.Encoding, mode: TextDecoding.Mode) throws -> [UInt8] {
        let bom: [UInt8]
        switch encoding {
        case .utf8: bom = [0xEF, 0xBB, 0xBF]
        case .utf16BE: bom = [0xFE, 0xFF]
        case .utf16LE: bom = [0xFF, 0xFE]
        case .utf32BE: bom = [0x00, 0x00, 0xFE, 0xFF]
        case .utf32LE: bom = [0xFF, 0xFE, 0x00, 0x00]
        }
        var marked = bom
        marked.append(contentsOf: bytes)
        return try marked.withUnsafeBytes { try TextDecoding.decodeToUTF8($0, mode: mode) }
    }
}

/// Validation of UTF-8 byte sequences (RFC 3629: no overlong forms, no encoded
/// surrogates, nothing above U+10FFFF).
enum UTF8Validation {
    /// The length of the well-formed sequence starting at `offset` (whose first
    /// byte is 0x80 or above), or nil when the bytes there are not UTF-8.
    @inline(__always)
    static func multibyteLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        let n = bytes.count
        let b0 = bytes[offset]
        @inline(__always) func cont(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            offset + k < n && bytes[offset + k] >= low && bytes[offset + k] <= high
        }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : nil
        case 0xE0:
            return cont(1, 0xA0) && cont(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(1) && cont(2) ? 3 : nil
        case 0xED:
            return cont(1, 0x80, 0x9F) && cont(2) ? 3 : nil
        case 0xF0:
            return cont(1, 0x90) && cont(2) && cont(3) ? 4 : nil
        case 0xF1...0xF3:
            return cont(1) && cont(2) && cont(3) ? 4 : nil
        case 0xF4:
            return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : nil
        default:
            return nil
        }
    }
}

extension TextInput {
    /// The character at `offset` as error messages name it: `'x'`, `'é' (U+00E9)`,
    /// `U+0001`, `byte 0xFF` (not UTF-8) or `end of input`.
    static func describeCharacter(in text: UnsafeRawBufferPointer, at offset: Int) -> String {
        guard offset >= 0, offset < text.count else { return "end of input" }
        let b = text[offset]
        if b >= 0x21, b <= 0x7E { return "'\(Character(Unicode.Scalar(b)))'" }
        if b == 0x20 { return "' '" }
        if b < 0x80 { return "U+" + hex(UInt32(b), width: 4) }
        guard let length = UTF8Validation.multibyteLength(in: text, at: offset) else {
            return "byte 0x" + hex(UInt32(b), width: 2)
        }
        let scalarText = String(decoding: UnsafeRawBufferPointer(rebasing: text[offset..<offset + length]), as: UTF8.self)
        let value = scalarText.unicodeScalars.first.map { $0.value } ?? 0xFFFD
        return "'\(scalarText)' (U+\(hex(value, width: 4)))"
    }

    /// Upper-case hexadecimal, zero-padded to `width` digits.
    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension TextInput {
    /// The value of an ASCII hexadecimal digit.
    @inline(__always)
    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
