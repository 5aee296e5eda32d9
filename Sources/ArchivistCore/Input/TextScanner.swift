/// The scanning the text parsers (JSON, OpenStep) are written on: the position
/// in one UTF-8 buffer, the tree being built, quoted strings with their escapes
/// and UTF-16 surrogate escapes, UTF-8 checks, the depth, count and length
/// limits, duplicate keys and located errors. Lines and columns are computed only for an error thrown
/// or, once at the end, for the diagnostics collected by byte offset.
///
/// What differs between the formats is a `Dialect`; the grammar (containers,
/// numbers, data, whitespace and comments) stays with each parser.
struct TextScanner {
    /// The rules that differ between the text formats.
    struct Dialect {
        /// What a value over `Limits.maxValueLength` is called in the error.
        var longValueName: String
        /// Said after an invalid UTF-8 byte.
        var invalidUTF8Note: String
        /// Whether ASCII control characters may stand unescaped in a string.
        var allowsControlCharacters: Bool
        /// The letter of a UTF-16 escape (`u` in `\u0041`, `U` in `\U0041`).
        var unicodeEscapeLetter: UInt8
        /// Whether a UTF-16 escape needs exactly four hexadecimal digits (or
        /// takes up to four, none giving U+0000).
        var unicodeEscapeNeedsFourDigits: Bool
        /// The format's name, when a `//` or `/*` where something else was
        /// expected is to be named as a comment the format does not have.
        var nameForCommentErrors: String?
    }

    /// A container being filled, of a parser's own kinds: its children wait
    /// on the builder's pending stack (an array's elements, or a dictionary's
    /// entries), the offsets of its keys on `keyOffsets`.
    struct Container<Kind> {
        var kind: Kind
        /// The offset of its opening character.
        var start: Int
        var elements: PlistTreeBuilder.ArrayMark
        var members: PlistTreeBuilder.DictionaryMark
        /// Where the offsets of its keys start on `keyOffsets`.
        var keyOffsetBase: Int
        /// The key (a node) whose value is being read.
        var key = 0
        var keyOffset = 0
    }

    let text: UnsafeRawBufferPointer
    let limits: Limits
    let dialect: Dialect
    /// The read position (a byte offset into `text`).
    var i = 0
    /// Lone surrogates, duplicate keys and what a parser reports, in input order.
    private var pendingDiagnostics = TextDiagnostics()
    private var objectCount = 0
    /// Reused for strings that hold escapes.
    private var scratch: [UInt8] = []
    /// The tree being read.
    var builder: PlistTreeBuilder
    /// The offset of the first occurrence of each key of the open dictionaries.
    private var keyOffsets: [Int] = []

    init(text: UnsafeRawBufferPointer, limits: Limits, dialect: Dialect) {
        self.text = text
        self.limits = limits
        self.dialect = dialect
        builder = TextScanner.builder(for: text)
    }

    /// A builder sized for a text: about a node per 12 bytes, text and data
    /// about half the input.
    private static func builder(for text: UnsafeRawBufferPointer) -> PlistTreeBuilder {
        PlistTreeBuilder(textOfSize: text.count, bytesPerNode: 12, textShare: 0.5)
    }

    /// The diagnostics found so far, in input order.
    var diagnostics: [PlistDiagnostic] { pendingDiagnostics.resolved(in: text) }

    /// Records a diagnostic at a byte offset.
    mutating func report(_ kind: PlistDiagnostic.Kind, _ message: String, at offset: Int) {
        pendingDiagnostics.add(kind, message, at: offset)
    }

    /// Goes back to the start, forgetting the values read and counted and the
    /// diagnostics (for a parser that reads the text again another way).
    mutating func restart() {
        i = 0
        pendingDiagnostics.removeAll()
        objectCount = 0
        builder = TextScanner.builder(for: text)
        keyOffsets.removeAll()
    }

    // MARK: - Containers

    /// A container that opens at `start`.
    func open<Kind>(_ kind: Kind, at start: Int) -> Container<Kind> {
        Container(kind: kind, start: start, elements: builder.openArray(), members: builder.openDictionary(), keyOffsetBase: keyOffsets.count)
    }

    /// Adds the finished `value` (a node) to an array.
    @inline(__always)
    mutating func addElement<Kind>(_ value: Int, to container: inout Container<Kind>) {
        builder.append(value, to: container.elements)
    }

    /// Adds the finished `value` (a node) under the container's current key; a
    /// key seen before keeps its place, takes the value and is reported.
    mutating func addMember<Kind>(_ value: Int, to container: inout Container<Kind>) {
        let keyOffset = container.keyOffset
        if let first = builder.add(key: container.key, value: value, to: &container.members) {
            pendingDiagnostics.add(.duplicateKey, "duplicate key \"\(builder.string(at: container.key))\"; the last value is kept",
                                   at: keyOffset, related: keyOffsets[container.keyOffsetBase + first])
        } else {
            keyOffsets.append(keyOffset)
        }
    }

