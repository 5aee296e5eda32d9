/// A strict RFC 8259 JSON parser over one UTF-8 buffer, written on
/// `TextScanner`, that builds the tree directly. Containers are kept on an
/// explicit stack, so nesting costs heap memory only and stops at
/// `Limits.maxDepth`.
struct JSONParser: TextEscapes {
    /// Position, strings, limits and errors.
    var scanner: TextScanner

    init(text: UnsafeRawBufferPointer, limits: Limits) {
        scanner = TextScanner(text: text, limits: limits, dialect: .json)
    }

    /// The text being read.
    var text: UnsafeRawBufferPointer { scanner.text }
    /// The read position (a byte offset into `text`).
    var i: Int {
        get { scanner.i }
        set { scanner.i = newValue }
    }

    private enum Kind {
        case array, object
    }

    // MARK: - Document

    /// Lone surrogates and duplicate keys found so far, in input order.
    var diagnostics: [PlistDiagnostic] { scanner.diagnostics }

    /// Parses the whole buffer: one value and nothing but whitespace around it.
    mutating func parseDocument() throws -> PlistTree {
        let n = text.count
        var stack: [TextScanner.Container<Kind>] = []
        var value: Int
        parsing: while true {
            // A value starts here.
            skipWhitespace()
            guard i < n else {
                throw error(.syntax, stack.isEmpty ? "no JSON value (the input is empty or only whitespace)" : "unexpected end of input, expected a value")
            }
            switch text[i] {
            case UInt8(ascii: "{"):
                try scanner.checkDepth(stack.count)
                try scanner.countObject()
                let start = i
                i += 1
                skipWhitespace()
                if i < n, text[i] == UInt8(ascii: "}") {
                    i += 1
                    value = scanner.closeDictionary(scanner.open(Kind.object, at: start))
                } else {
                    var frame = scanner.open(Kind.object, at: start)
                    try readKey(into: &frame, comma: nil)
                    stack.append(frame)
                    continue parsing
                }
            case UInt8(ascii: "["):
                try scanner.checkDepth(stack.count)
                try scanner.countObject()
                let start = i
                i += 1
                skipWhitespace()
                if i < n, text[i] == UInt8(ascii: "]") {
                    i += 1
                    value = scanner.closeArray(scanner.open(Kind.array, at: start))
                } else {
                    stack.append(scanner.open(Kind.array, at: start))
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = try parseString(isKey: false)
                try scanner.countObject()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
                try scanner.countObject()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = scanner.builder.bool(true)
                try scanner.countObject()
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = scanner.builder.bool(false)
                try scanner.countObject()
            case UInt8(ascii: "n"):
                let at = i
                try expectLiteral("null")
                throw error(.notRepresentable, "null has no property-list equivalent", at: at)
            default:
                throw unexpected(expecting: "a value")
            }

            // Hand the finished value to the containers around it.
            while let t = stack.indices.last {
                skipWhitespace()
                switch stack[t].kind {
                case .object:
                    scanner.addMember(value, to: &stack[t])
                    guard i < n else { throw scanner.endOfInput(in: "object", startingAt: stack[t].start, expecting: "',' or '}'") }
                    if text[i] == UInt8(ascii: ",") {
                        i += 1
                        try readKey(into: &stack[t], comma: i - 1)
                        continue parsing
                    }
                    guard text[i] == UInt8(ascii: "}") else { throw unexpected(expecting: "',' or '}' after an object member") }
                    i += 1
                    value = scanner.closeDictionary(stack.removeLast())
                case .array:
                    scanner.addElement(value, to: &stack[t])
                    guard i < n else { throw scanner.endOfInput(in: "array", startingAt: stack[t].start, expecting: "',' or ']'") }
                    if text[i] == UInt8(ascii: ",") {
                        let comma = i
                        i += 1
                        skipWhitespace()
                        if i < n, text[i] == UInt8(ascii: "]") {
                            throw error(.syntax, "trailing comma before ']'", at: comma)
                        }
                        continue parsing
                    }
                    guard text[i] == UInt8(ascii: "]") else { throw unexpected(expecting: "',' or ']' after an array element") }
                    i += 1
                    value = scanner.closeArray(stack.removeLast())
                }
            }
            skipWhitespace()
            guard i == n else { throw unexpected(expecting: "the end of input after the top-level value") }
            return try scanner.finish(root: value)
        }
    }

    /// Reads `"key" :` into the frame; `comma` is the offset of the comma
    /// before it, to name a trailing comma as such.
    private mutating func readKey(into frame: inout TextScanner.Container<Kind>, comma: Int?) throws {
        skipWhitespace()
        guard i < text.count, text[i] == UInt8(ascii: "\"") else {
            if let comma, i < text.count, text[i] == UInt8(ascii: "}") {
                throw error(.syntax, "trailing comma before '}'", at: comma)
            }
            throw unexpected(expecting: "a string key")
        }
        frame.keyOffset = i
        frame.key = try parseString(isKey: true)
        skipWhitespace()
        guard i < text.count, text[i] == UInt8(ascii: ":") else { throw unexpected(expecting: "':' after an object key") }
        i += 1
    }

    // MARK: - Tokens

    @inline(__always)
    private mutating func skipWhitespace() {
        let n = text.count
        while i < n {
            let b = text[i]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            i += 1
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { w in
            i + length <= text.count && (0..<length).allSatisfy { text[i + $0] == w[$0] }
        }
        guard matches else { throw unexpected(expecting: "a value") }
        i += length
    }

    /// Parses a string whose opening quote is at `i`: a string node, or a key when `isKey`.
    @inline(__always)
    private mutating func parseString(isKey: Bool) throws -> Int {
        try scanner.readQuotedString(unescapingWith: Self.self, isKey: isKey)
    }

    /// Decodes the escape whose backslash is at `j` (the string opens at `open`).
    static func unescape(_ scanner: inout TextScanner, at j: Int, open: Int) throws -> Int {
        let text = scanner.text
        guard j + 1 < text.count else { throw scanner.error(.syntax, "unterminated string", at: open) }
        switch text[j + 1] {
        case UInt8(ascii: "\""): scanner.appendUnescaped(0x22 as UInt8)
        case UInt8(ascii: "\\"): scanner.appendUnescaped(0x5C as UInt8)
        case UInt8(ascii: "/"): scanner.appendUnescaped(0x2F as UInt8)
        case UInt8(ascii: "b"): scanner.appendUnescaped(0x08 as UInt8)
        case UInt8(ascii: "f"): scanner.appendUnescaped(0x0C as UInt8)
        case UInt8(ascii: "n"): scanner.appendUnescaped(0x0A as UInt8)
        case UInt8(ascii: "r"): scanner.appendUnescaped(0x0D as UInt8)
        case UInt8(ascii: "t"): scanner.appendUnescaped(0x09 as UInt8)
        case UInt8(ascii: "u"):
            guard let next = scanner.appendUnicodeEscape(at: j) else {
                throw scanner.error(.syntax, "invalid \\u escape: expected four hexadecimal digits", at: j)
            }
            return next
        default:
            throw scanner.error(.syntax, "invalid escape in a string: '\\' followed by \(TextInput.describeCharacter(in: text, at: j + 1))", at: j)
        }
        return j + 2
    }

    // MARK: - Errors

    func error(_ kind: PlistError.Kind, _ message: String, at offset: Int? = nil) -> PlistError {
        scanner.error(kind, message, at: offset)
    }

    private func unexpected(expecting what: String) -> PlistError {
        scanner.unexpected(expecting: what)
    }
}

extension TextScanner.Dialect {
    /// RFC 8259 strings: no control characters, `\uXXXX` with four digits.
    static let json = TextScanner.Dialect(longValueName: "string", invalidUTF8Note: " in a string", allowsControlCharacters: false,
                                          unicodeEscapeLetter: UInt8(ascii: "u"), unicodeEscapeNeedsFourDigits: true,
                                          nameForCommentErrors: "JSON")
}
