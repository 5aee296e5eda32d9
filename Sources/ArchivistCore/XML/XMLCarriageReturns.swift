/// XML 1.0 makes parsers turn CR and CRLF into LF (§2.11), so libxml2 would read
/// a `<string>` holding "a\r\nb" as "a\nb". CoreFoundation's own parser keeps the
/// CR, and Foundation writes it raw. To read such files as Apple does, raw CRs
/// inside the text of `<string>` and `<key>` elements are rewritten as `&#13;`
/// (which XML keeps) before libxml2 sees the bytes. Only 8-bit input that holds
/// a CR at all is copied; everything else passes through untouched.
enum XMLCarriageReturns {
    /// The input with CRs in string and key text escaped, or nil when there is
    /// nothing to change.
    static func protect(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.contains(0x0D) else { return nil }
        if let bom = TextDecoding.detectBOM(bytes), bom.encoding != .utf8 { return nil }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        var changed = false
        var inText = false
        let n = bytes.count
        var i = 0
        func starts(_ s: StaticString, at k: Int) -> Bool {
            s.withUTF8Buffer { lit in
                guard k + lit.count <= n else { return false }
                for j in 0..<lit.count where bytes[k + j] != lit[j] { return false }
                return true
            }
        }
        /// Copies up to and including `terminator`, or to the end.
        func copy(through terminator: StaticString) {
            while i < n {
                if starts(terminator, at: i) {
                    let len = terminator.utf8CodeUnitCount
                    out.append(contentsOf: bytes[i..<(i + len)])
                    i += len
                    return
                }
                out.append(bytes[i]); i += 1
            }
        }
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "<") {
                if starts("<!--", at: i) {
                    copy(through: "-->")
                } else if starts("<![CDATA[", at: i) {
                    while i < n, !starts("]]>", at: i) {
                        if bytes[i] == 0x0D, inText {
                            out.append(contentsOf: "]]>&#13;<![CDATA[".utf8); changed = true
                        } else {
                            out.append(bytes[i])
                        }
                        i += 1
                    }
                    copy(through: "]]>")
                } else if starts("<?", at: i) {
                    copy(through: "?>")
                } else if starts("<!", at: i) {
                    // A declaration such as DOCTYPE, with an optional [internal subset].
                    var depth = 0
                    var quote: UInt8 = 0
                    while i < n {
                        let c = bytes[i]
                        out.append(c); i += 1
                        if quote != 0 { if c == quote { quote = 0 }; continue }
                        if c == 0x22 || c == 0x27 { quote = c }
                        else if c == UInt8(ascii: "[") { depth += 1 }
                        else if c == UInt8(ascii: "]") { depth -= 1 }
                        else if c == UInt8(ascii: ">"), depth <= 0 { break }
                    }
                } else {
                    // A tag: note whether it opens string or key text.
                    let start = i
                    var quote: UInt8 = 0
                    while i < n {
                        let c = bytes[i]
                        out.append(c); i += 1
                        if quote != 0 { if c == quote { quote = 0 }; continue }
                        if c == 0x22 || c == 0x27 { quote = c } else if c == UInt8(ascii: ">") { break }
                    }
                    let selfClosing = i - start >= 2 && bytes[i - 2] == UInt8(ascii: "/")
                    inText = !selfClosing && (starts("<string>", at: start) || starts("<string ", at: start)
                        || starts("<key>", at: start) || starts("<key ", at: start))
                }
            } else if b == 0x0D, inText {
                out.append(contentsOf: "&#13;".utf8)
                changed = true
                i += 1
            } else {
                out.append(b)
                i += 1
            }
        }
        return changed ? out : nil
    }
}
