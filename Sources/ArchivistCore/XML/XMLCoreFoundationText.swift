/// CoreFoundation's XML parser reads more than XML 1.0, and Foundation writes
/// some of it: libxml2 would change or refuse it. Before libxml2 reads an
/// input (as UTF-8), this pass rewrites what the two read differently, so
/// that libxml2 gives CoreFoundation's tree:
///
/// - A CR in `<string>` or `<key>` text becomes `&#13;`: XML 1.0 turns CR and
///   CRLF into LF (§2.11); CoreFoundation keeps the CR, and writes it raw.
/// - In string and key text, a character XML 1.0 forbids that CoreFoundation
///   reads, raw or as a character reference (a C0 control other than tab, LF
///   and CR, NUL included; U+FFFE; U+FFFF; also `&#;`, which it reads as NUL),
///   becomes the marker U+FDD0 (a noncharacter XML allows and property lists
///   do not use) and one ASCII letter; a U+FDD0 of the input is
///   marked too. `restore(_:)` puts the characters back in the text libxml2
///   hands over.
/// - In a comment or `<data>` text, such a control becomes `!`: CoreFoundation
///   skips comments, and its base64 decoder skips a control as it skips `!`.
/// - Whitespace before the XML declaration (CoreFoundation skips it; libxml2
///   refuses the declaration then) goes after the declaration, so the lines
///   of everything after it keep their numbers.
///
/// Controls anywhere else stay, and libxml2 refuses them as CoreFoundation does.
enum XMLCoreFoundationText {
    /// The rewritten input, and whether any text holds markers.
    struct Rewritten {
        var bytes: [UInt8]
        var marked: Bool
    }

    /// The 8-bit input (UTF-8 unless its declaration names another
    /// encoding) rewritten, or nil when there is nothing to change. The marker
    /// is written as the reference `&#xFDD0;`, so it holds in any encoding.
    static func rewrite(_ bytes: UnsafeRawBufferPointer) -> Rewritten? {
        guard needsRewrite(bytes) else { return nil }
        let declared = XMLEncodingCheck.declaredEncoding(Array(bytes.prefix(200)))?.uppercased()
        var w = Rewriter(bytes, utf8: declared == nil || declared == "UTF-8" || declared == "UTF8")
        w.run()
        return w.changed ? Rewritten(bytes: w.out, marked: w.marked) : nil
    }

    /// One cheap pass: whether the input holds anything `rewrite` changes.
    static func needsRewrite(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        var k = 0
        if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { k = 3 }
        if k < n, isSpace(bytes[k]) { return true }
        while k < n {
            let b = bytes[k]
            if b < 0x20, b != 0x09, b != 0x0A { return true }
            if b == 0xEF { return true }
            if b == UInt8(ascii: "&"), k + 1 < n, bytes[k + 1] == UInt8(ascii: "#") { return true }
            k += 1
        }
        return false
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// The letter after the marker for a character CoreFoundation reads and XML
    /// forbids (or the marker itself), nil for any other character.
    static func letter(for scalar: UInt32) -> UInt8? {
        switch scalar {
        case 0x09, 0x0A, 0x0D: return nil
        case 0..<0x20: return 0x40 + UInt8(scalar)
        case 0xFFFE: return UInt8(ascii: "a")
        case 0xFFFF: return UInt8(ascii: "b")
        case 0xFDD0: return UInt8(ascii: "c")
        default: return nil
        }
    }

    /// Replaces each marker and its letter in `text` with the character it stands for.
    static func restore(_ text: inout [UInt8]) {
        let n = text.count
        var r = 0
        var w = 0
        while r < n {
            if text[r] == 0xEF, r + 3 < n, text[r + 1] == 0xB7, text[r + 2] == 0x90 {
                let l = text[r + 3]
                switch l {
                case 0x40..<0x60: text[w] = l - 0x40; w += 1
                case UInt8(ascii: "a"): text[w] = 0xEF; text[w + 1] = 0xBF; text[w + 2] = 0xBE; w += 3
                case UInt8(ascii: "b"): text[w] = 0xEF; text[w + 1] = 0xBF; text[w + 2] = 0xBF; w += 3
                default: text[w] = 0xEF; text[w + 1] = 0xB7; text[w + 2] = 0x90; w += 3
                }
                r += 4
                continue
            }
            text[w] = text[r]
            w += 1
            r += 1
        }
        text.removeLast(n - w)
    }
}
