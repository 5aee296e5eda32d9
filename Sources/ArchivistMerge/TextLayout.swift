import ArchivistCore

/// How OURS' text is laid out beyond its format, so that the merge result
/// keeps it: a `.strings` file (a top-level dictionary written without
/// braces), JSON on several lines, and UTF-16 text (with its byte order mark).
package struct TextLayout: Sendable, Equatable {
    /// UTF-16 text: little-endian (`FF FE`) or big-endian (`FE FF`).
    package enum Encoding: Sendable, Equatable {
        case utf8, utf16LittleEndian, utf16BigEndian
    }

    package var encoding: Encoding = .utf8
    /// OpenStep: the top-level dictionary written without braces, as `.strings` files are.
    package var stringsFile = false
    /// JSON: on several lines.
    package var pretty = false

    /// The layout of a file read as `format`.
    package init(of bytes: UnsafeRawBufferPointer, format: PlistFormat) {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { encoding = .utf16LittleEndian }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { encoding = .utf16BigEndian }
        guard format == .openstep || format == .json else { return }
        let text = Self.utf8(bytes, encoding)
        if format == .json {
            pretty = text.dropLast().contains(0x0A)
        } else {
            stringsFile = Self.firstSignificant(text) != UInt8(ascii: "{")
        }
    }

    /// The options a writer takes for this layout.
    package var options: WriteOptions { WriteOptions(keepKeyOrder: true, pretty: pretty) }

    /// A writer's UTF-8 output as this layout has it: a `.strings` file
    /// without the outer braces (and their indent). Still UTF-8 (`encode`).
    package func shape(_ text: [UInt8]) -> [UInt8] {
        stringsFile ? Self.unbraced(text) : text
    }

    /// UTF-8 text in the file's encoding.
    package func encode(_ text: [UInt8]) -> [UInt8] {
        switch encoding {
        case .utf8: return text
        case .utf16LittleEndian, .utf16BigEndian:
            var out: [UInt8] = encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
            let units = String(decoding: text, as: UTF8.self).utf16
            out.reserveCapacity(2 + units.count * 2)
            for u in units {
                let (high, low) = (UInt8(truncatingIfNeeded: u >> 8), UInt8(truncatingIfNeeded: u))
                if encoding == .utf16LittleEndian { out.append(low); out.append(high) } else { out.append(high); out.append(low) }
            }
            return out
        }
    }

    /// `{\n    a = b;\n}\n` as `a = b;\n`.
    static func unbraced(_ text: [UInt8]) -> [UInt8] {
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.count >= 2, lines.first?.elementsEqual("{".utf8) == true else { return text }
        var end = lines.count - 1
        while end > 0, lines[end].isEmpty { end -= 1 }
        guard lines[end].elementsEqual("}".utf8) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        for line in lines[1..<end] {
            var body = line[...]
            var indent = 0
            while indent < 4, body.first == 0x20 { body = body.dropFirst(); indent += 1 }
            if indent < 4, body.first == 0x09 { body = body.dropFirst() }
            out.append(contentsOf: body)
            out.append(0x0A)
        }
        return out
    }

    static func utf8(_ bytes: UnsafeRawBufferPointer, _ encoding: Encoding) -> [UInt8] {
        switch encoding {
        case .utf8: return Array(bytes)
        case .utf16LittleEndian, .utf16BigEndian:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 2
            while i + 1 < bytes.count {
                units.append(encoding == .utf16LittleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return Array(String(decoding: units, as: UTF16.self).utf8)
        }
    }

    /// The first byte that is not white space or inside a comment.
    static func firstSignificant(_ text: [UInt8]) -> UInt8? {
        var i = text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < text.count {
            let c = text[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                i += 1
            } else if c == UInt8(ascii: "/"), i + 1 < text.count, text[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i + 1 < text.count, !(text[i] == UInt8(ascii: "*") && text[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i += 2
            } else if c == UInt8(ascii: "/"), i + 1 < text.count, text[i + 1] == UInt8(ascii: "/") {
                while i < text.count, text[i] != 0x0A { i += 1 }
            } else {
                return c
            }
        }
        return nil
    }
}
