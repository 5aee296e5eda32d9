extension PlistValue: CustomStringConvertible {
    /// A stable one-line rendering for tests and messages, keys in stored order:
    /// `{"a": 1, "b": [true, 2.5, <data 3 bytes 0a0b0c>, 2024-02-29T13:45:59Z, UID(3)]}`.
    public var description: String {
        var out = ""
        render(into: &out)
        return out
    }

    private func render(into out: inout String) {
        switch self {
        case .string(let s): out += Self.quoted(s)
        case .integer(let i): out += i.description
        case .real(let r): out += r.width == .bits32 ? "\(r.value)f" : "\(r.value)"
        case .bool(let b): out += b ? "true" : "false"
        case .date(let d):
            out += d.description
            let frac = d.secondsSinceReferenceDate - d.secondsSinceReferenceDate.rounded(.down)
            if frac != 0, d.secondsSinceReferenceDate.isFinite { out += "+\(frac)s" }
        case .data(let bytes):
            out += "<data \(bytes.count) bytes"
            if !bytes.isEmpty {
                out += " "
                for b in bytes.prefix(16) {
                    out += String(b, radix: 16).count == 1 ? "0" + String(b, radix: 16) : String(b, radix: 16)
                }
                if bytes.count > 16 { out += "..." }
            }
            out += ">"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                item.render(into: &out)
            }
            out += "]"
        case .dictionary(let dict):
            out += "{"
            for (i, (k, v)) in dict.enumerated() {
                if i > 0 { out += ", " }
                out += Self.quoted(k) + ": "
                v.render(into: &out)
            }
            out += "}"
        case .uid(let u): out += "UID(\(u))"
        case .null: out += "null"
        }
    }

    /// True when `quoted(s)` is `s` between two double quotes: no byte of
    /// its UTF-8 is escaped (0xC2 leads U+0080–U+00BF, C1 included: such
    /// text is looked at character by character).
    package static func quotesAsItIs(_ s: String) -> Bool {
        var copy = s
        return copy.withUTF8 { bytes in
            !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 }
        }
    }

    /// A string in double quotes with `"`, `\\`, newline, CR, tab and other
    /// control characters (C0, DEL and C1, as `TerminalText` escapes them)
    /// escaped, as descriptions and dumps show strings.
    package static func quoted(_ s: String) -> String {
        // Most strings need no escapes: one scan of the UTF-8, one copy.
        if quotesAsItIs(s) {
            var out = "\""
            out.reserveCapacity(s.utf8.count + 2)
            out += s
            out += "\""
            return out
        }
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if TerminalText.isControl(scalar) {
                    out += TerminalText.escape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
