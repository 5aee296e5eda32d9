/// libxml2 (2.9, as Debian ships it) compares each attribute of an element with
/// every attribute before it, so one element with tens of thousands of
/// attributes takes seconds. Property-list elements carry none (`<plist
/// version>` aside; CoreFoundation skips whatever a tag holds), so before
/// libxml2 reads an input, one linear pass refuses an element with more than
/// `maxAttributes`, at its line and column.
enum XMLAttributeCheck {
    /// More attributes than any property list has, few enough for libxml2 to
    /// check in a millisecond.
    static let maxAttributes = 1024

    /// Throws for the first start tag with more than `maxAttributes` attributes
    /// (each `=` outside quotes in a tag counts as one). Comments, CDATA
    /// sections, processing instructions and the DOCTYPE are skipped. UTF-16 and
    /// UTF-32 input is checked as UTF-8.
    static func check(_ bytes: UnsafeRawBufferPointer) throws {
        if let bom = TextDecoding.detectBOM(bytes), bom.encoding != .utf8 {
            let utf8 = TextDecoding.decodeToUTF8(bytes)
            try utf8.withUnsafeBytes { try scan($0) }
        } else {
            try scan(bytes)
        }
    }

    private static func scan(_ b: UnsafeRawBufferPointer) throws {
        let n = b.count
        var i = 0
        var line = 1
        var lineStart = 0
        func starts(_ s: StaticString, at k: Int) -> Bool {
            s.withUTF8Buffer { lit in
                guard lit.count <= n - k else { return false }
                for j in 0..<lit.count where b[k + j] != lit[j] { return false }
                return true
            }
        }
        /// Moves `i` past `terminator` (or to the end), counting lines.
        func skip(through terminator: StaticString) {
            while i < n, !starts(terminator, at: i) { advance() }
            if i < n { i += terminator.utf8CodeUnitCount }
        }
        func advance() {
            if b[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        while i < n {
            guard b[i] == UInt8(ascii: "<") else { advance(); continue }
            if starts("<!--", at: i) { skip(through: "-->"); continue }
            if starts("<![CDATA[", at: i) { skip(through: "]]>"); continue }
            if starts("<?", at: i) { skip(through: "?>"); continue }
            let tagLine = line, tagColumn = i - lineStart + 1
            let declaration = starts("<!", at: i)
            advance()
            // To the `>` that ends the tag: outside quotes, and for a DOCTYPE
            // outside its internal subset's brackets.
            var quote: UInt8 = 0
            var brackets = 0
            var attributes = 0
            while i < n {
                let c = b[i]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                } else if declaration, c == UInt8(ascii: "[") {
                    brackets += 1
                } else if declaration, c == UInt8(ascii: "]") {
                    brackets -= 1
                } else if c == UInt8(ascii: ">"), brackets <= 0 {
                    break
                } else if !declaration, c == UInt8(ascii: "=") {
                    attributes += 1
                    if attributes > maxAttributes {
                        throw PlistError(.limitExceeded, "an element with more than \(maxAttributes) attributes (property-list elements have none)",
                                         at: .text(line: tagLine, column: tagColumn))
                    }
                }
                advance()
            }
            if i < n { advance() }
        }
    }
}
