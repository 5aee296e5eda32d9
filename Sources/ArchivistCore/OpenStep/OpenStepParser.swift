/// A parser for old-style (NeXTSTEP/OpenStep) property lists over one UTF-8
/// buffer, written on `TextScanner`, accepting what Core Foundation's parser
/// (`CFOldStylePList.c`) accepts. Containers are kept on an explicit stack, so
/// nesting costs heap memory only and stops at `Limits.maxDepth`.
struct OpenStepParser: TextEscapes {
    /// Position, strings, limits and errors.
    private var scanner: TextScanner

    init(text: UnsafeRawBufferPointer, limits: Limits) {
        scanner = TextScanner(text: text, limits: limits, dialect: .openStep)
    }

    /// The text being read.
    private var text: UnsafeRawBufferPointer { scanner.text }
    /// The read position (a byte offset into `text`).
    private var i: Int {
        get { scanner.i }
        set { scanner.i = newValue }
    }

    private enum Kind {
        case array
        case dictionary
        /// The top level of a `.strings` file: `key = value;` pairs without braces.
        case stringsFile
    }

    private typealias Frame = TextScanner.Container<Kind>

    /// What the scanner looks for next.
    private enum Expect {
        /// Any value.
        case value
        /// An array element or the closing `)`.
        case elementOrEnd
        /// A key, or the end of the innermost dictionary (`}`, or the end of input
        /// for a strings file).
        case keyOrEnd
    }

    // MARK: - Document

    /// Lone surrogates and duplicate keys found so far, in input order.
    var diagnostics: [PlistDiagnostic] { scanner.diagnostics }

    /// Parses the whole buffer, as Core Foundation does: whitespace only is an
    /// empty dictionary; a value followed by more text is either a strings file
    /// (when the value was a string, as in `key = value;`) or an error.
    mutating func parseDocument() throws -> PlistTree {
        guard try skipSpace() else { return try scanner.finish(root: scanner.closeDictionary(scanner.open(Kind.dictionary, at: i))) }
        let value = try parse(from: [])
        guard try skipSpace() else { return try scanner.finish(root: value) }
        guard scanner.builder.kind(of: value) == .string else { throw unexpected(expecting: "the end of input after the property list") }
        // `key = value; ...`: read again from the start as a strings file.
        scanner.restart()
        return try scanner.finish(root: parse(from: [scanner.open(Kind.stringsFile, at: 0)]))
    }

    /// Parses one value (with an empty `stack`) or the contents of a strings
    /// file (with the strings-file frame on it).
    private mutating func parse(from initialStack: [Frame]) throws -> Int {
        var stack = initialStack
        var expect: Expect = stack.isEmpty ? .value : .keyOrEnd
        var value: Int
        parsing: while true {
            switch expect {
            case .value:
                guard try skipSpace() else { throw endOfInput(in: stack, expecting: "a value") }
                switch text[i] {
                case UInt8(ascii: "{"):
                    try open(.dictionary, on: &stack)
                    expect = .keyOrEnd
                    continue parsing
                case UInt8(ascii: "("):
                    try open(.array, on: &stack)
                    expect = .elementOrEnd
                    continue parsing
                case UInt8(ascii: "<"):
                    value = try parseData()
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    value = try parseQuotedString(isKey: false)
                case let b where Self.isUnquotedCharacter(b):
                    value = try parseUnquotedString(isKey: false)
                default:
                    throw unexpected(expecting: "a value")
                }
                try scanner.countObject()
            case .elementOrEnd:
                guard try skipSpace() else { throw endOfInput(in: stack, expecting: "an array element or ')'") }
                guard text[i] == UInt8(ascii: ")") else {
                    expect = .value
                    continue parsing
                }
                i += 1
                value = scanner.closeArray(stack.removeLast())
            case .keyOrEnd:
                guard let t = stack.indices.last else { throw unexpected(expecting: "a key") }
                let isStringsFile = stack[t].kind == .stringsFile
                guard try skipSpace() else {
                    guard isStringsFile else { throw endOfInput(in: stack, expecting: "a key or '}'") }
                    value = scanner.closeDictionary(stack.removeLast())
                    break
                }
                let b = text[i]
                if b == UInt8(ascii: "}"), !isStringsFile {
                    i += 1
                    value = scanner.closeDictionary(stack.removeLast())
                    break
                }
                guard b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || Self.isUnquotedCharacter(b) else {
                    throw unexpected(expecting: isStringsFile ? "a key or the end of the strings file" : "a key or '}'")
                }
                let keyOffset = i
                let key = b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") ? try parseQuotedString(isKey: true) : try parseUnquotedString(isKey: true)
                stack[t].key = key
                stack[t].keyOffset = keyOffset
                guard try skipSpace() else { throw endOfInput(in: stack, expecting: "'=' or ';' after the key") }
                if text[i] == UInt8(ascii: "=") {
                    i += 1
                    expect = .value
                    continue parsing
                }
                guard text[i] == UInt8(ascii: ";") else { throw unexpected(expecting: "'=' or ';' after the key") }
                // `key;` is short for `key = key;` (the `;` is consumed below): the key's node is the value too.
                value = key
                try scanner.countObject()
            }

            // Hand the finished value to the container around it.
            while let t = stack.indices.last {
                switch stack[t].kind {
                case .array:
                    scanner.addElement(value, to: &stack[t])
                    guard try skipSpace() else { throw endOfInput(in: stack, expecting: "',' or ')'") }
                    if text[i] == UInt8(ascii: ",") {
                        i += 1
                        expect = .elementOrEnd
                        continue parsing
                    }
                    guard text[i] == UInt8(ascii: ")") else { throw unexpected(expecting: "',' or ')' after an array element") }
                    i += 1
                    value = scanner.closeArray(stack.removeLast())
                case .dictionary, .stringsFile:
                    let key = stack[t].key
                    scanner.addMember(value, to: &stack[t])
                    guard try skipSpace(), text[i] == UInt8(ascii: ";") else {
                        throw error(.syntax, "missing ';' after the value of key \"\(scanner.builder.string(at: key))\" (found \(TextInput.describeCharacter(in: text, at: i)))")
                    }
                    i += 1
                    expect = .keyOrEnd
                    continue parsing
                }
            }
            return value
        }
    }