    /// The array node of a finished container.
    mutating func closeArray<Kind>(_ container: Container<Kind>) -> Int {
        builder.close(container.elements)
    }

    /// The dictionary node of a finished container.
    mutating func closeDictionary<Kind>(_ container: Container<Kind>) -> Int {
        keyOffsets.removeLast(keyOffsets.count - container.keyOffsetBase)
        return builder.close(container.members)
    }

    /// The tree whose top node is `root`.
    mutating func finish(root: Int) throws -> PlistTree {
        try builder.finish(root: root)
    }

    // MARK: - Strings

    /// A string node, or a dictionary key when `isKey`, of UTF-8 that was checked.
    @inline(__always)
    mutating func string(utf8: UnsafeRawBufferPointer, isKey: Bool) -> Int {
        isKey ? builder.key(utf8: utf8) : builder.string(utf8: utf8)
    }

    /// Reads a string quoted with the byte at `i` up to the same byte, and
    /// moves past it, decoding escapes with `Escapes`: a string node, or a
    /// dictionary key when `isKey`.
    @inline(__always)
    mutating func readQuotedString<Escapes: TextEscapes>(unescapingWith _: Escapes.Type, isKey: Bool) throws -> Int {
        let n = text.count
        let open = i
        let quote = text[i]
        let start = i + 1
        var j = start
        while j < n {
            let b = text[j]
            if b == quote {
                try checkLength(j - start, at: open)
                i = j + 1
                return string(utf8: UnsafeRawBufferPointer(rebasing: text[start..<j]), isKey: isKey)
            }
            if b == UInt8(ascii: "\\") { return try readEscapedString(open: open, start: start, escape: j, unescapingWith: Escapes.self, isKey: isKey) }
            j = try advanceOverCharacter(at: j)
        }
        throw error(.syntax, "unterminated string", at: open)
    }

