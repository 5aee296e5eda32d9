/// One linear pass over an XML input before libxml2 reads it, for two things
/// libxml2 cannot do as CoreFoundation does (and to note whether the DOCTYPE
/// declares entities, which keeps XML_PARSE_HUGE off):
///
/// - libxml2 (2.9, as Debian ships it) compares each attribute of an element
///   with every attribute before it, so one element with tens of thousands of
///   attributes takes seconds. Property-list elements carry none (`<plist
///   version>` aside; CoreFoundation skips whatever a tag holds), so an element
///   with more than `maxAttributes` is refused, at its line and column.
/// - CoreFoundation decodes the raw text of a `<data>` element, up to the next
///   `<`: an entity or character reference is not replaced first (its letters
///   are base64 to it), and markup other than `</data>` (a comment, a CDATA
///   section) is refused. libxml2 hands over replaced text only, so the pass
///   keeps each `<data>` element's raw text.
struct XMLPrescan {
    /// More attributes than any property list has, few enough for libxml2 to
    /// check in a millisecond.
    static let maxAttributes = 1024

    /// UTF-16 and UTF-32 input transcoded to UTF-8 for the scan; nil when the
    /// input was scanned as it is.
    private let transcoded: [UInt8]?
    /// The raw text of each `<data>` element in document order, as a range of
    /// the scanned bytes; nil for one whose text ends in markup other than
    /// `</data`.
    private(set) var dataTexts: [Range<Int>?] = []
    /// The DOCTYPE's internal subset declares an entity (`<!ENTITY`).
    private(set) var declaresEntities = false

    /// Scans `bytes`; throws for the first start tag with more than
    /// `maxAttributes` attributes (each `=` outside quotes in a tag counts as
    /// one). Comments, CDATA sections, processing instructions and the DOCTYPE
    /// are skipped.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        var texts: [Range<Int>?] = []
        var entities = false
        if let bom = TextDecoding.detectBOM(bytes), bom.encoding != .utf8 {
            let utf8 = TextDecoding.decodeToUTF8(bytes)
            try utf8.withUnsafeBytes { try Self.scan($0, dataTexts: &texts, entities: &entities) }
            transcoded = utf8
        } else {
            try Self.scan(bytes, dataTexts: &texts, entities: &entities)
            transcoded = nil
        }
        dataTexts = texts
        declaresEntities = entities
    }

    /// The raw text of the `index`th `<data>` element of `source` (the bytes
    /// given to `init`): `.some(nil)` when CoreFoundation refuses it, nil when
    /// the pass found no such element.
    func dataText<R>(_ index: Int, in source: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R? {
        guard index < dataTexts.count else { return nil }
        guard let range = dataTexts[index] else { return try body(nil) }
        if let transcoded {
            return try transcoded.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        guard range.upperBound <= source.count else { return nil }
        return try body(UnsafeRawBufferPointer(rebasing: source[range]))
    }

    /// A byte that ends an element name in a tag.
    private static func isNameEnd(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ">") || c == UInt8(ascii: "/") || c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }

    private static func scan(_ b: UnsafeRawBufferPointer, dataTexts: inout [Range<Int>?], entities: inout Bool) throws {
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
        func advance() {
            if b[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        /// Moves `i` past `terminator` (or to the end), counting lines.
        func skip(through terminator: StaticString) {
            while i < n, !starts(terminator, at: i) { advance() }
            if i < n { i += terminator.utf8CodeUnitCount }
        }
        while i < n {
            guard b[i] == UInt8(ascii: "<") else { advance(); continue }
            if starts("<!--", at: i) { skip(through: "-->"); continue }
            if starts("<![CDATA[", at: i) { skip(through: "]]>"); continue }
            if starts("<?", at: i) { skip(through: "?>"); continue }
            let tagLine = line, tagColumn = i - lineStart + 1
            let declaration = starts("<!", at: i)
            // `<data` followed by the end of its name.
            let isData = starts("<data", at: i) && i + 5 < n && isNameEnd(b[i + 5])
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
                } else if declaration, brackets > 0, c == UInt8(ascii: "<"), starts("<!ENTITY", at: i) {
                    entities = true
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
            guard i < n else { return }
            let selfClosing = b[i - 1] == UInt8(ascii: "/")
            advance()
            guard isData else { continue }
            if selfClosing {
                dataTexts.append(i..<i)
                continue
            }
            let start = i
            while i < n, b[i] != UInt8(ascii: "<") { advance() }
            dataTexts.append(starts("</data", at: i) ? start..<i : nil)
        }
    }
}