    private mutating func open(_ kind: Kind, on stack: inout [Frame]) throws {
        try scanner.checkDepth(stack.count)
        try scanner.countObject()
        stack.append(scanner.open(kind, at: i))
        i += 1
    }

    // MARK: - Whitespace and comments

    /// Skips whitespace (ASCII 9...13, space, U+2028, U+2029), `// ...` and
    /// `/* ... */` comments. True when something else follows.
    private mutating func skipSpace() throws -> Bool {
        let n = text.count
        while i < n {
            let b = text[i]
            switch b {
            case 0x09...0x0D, 0x20:
                i += 1
            case 0xE2 where i + 2 < n && text[i + 1] == 0x80 && (text[i + 2] == 0xA8 || text[i + 2] == 0xA9):
                i += 3
            case UInt8(ascii: "/") where i + 1 < n && text[i + 1] == UInt8(ascii: "/"):
                i += 2
                while i < n {
                    let c = text[i]
                    if c == 0x0A || c == 0x0D || isLineOrParagraphSeparator(at: i) { break }
                    i = try scanner.advanceOverCharacter(at: i)
                }
            case UInt8(ascii: "/") where i + 1 < n && text[i + 1] == UInt8(ascii: "*"):
                // An unterminated comment runs to the end, as in Core Foundation.
                i += 2
                while i < n, !(text[i] == UInt8(ascii: "*") && i + 1 < n && text[i + 1] == UInt8(ascii: "/")) {
                    i = try scanner.advanceOverCharacter(at: i)
                }
                i = min(i + 2, n)
            default:
                return true
            }
        }
        return false
    }

    private func isLineOrParagraphSeparator(at k: Int) -> Bool {
        text[k] == 0xE2 && k + 2 < text.count && text[k + 1] == 0x80 && (text[k + 2] == 0xA8 || text[k + 2] == 0xA9)
    }

    // MARK: - Strings

    /// `[A-Za-z0-9_$/:.-]`, the characters of an unquoted string.
    @inline(__always)
    static func isUnquotedCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// An unquoted string at `i`: a string node, or a key when `isKey`.
    private mutating func parseUnquotedString(isKey: Bool) throws -> Int {
        let start = i
        while i < text.count, Self.isUnquotedCharacter(text[i]) { i += 1 }
        try scanner.checkLength(i - start, at: start)
        return scanner.string(utf8: UnsafeRawBufferPointer(rebasing: text[start..<i]), isKey: isKey)
    }

    /// Parses a string quoted with `"` or `'` (the byte at `i`): a string node, or a key when `isKey`.
    @inline(__always)
    private mutating func parseQuotedString(isKey: Bool) throws -> Int {
        try scanner.readQuotedString(unescapingWith: Self.self, isKey: isKey)
    }

