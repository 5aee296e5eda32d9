/// String literals of Swift and Objective-C source that hold any text and
/// read back to the same code points: printable ASCII as it is, everything
/// else escaped, so the source is ASCII and no character can end the literal
/// or the line early.
enum SourceStringEscaping {
    /// The escapes Swift and C share: backslash, quote, line feed, carriage
    /// return and tab.
    private static func sharedEscape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\\": return "\\\\"
        case "\"": return "\\\""
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: return nil
        }
    }

    /// `"…"` with `\\`, `\"`, `\n`, `\r`, `\t`, `\0` and every other control
    /// or non-ASCII code point as `\u{…}`.
    static func swift(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if let escape = sharedEscape(scalar) {
                out += escape
                continue
            }
            switch scalar {
            case "\0": out += "\\0"
            case " "..."~": out.unicodeScalars.append(scalar)
            default: out += "\\u{" + hex(scalar.value, digits: 1) + "}"
            }
        }
        return out + "\""
    }

    /// `@"…"` with `\\`, `\"`, `\n`, `\r`, `\t`, other control characters in
    /// three octal digits, `?` after `?` as `\?` (no trigraph), and non-ASCII
    /// code points as `\uXXXX` or `\UXXXXXXXX`; C forbids those for U+0080 to
    /// U+009F, which are written as their UTF-8 bytes in octal.
    static func objc(_ text: String) -> String {
        var out = "@\""
        var afterQuestionMark = false
        for scalar in text.unicodeScalars {
            let question = scalar == "?"
            defer { afterQuestionMark = question }
            if let escape = sharedEscape(scalar) {
                out += escape
                continue
            }
            switch scalar {
            case "?" where afterQuestionMark: out += "\\?"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x80 || (0x80...0x9F).contains(scalar.value) {
                    for byte in String(scalar).utf8 { out += "\\" + octal(byte) }
                } else if scalar.value <= 0xFFFF {
                    out += "\\u" + hex(scalar.value, digits: 4)
                } else {
                    out += "\\U" + hex(scalar.value, digits: 8)
                }
            }
        }
        return out + "\""
    }

    /// Upper-case hexadecimal, at least `digits` long.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Three octal digits.
    private static func octal(_ byte: UInt8) -> String {
        let text = String(byte, radix: 8)
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }
}
