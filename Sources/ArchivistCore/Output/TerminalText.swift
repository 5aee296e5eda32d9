/// Text made safe to show on a terminal: every control character (C0
/// U+0000–U+001F, DEL U+007F and C1 U+0080–U+009F) written as a visible escape,
/// in the notation `dump` uses inside strings: `\n`, `\r`, `\t`, and `\u{1b}`
/// (lower-case hexadecimal) for the others. A name from a file (a class, a key,
/// a file name) then cannot clear the screen, set the clipboard (OSC 52) or
/// forge a line of output.
///
/// A file name that is not UTF-8 keeps its bytes as the code points
/// U+10FF80–U+10FFFF (see Archivist's file input and output); those are
/// shown as `\xHH`, the byte.
///
/// Backslashes are left as they are, so escaping is idempotent: text escaped
/// twice (a formatted error printed by the console) reads as escaped once.
/// Every text output of the command line goes through here; machine formats
/// (JSON, property lists) keep their own escaping rules.
public enum TerminalText {
    /// `text` with its control characters escaped; with `keepingLayout`, line
    /// feeds and tabs stay (for a block of lines whose names were escaped
    /// when it was made). Text without control characters is returned as it is.
    ///
    /// - Parameters:
    ///   - text: The text to show.
    ///   - keepingLayout: Keep line feeds and tabs as they are.
    /// - Returns: The text with every other control character escaped.
    public static func escaped(_ text: String, keepingLayout: Bool = false) -> String {
        var copy = text
        // One pass over the bytes decides for most text, which needs nothing.
        if copy.withUTF8({ !mayChange($0, keepingLayout: keepingLayout) }) { return text }
        let text = showingRawBytes(text)
        copy = text
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        copy.withUTF8 { bytes in
            var escaper = Escaper(keepingLayout: keepingLayout)
            escaper.escape(bytes, into: &out)
            escaper.finish(into: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// False when `bytes` (whole UTF-8 text) hold no control character, no
    /// C1 lead byte (0xC2) and no lead byte of the raw-byte code points
    /// (0xF4): `escaped` returns such text as it is.
    private static func mayChange(_ bytes: UnsafeBufferPointer<UInt8>, keepingLayout: Bool) -> Bool {
        let start = skipPlainWords(bytes, from: 0, keepingLayout: keepingLayout)
        let rest = UnsafeBufferPointer(rebasing: bytes[start...])
        guard rest.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xF4 }) else { return false }
        // A byte to look at: decide on the whole text, as `escape` would.
        var escaper = Escaper(keepingLayout: keepingLayout)
        return bytes.contains(0xF4) || escaper.contains(bytes)
    }

    /// The first position from `k`, in steps of 8 bytes, whose 8 bytes hold
    /// a byte `escaped` looks at (a control character other than a line
    /// feed or tab kept by `keepingLayout`, 0x7F, 0xC2 or 0xF4), or the last
    /// 8 of `bytes` and after: most text is passed over 8 bytes at a time.
    @inline(__always)
    static func skipPlainWords(_ bytes: UnsafeBufferPointer<UInt8>, from k: Int, keepingLayout: Bool) -> Int {
        guard let base = bytes.baseAddress else { return k }
        let ones = WordBytes.ones, lows = WordBytes.lows, highs = WordBytes.highs
        var k = k
        while bytes.count &- k >= 8 {
            let w = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
            let flagged: UInt64
            if w & highs == 0 {
                // Eight ASCII bytes (most text), where no sum below carries: a byte below 0x20
                // stays below 0x80 plus 0x60; 0x7F reaches it plus 1; a byte other than a line
                // feed reaches it plus 0x7F once the line feed's bits are taken out.
                var control = ~(w &+ 0x60 &* ones) & highs
                if keepingLayout { control &= ((w ^ 0x0A &* ones) &+ lows) & ((w ^ 0x09 &* ones) &+ lows) }
                flagged = control | (w &+ ones) & highs
            } else {
                var control = WordBytes.control(w)
                if keepingLayout { control &= ~(WordBytes.equal(w, 0x0A) | WordBytes.equal(w, 0x09)) }
                flagged = control | WordBytes.equal(w, 0x7F) | WordBytes.equal(w, 0xC2) | WordBytes.equal(w, 0xF4)
            }
            if flagged != 0 { break }
            k &+= 8
        }
        return k
    }

    /// `text` with the code points U+10FF80–U+10FFFF, which stand for the
    /// bytes of a file name that is not UTF-8, shown as `\xHH` (the byte).
    static func showingRawBytes(_ text: String) -> String {
        guard SystemPath.mayHoldRawBytes(text) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x10FF80 {
                let byte = String(scalar.value - 0x10FF00, radix: 16, uppercase: true)
                out += "\\x" + byte
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// True for the Unicode scalars `escaped` writes as escapes.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    /// The escape of a control scalar: `\n`, `\r`, `\t` or `\u{XX}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: return "\\u{\(String(scalar.value, radix: 16))}"
        }
    }

    /// Escapes UTF-8 that arrives in pieces (a stream to standard output): a
    /// C1 character's two bytes may be split between pieces, so the first
    /// one waits for the next piece. Linear in the bytes.
    package struct Escaper {
        /// Keep line feeds and tabs.
        package let keepingLayout: Bool
        /// The previous piece ended with 0xC2, the lead byte of U+0080–U+00BF.
        private var pendingLead = false

        /// An escaper; with `keepingLayout`, line feeds and tabs pass.
        package init(keepingLayout: Bool) {
            self.keepingLayout = keepingLayout
        }

        /// True when `bytes` (whole UTF-8 text) hold a character `escape` would change.
        mutating func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var previous: UInt8 = 0
            for b in bytes {
                if isControlByte(b) || (previous == 0xC2 && b >= 0x80 && b <= 0x9F) { return true }
                previous = b
            }
            return false
        }

        @inline(__always)
        private func isControlByte(_ b: UInt8) -> Bool {
            (b < 0x20 || b == 0x7F) && !(keepingLayout && (b == 0x0A || b == 0x09))
        }

        /// Appends `bytes` to `out`, control characters escaped.
        package mutating func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
            var runStart = 0
            var k = 0
            if pendingLead, let first = bytes.first {
                pendingLead = false
                if first >= 0x80, first <= 0x9F {
                    Self.appendHex(UInt32(first), to: &out)
                    k = 1
                } else {
                    out.append(0xC2)
                }
                runStart = k
            }
            while k < bytes.count {
                k = TerminalText.skipPlainWords(bytes, from: k, keepingLayout: keepingLayout)
                guard k < bytes.count else { break }
                let b = bytes[k]
                if isControlByte(b) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<k]))
                    out.append(contentsOf: TerminalText.escape(Unicode.Scalar(b)).utf8)
                    k += 1
                    runStart = k
                } else if b == 0xC2 {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<k]))
                    if k + 1 == bytes.count {
                        pendingLead = true
                        return
                    }
                    let next = bytes[k + 1]
                    if next >= 0x80, next <= 0x9F {
                        Self.appendHex(UInt32(next), to: &out)
                        k += 2
                    } else {
                        out.append(0xC2)
                        k += 1
                    }
                    runStart = k
                } else {
                    k += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<k]))
        }

        /// Appends a lead byte the last piece left waiting.
        package mutating func finish(into out: inout [UInt8]) {
            if pendingLead { out.append(0xC2) }
            pendingLead = false
        }

        private static func appendHex(_ value: UInt32, to out: inout [UInt8]) {
            out.append(contentsOf: "\\u{\(String(value, radix: 16))}".utf8)
        }
    }
}
