/// Finds an XML declaration whose `encoding` contradicts the bytes: a file that
/// declares UTF-16 or UTF-32 but is 8-bit text, or that declares UTF-8 (or
/// ASCII) but starts with a UTF-16/UTF-32 byte-order mark.
enum XMLEncodingCheck {
    /// How many bytes of the (8-bit) head the declaration is looked for in.
    static let headLength = 200

    /// A message describing the mismatch, or nil when the declaration agrees.
    static func mismatch(_ bytes: UnsafeRawBufferPointer) -> String? {
        let bom = TextDecoding.detectBOM(bytes)
        let wide = bom.map { $0.encoding != .utf8 } ?? false
            || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
        guard wide else {
            // Every 8-bit file is asked (each XML plist read): its head is
            // looked at in place, and a declaration naming an 8-bit
            // encoding in ASCII ends it without a string made.
            let head = UnsafeRawBufferPointer(rebasing: bytes[..<min(bytes.count, headLength)])
            guard let value = encodingValue(in: head) else { return nil }
            if let wideName = declaresWide(ascii: UnsafeRawBufferPointer(rebasing: head[value])), !wideName { return nil }
            let declared = String(decoding: head[value], as: UTF8.self)
            guard declaresWide(declared) else { return nil }
            return "the XML declaration says encoding=\"\(declared)\" but the bytes are 8-bit text"
        }
        // The declaration of a wide file is found in its text decoded.
        let head = Array(TextDecoding.decodeToUTF8(UnsafeRawBufferPointer(rebasing: bytes[..<min(bytes.count, 2 * headLength)])).prefix(headLength))
        guard let declared = declaredEncoding(head), !declaresWide(declared) else { return nil }
        return "the XML declaration says encoding=\"\(declared)\" but the file is \(bom.map { "\($0.encoding)" } ?? "UTF-16/32") text"
    }

    /// The `encoding` of the XML declaration at the start of 8-bit `head`.
    static func declaredEncoding(_ head: [UInt8]) -> String? {
        head.withUnsafeBytes { raw in
            encodingValue(in: raw).map { String(decoding: raw[$0], as: UTF8.self) }
        }
    }

    /// Where the value of the declaration's `encoding` is in `head`: after an
    /// optional UTF-8 byte-order mark and whitespace (CoreFoundation allows
    /// it), `<?xml`, then up to the first `>`, the first `encoding`, any
    /// spaces and `=` after it, and a quote; the value ends at the same quote
    /// (or where the declaration does).
    static func encodingValue(in head: UnsafeRawBufferPointer) -> Range<Int>? {
        let n = head.count
        var i = 0
        if n >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        while i < n, head[i] == 0x20 || head[i] == 0x09 || head[i] == 0x0A || head[i] == 0x0D { i += 1 }
        guard matches("<?xml", in: head, at: i) else { return nil }
        var end = i
        while end < n, head[end] != UInt8(ascii: ">") { end += 1 }
        let needle: StaticString = "encoding"
        while i + needle.utf8CodeUnitCount <= end {
            if matches(needle, in: head, at: i) {
                var k = i + needle.utf8CodeUnitCount
                while k < end, head[k] == 0x20 || head[k] == UInt8(ascii: "=") { k += 1 }
                guard k < end, head[k] == UInt8(ascii: "\"") || head[k] == UInt8(ascii: "'") else { return nil }
                let quote = head[k]
                var stop = k + 1
                while stop < end, head[stop] != quote { stop += 1 }
                return (k + 1)..<stop
            }
            i += 1
        }
        return nil
    }

    /// True when `text` starts at `i` in `head`.
    private static func matches(_ text: StaticString, in head: UnsafeRawBufferPointer, at i: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= head.count else { return false }
        let start = text.utf8Start
        for k in 0..<count where head[i + k] != start[k] { return false }
        return true
    }

    /// The names of 16- and 32-bit encodings start with these (compared
    /// without case).
    private static let wideNames: [StaticString] = ["UTF-16", "UTF16", "UTF-32", "UTF32", "UCS"]

    /// Whether a declared encoding names a 16- or 32-bit one.
    static func declaresWide(_ declared: String) -> Bool {
        let d = declared.uppercased()
        return wideNames.contains { d.hasPrefix($0.description) }
    }

    /// `declaresWide` of an ASCII value, read in place; nil when the value
    /// is not ASCII (whose upper case only `String` knows: `ſ` is `S`).
    static func declaresWide(ascii value: UnsafeRawBufferPointer) -> Bool? {
        for b in value where b >= 0x80 { return nil }
        return wideNames.contains { name in
            let count = name.utf8CodeUnitCount
            guard value.count >= count else { return false }
            let start = name.utf8Start
            for k in 0..<count {
                var b = value[k]
                if b >= UInt8(ascii: "a"), b <= UInt8(ascii: "z") { b -= 0x20 }
                if b != start[k] { return false }
            }
            return true
        }
    }
}
