/// Byte-order-mark detection and conversion of UTF-16/UTF-32 text to UTF-8, for
/// the text formats that are not XML (libxml2 decodes XML itself).
package enum TextDecoding {
    /// A Unicode encoding form.
    package enum Encoding: Sendable, Equatable {
        case utf8, utf16BE, utf16LE, utf32BE, utf32LE
    }

    /// The encoding a byte-order mark announces and the mark's length.
    package static func detectBOM(_ bytes: UnsafeRawBufferPointer) -> (encoding: Encoding, bomLength: Int)? {
        let n = bytes.count
        if n >= 4, bytes[0] == 0x00, bytes[1] == 0x00, bytes[2] == 0xFE, bytes[3] == 0xFF { return (.utf32BE, 4) }
        if n >= 4, bytes[0] == 0xFF, bytes[1] == 0xFE, bytes[2] == 0x00, bytes[3] == 0x00 { return (.utf32LE, 4) }
        if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
        if n >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 2) }
        if n >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 2) }
        return nil
    }

    /// What becomes of UTF-16 and UTF-32 text that is not well formed.
    package enum Mode: Sendable {
        /// Ill-formed code units become U+FFFD (for sniffing and checks that
        /// only look).
        case replacing
        /// A lone surrogate (or a UTF-32 value that is no scalar) is an
        /// `.encoding` error at its line and column in the decoded text, since
        /// a Swift string cannot hold it and replacing it would lose it.
        case strict
    }

    /// The text as UTF-8 without a BOM; input without a BOM is returned as it is.
    /// Only `.strict` throws.
    package static func decodeToUTF8(_ bytes: UnsafeRawBufferPointer, mode: Mode) throws -> [UInt8] {
        guard let (encoding, bom) = detectBOM(bytes) else { return Array(bytes) }
        let body = UnsafeRawBufferPointer(rebasing: bytes[bom...])
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var line = 1, lineStart = 0
        func illFormed(_ what: String) throws -> Unicode.Scalar {
            guard mode == .replacing else {
                throw PlistError(.encoding, what, at: .text(line: line, column: out.count - lineStart + 1))
            }
            return "\u{FFFD}"
        }
        func append(_ scalar: Unicode.Scalar) {
            UTF8.encode(scalar) { out.append($0) }
            if scalar == "\n" {
                line += 1
                lineStart = out.count
            }
        }
        switch encoding {
        case .utf8:
            out.append(contentsOf: body)
        case .utf16BE, .utf16LE:
            let big = encoding == .utf16BE
            var i = 0
            func unit(_ at: Int) -> UInt16 {
                big ? UInt16(body[at]) << 8 | UInt16(body[at + 1]) : UInt16(body[at + 1]) << 8 | UInt16(body[at])
            }
            while i + 1 < body.count {
                let u = unit(i)
                i += 2
                switch u {
                case 0xD800...0xDBFF:
                    guard i + 1 < body.count, case 0xDC00...0xDFFF = unit(i) else {
                        append(try illFormed("lone UTF-16 surrogate 0x\(String(u, radix: 16, uppercase: true))"))
                        continue
                    }
                    let low = unit(i)
                    i += 2
                    let value = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    append(Unicode.Scalar(value) ?? "\u{FFFD}")
                case 0xDC00...0xDFFF:
                    append(try illFormed("lone UTF-16 surrogate 0x\(String(u, radix: 16, uppercase: true))"))
                default:
                    append(Unicode.Scalar(u) ?? "\u{FFFD}")
                }
            }
        case .utf32BE, .utf32LE:
            let big = encoding == .utf32BE
            var i = 0
            while i + 3 < body.count {
                let b0 = UInt32(body[i]), b1 = UInt32(body[i + 1]), b2 = UInt32(body[i + 2]), b3 = UInt32(body[i + 3])
                let v = big ? (b0 << 24 | b1 << 16 | b2 << 8 | b3) : (b3 << 24 | b2 << 16 | b1 << 8 | b0)
                append(try Unicode.Scalar(v) ?? illFormed("0x\(String(v, radix: 16, uppercase: true)) is not a Unicode scalar"))
                i += 4
            }
        }
        return out
    }

    /// The text as UTF-8 without a BOM, ill-formed code units replaced by U+FFFD.
    package static func decodeToUTF8(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        (try? decodeToUTF8(bytes, mode: .replacing)) ?? []
    }
}