    /// The slow path of `readQuotedString`, from the first backslash at `escape`.
    /// The unescaped text gathers in `scratch` (a key must be whole before it
    /// is looked up) and is copied into the tree once.
    private mutating func readEscapedString<Escapes: TextEscapes>(open: Int, start: Int, escape: Int,
                                                                  unescapingWith _: Escapes.Type, isKey: Bool) throws -> Int {
        let n = text.count
        let quote = text[open]
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: text[start..<escape])
        var j = escape
        while j < n {
            let b = text[j]
            if b == quote {
                try checkLength(scratch.count, at: open)
                i = j + 1
                let unescaped = scratch
                return unescaped.withUnsafeBytes { string(utf8: $0, isKey: isKey) }
            }
            if b != UInt8(ascii: "\\") {
                let runStart = j
                while j < n, text[j] != quote, text[j] != UInt8(ascii: "\\") {
                    j = try advanceOverCharacter(at: j)
                }
                scratch.append(contentsOf: text[runStart..<j])
                try checkLength(scratch.count, at: open)
                continue
            }
            j = try Escapes.unescape(&self, at: j, open: open)
        }
        throw error(.syntax, "unterminated string", at: open)
    }

    /// Appends a byte to the text of the string being unescaped.
    mutating func appendUnescaped(_ byte: UInt8) {
        scratch.append(byte)
    }

    /// Appends bytes of the input to the text of the string being unescaped.
    mutating func appendUnescaped(_ bytes: Range<Int>) {
        scratch.append(contentsOf: text[bytes])
    }

    /// Appends one scalar, as UTF-8, to the text of the string being unescaped.
    mutating func appendUnescaped(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { scratch.append($0) }
    }

    /// Decodes the UTF-16 escape whose backslash is at `j` (and a following
    /// escape of a low surrogate that completes a pair), appends the scalar and
    /// returns the offset after it; a lone surrogate becomes U+FFFD and is
    /// reported. Nil when the dialect's digits are missing.
    mutating func appendUnicodeEscape(at j: Int) -> Int? {
        guard let (unit, end) = utf16Escape(digitsAt: j + 2) else { return nil }
        var next = end
        let scalar: Unicode.Scalar
        switch unit {
        case 0xD800...0xDBFF:
            if next + 1 < text.count, text[next] == UInt8(ascii: "\\"), text[next + 1] == dialect.unicodeEscapeLetter,
               let (low, afterLow) = utf16Escape(digitsAt: next + 2), (0xDC00...0xDFFF).contains(low),
               let combined = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)) {
                scalar = combined
                next = afterLow
            } else {
                scalar = loneSurrogate(unit, at: j)
            }
        case 0xDC00...0xDFFF:
            scalar = loneSurrogate(unit, at: j)
        default:
            scalar = Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
        appendUnescaped(scalar)
        return next
    }

    /// The UTF-16 code unit of the hexadecimal digits at `offset` and the
    /// offset after them, as the dialect reads them.
    private func utf16Escape(digitsAt offset: Int) -> (unit: UInt16, end: Int)? {
        var unit: UInt16 = 0
        var k = offset
        while k < offset + 4, k < text.count, let digit = TextInput.hexValue(text[k]) {
            unit = unit << 4 | UInt16(digit)
            k += 1
        }
        guard k == offset + 4 || !dialect.unicodeEscapeNeedsFourDigits else { return nil }
        return (unit, k)
    }

    private mutating func loneSurrogate(_ unit: UInt16, at offset: Int) -> Unicode.Scalar {
        let escape = Character(Unicode.Scalar(dialect.unicodeEscapeLetter))
        pendingDiagnostics.add(.loneSurrogate, "lone UTF-16 surrogate \\\(escape)\(TextInput.hex(UInt32(unit), width: 4)) replaced by U+FFFD", at: offset)
        return "\u{FFFD}"
    }

    /// Steps over one character of a string or comment: ASCII (other than a
    /// control character, unless the dialect allows them), or a well-formed
    /// UTF-8 sequence.
    @inline(__always)
    func advanceOverCharacter(at j: Int) throws -> Int {
        let b = text[j]
        if b < 0x80 {
            if b >= 0x20 || dialect.allowsControlCharacters { return j + 1 }
            throw error(.syntax, "unescaped control character U+\(TextInput.hex(UInt32(b), width: 4)) in a string", at: j)
        }
        guard let length = UTF8Validation.multibyteLength(in: text, at: j) else {
            throw error(.encoding, "invalid UTF-8 byte 0x\(TextInput.hex(UInt32(b), width: 2))\(dialect.invalidUTF8Note)", at: j)
        }
        return j + length
    }

    // MARK: - Limits

    /// Counts one more value against `Limits.maxObjects`.
    @inline(__always)
    mutating func countObject() throws {
        objectCount += 1
        guard objectCount <= limits.maxObjects else {
            throw error(.limitExceeded, "more than \(limits.maxObjects) values")
        }
    }

    /// Checks that a container may open inside `open` others.
    @inline(__always)
    func checkDepth(_ open: Int) throws {
        guard open < limits.maxDepth else {
            throw error(.limitExceeded, "containers nested deeper than \(limits.maxDepth) levels")
        }
    }

    /// Checks a value's length against `Limits.maxValueLength`.
    @inline(__always)
    func checkLength(_ length: Int, at offset: Int) throws {
        guard length <= limits.maxValueLength else {
            throw error(.limitExceeded, "a \(dialect.longValueName) longer than \(limits.maxValueLength) bytes", at: offset)
        }
    }

    // MARK: - Errors

    /// An error at `offset` (the read position when nil), with its line and column.
    func error(_ kind: PlistError.Kind, _ message: String, at offset: Int? = nil) -> PlistError {
        PlistError(kind, message, at: .text(in: text, offset: offset ?? i))
    }

    /// The error for the character at the read position where `what` was expected.
    func unexpected(expecting what: String) -> PlistError {
        if let format = dialect.nameForCommentErrors, i + 1 < text.count, text[i] == UInt8(ascii: "/"),
           text[i + 1] == UInt8(ascii: "/") || text[i + 1] == UInt8(ascii: "*") {
            return error(.syntax, "\(format) has no comments: remove the comment that starts here (expected \(what))")
        }
        return error(.syntax, "unexpected \(TextInput.describeCharacter(in: text, at: i)), expected \(what)")
    }

    /// The error for the end of input inside `container` (an "array", say)
    /// that opens at `start`, or outside any container when nil.
    func endOfInput(in container: String?, startingAt start: Int, expecting what: String) -> PlistError {
        guard let container else { return error(.syntax, "unexpected end of input, expected \(what)") }
        let position = SourceLocation.text(in: text, offset: start).shortDescription
        return error(.syntax, "unexpected end of input in the \(container) that starts at \(position), expected \(what)")
    }
}

/// A text format's escapes in quoted strings.
protocol TextEscapes {
    /// Decodes the escape whose backslash is at `backslash` onto the end of the
    /// string being unescaped (`TextScanner.appendUnescaped`) and returns the
    /// offset after it; `open` is the offset of the string's opening quote.
    static func unescape(_ scanner: inout TextScanner, at backslash: Int, open: Int) throws -> Int
}