    /// Decodes the escape whose backslash is at `backslash` (the string opens at `open`).
    static func unescape(_ scanner: inout TextScanner, at backslash: Int, open: Int) throws -> Int {
        let text = scanner.text
        let n = text.count
        guard backslash + 1 < n else {
            throw scanner.error(.syntax, "unterminated string (it ends with a backslash)", at: open)
        }
        let e = text[backslash + 1]
        var j = backslash + 2
        switch e {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            // Up to three octal digits of a NeXTSTEP byte, wrapping at 8 bits as CF does.
            var byte = e - UInt8(ascii: "0")
            var digits = 1
            while digits < 3, j < n, text[j] >= UInt8(ascii: "0"), text[j] <= UInt8(ascii: "7") {
                byte = byte &<< 3 &+ (text[j] - UInt8(ascii: "0"))
                digits += 1
                j += 1
            }
            scanner.appendUnescaped(NeXTSTEPEncoding.scalar(byte))
        case UInt8(ascii: "U"):
            // Up to four digits, none giving U+0000: never nil in this dialect.
            j = scanner.appendUnicodeEscape(at: backslash) ?? j
        case UInt8(ascii: "a"): scanner.appendUnescaped(0x07 as UInt8)
        case UInt8(ascii: "b"): scanner.appendUnescaped(0x08 as UInt8)
        case UInt8(ascii: "f"): scanner.appendUnescaped(0x0C as UInt8)
        case UInt8(ascii: "n"): scanner.appendUnescaped(0x0A as UInt8)
        case UInt8(ascii: "r"): scanner.appendUnescaped(0x0D as UInt8)
        case UInt8(ascii: "t"): scanner.appendUnescaped(0x09 as UInt8)
        case UInt8(ascii: "v"): scanner.appendUnescaped(0x0B as UInt8)
        default:
            // Any other character stands for itself (`\"`, `\\`, `\'`, a newline...).
            let end = try scanner.advanceOverCharacter(at: j - 1)
            scanner.appendUnescaped((j - 1)..<end)
            j = end
        }
        return j
    }

    // MARK: - Data

    /// Parses `<0fbd 7777>` from the `<` at `i`: pairs of hex digits, with
    /// spaces, tabs, line breaks, U+2028 and U+2029 between the pairs. The
    /// text is checked first, then its bytes are decoded into the tree.
    private mutating func parseData() throws -> Int {
        let n = text.count
        let open = i
        i += 1
        var count = 0
        while i < n {
            let b = text[i]
            if b == UInt8(ascii: ">") {
                i += 1
                let text = UnsafeRawBufferPointer(rebasing: self.text[(open + 1)..<(i - 1)])
                return scanner.builder.data(maxCount: count) { out in
                    var k = 0
                    var j = 0
                    while j < text.count, k < out.count {
                        if let high = TextInput.hexValue(text[j]), j + 1 < text.count, let low = TextInput.hexValue(text[j + 1]) {
                            out[k] = high << 4 | low
                            k += 1
                            j += 2
                        } else {
                            j += 1
                        }
                    }
                    return k
                }
            }
            if TextInput.hexValue(b) != nil {
                guard i + 1 < n, TextInput.hexValue(text[i + 1]) != nil else {
                    throw error(.syntax, "odd number of hexadecimal digits in data (\(TextInput.describeCharacter(in: text, at: i + 1)) after the digit)", at: i + 1)
                }
                count += 1
                try scanner.checkLength(count, at: open)
                i += 2
            } else if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D {
                i += 1
            } else if isLineOrParagraphSeparator(at: i) {
                i += 3
            } else {
                throw error(.syntax, "unexpected \(TextInput.describeCharacter(in: text, at: i)) in data; expected hexadecimal digits or '>'")
            }
        }
        throw error(.syntax, "unterminated data: expected '>'", at: open)
    }

    // MARK: - Errors

    private func error(_ kind: PlistError.Kind, _ message: String, at offset: Int? = nil) -> PlistError {
        scanner.error(kind, message, at: offset)
    }

    private func unexpected(expecting what: String) -> PlistError {
        scanner.unexpected(expecting: what)
    }

    /// The error for the end of input inside the innermost open container.
    private func endOfInput(in stack: [Frame], expecting what: String) -> PlistError {
        guard let frame = stack.last, frame.kind != .stringsFile else {
            return scanner.endOfInput(in: nil, startingAt: 0, expecting: what)
        }
        return scanner.endOfInput(in: frame.kind == .array ? "array" : "dictionary", startingAt: frame.start, expecting: what)
    }
}

extension TextScanner.Dialect {
    /// Core Foundation's old-style strings: any character, `\U` with up to four digits.
    static let openStep = TextScanner.Dialect(
        longValueName: "value", invalidUTF8Note: " (OpenStep text must be UTF-8, or UTF-16 with a byte-order mark)",
        allowsControlCharacters: true, unicodeEscapeLetter: UInt8(ascii: "U"), unicodeEscapeNeedsFourDigits: false,
        nameForCommentErrors: nil)
}
