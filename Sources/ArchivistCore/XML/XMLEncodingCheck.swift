/// Finds an XML declaration whose `encoding` contradicts the bytes: a file that
/// declares UTF-16 or UTF-32 but is 8-bit text, or that declares UTF-8 (or
/// ASCII) but starts with a UTF-16/UTF-32 byte-order mark.
enum XMLEncodingCheck {
    /// A message describing the mismatch, or nil when the declaration agrees.
    static func mismatch(_ bytes: UnsafeRawBufferPointer) -> String? {
        let bom = TextDecoding.detectBOM(bytes)
        let wide = bom.map { $0.encoding != .utf8 } ?? false
            || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
        // The declaration of an 8-bit file; wide files are decoded to find theirs.
        let head: [UInt8] = wide ? Array(TextDecoding.decodeToUTF8(UnsafeRawBufferPointer(rebasing: bytes[..<min(bytes.count, 400)])).prefix(200))
                                 : Array(bytes.prefix(200))
        guard let declared = declaredEncoding(head) else { return nil }
        let d = declared.uppercased()
        let declaresWide = d.hasPrefix("UTF-16") || d.hasPrefix("UTF16") || d.hasPrefix("UTF-32") || d.hasPrefix("UTF32") || d.hasPrefix("UCS")
        if declaresWide && !wide {
            return "the XML declaration says encoding=\"\(declared)\" but the bytes are 8-bit text"
        }
        if !declaresWide && wide {
            return "the XML declaration says encoding=\"\(declared)\" but the file is \(bom.map { "\($0.encoding)" } ?? "UTF-16/32") text"
        }
        return nil
    }

    /// The `encoding` of the XML declaration at the start of 8-bit `head`.
    static func declaredEncoding(_ head: [UInt8]) -> String? {
        var h = head[...]
        if h.starts(with: [0xEF, 0xBB, 0xBF]) { h = h.dropFirst(3) }
        // CoreFoundation allows whitespace before the declaration.
        h = h.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard h.starts(with: Array("<?xml".utf8)) else { return nil }
        let decl = h.prefix { $0 != UInt8(ascii: ">") }
        let needle = Array("encoding".utf8)
        guard decl.count >= needle.count else { return nil }
        var i = decl.startIndex
        while i + needle.count <= decl.endIndex {
            if decl[i..<(i + needle.count)].elementsEqual(needle) {
                var rest = decl[(i + needle.count)...].drop { $0 == 0x20 || $0 == UInt8(ascii: "=") }
                guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
                rest = rest.dropFirst()
                return String(decoding: rest.prefix { $0 != quote }, as: UTF8.self)
            }
            i += 1
        }
        return nil
    }
}
