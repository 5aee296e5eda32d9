/// A scanner for old-style (NeXTSTEP/OpenStep) property lists over one UTF-8
/// buffer, accepting what Core Foundation's parser (`CFOldStylePList.c`)
/// accepts. Containers are kept on an explicit stack, so nesting costs heap
/// memory only and stops at `Limits.maxDepth`.
struct OpenStepParser {
    let text: UnsafeRawBufferPointer
    let limits: Limits
    /// The read position (a byte offset into `text`).
    private var i = 0
    /// Lone surrogates and duplicate keys, in input order.
    private var pendingDiagnostics = TextDiagnostics()
    private var objectCount = 0
    /// Reused for strings that hold escapes.
    private var scratch: [UInt8] = []

    init(text: UnsafeRawBufferPointer, limits: Limits) {
        self.text = text
        self.limits = limits
    }

    private enum Kind {
        case array
        case dictionary
        /// The top level of a `.strings` file: `key = value;` pairs without braces.
        case stringsFile
    }

    /// A container being filled.
    private struct Frame {
        var kind: Kind
        var start: Int
        var items: [PlistValue] = []
        var members = DictionaryBuilder()
        /// The key whose value is being read.
        var key = ""
        var keyOffset = 0
    }

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
    var diagnostics: [PlistDiagnostic] { pendingDiagnostics.resolved(in: text) }

    /// Parses the whole buffer, as Core Foundation does: whitespace only is an
    /// empty dictionary; a value followed by more text is either a strings file
    /// (when the value was a string, as in `key = value;`) or an error.
    mutating func parseDocument() throws -> PlistValue {
        guard try skipSpace() else { return .dictionary(PlistDictionary()) }
        let value = try parse(from: [])
        guard try skipSpace() else { return value }
        guard case .string = value else { throw unexpected(expecting: "the end of input after the property list") }
        // `key = value; ...`: read again from the start as a strings file.
        i = 0
        pendingDiagnostics.removeAll()
        objectCount = 0
        return try parse(from: [Frame(kind: .stringsFile, start: 0)])
    }

    /// Parses one value (with an empty `stack`) or the contents of a strings
    /// file (with the strings-file frame on it).
    private mutating func parse(from initialStack: [Frame]) throws -> PlistValue {
        var stack = initialStack
        var expect: Expect = stack.isEmpty ? .value : .keyOrEnd
        var value: PlistValue
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
                    value = .data(try parseData())
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    value = .string(try parseQuotedString())
                case let b where Self.isUnquotedCharacter(b):
                    value = .string(try parseUnquotedString())
                default:
                    throw unexpected(expecting: "a value")
                }
                try countObject()
            case .elementOrEnd:
                guard try skipSpace() else { throw endOfInput(in: stack, expecting: "an array element or ')'") }
                guard text[i] == UInt8(ascii: ")") else {
                    expect = .value
                    continue parsing
                }
                i += 1
                value = .array(stack.removeLast().items)
            case .keyOrEnd:
                guard let t = stack.indices.last else { throw unexpected(expecting: "a key") }
                let isStringsFile = stack[t].kind == .stringsFile
                guard try skipSpace() else {
                    guard isStringsFile else { throw endOfInput(in: stack, expecting: "a key or '}'") }
                    value = .dictionary(stack.removeLast().members.dictionary)
                    break
                }
                let b = text[i]
                if b == UInt8(ascii: "}"), !isStringsFile {
                    i += 1
                    value = .dictionary(stack.removeLast().members.dictionary)
                    break
                }
                guard b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || Self.isUnquotedCharacter(b) else {
                    throw unexpected(expecting: isStringsFile ? "a key or the end of the strings file" : "a key or '}'")
                }
                let keyOffset = i
                let key = b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") ? try parseQuotedString() : try parseUnquotedString()
                stack[t].key = key
                stack[t].keyOffset = keyOffset
                guard try skipSpace() else { throw endOfInput(in: stack, expecting: "'=' or ';' after the key") }
                if text[i] == UInt8(ascii: "=") {
                    i += 1
                    expect = .value
                    continue parsing
                }
                guard text[i] == UInt8(ascii: ";") else { throw unexpected(expecting: "'=' or ';' after the key") }
                // `key;` is short for `key = key;` (the `;` is consumed below).
                value = .string(key)
                try countObject()
            }

            // Hand the finished value to the container around it.
            while let t = stack.indices.last {
                switch stack[t].kind {
                case .array:
                    stack[t].items.append(value)
                    guard try skipSpace() else { throw endOfInput(in: stack, expecting: "',' or ')'") }
                    if text[i] == UInt8(ascii: ",") {
                        i += 1
                        expect = .elementOrEnd
                        continue parsing
                    }
                    guard text[i] == UInt8(ascii: ")") else { throw unexpected(expecting: "',' or ')' after an array element") }
                    i += 1
                    value = .array(stack.removeLast().items)
                case .dictionary, .stringsFile:
                    let key = stack[t].key
                    let keyOffset = stack[t].keyOffset
                    if let first = stack[t].members.add(key: key, at: keyOffset, value: value) {
                        pendingDiagnostics.add(.duplicateKey, "duplicate key \"\(key)\"; the last value is kept", at: keyOffset, related: first)
                    }
                    guard try skipSpace(), text[i] == UInt8(ascii: ";") else {
                        throw error(.syntax, "missing ';' after the value of key \"\(key)\" (found \(TextInput.describeCharacter(in: text, at: i)))")
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
        guard stack.count < limits.maxDepth else {
            throw error(.limitExceeded, "containers nested deeper than \(limits.maxDepth) levels")
        }
        try countObject()
        stack.append(Frame(kind: kind, start: i))
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
                    i = try advanceOverCharacter(at: i)
                }
            case UInt8(ascii: "/") where i + 1 < n && text[i + 1] == UInt8(ascii: "*"):
                // An unterminated comment runs to the end, as in Core Foundation.
                i += 2
                while i < n, !(text[i] == UInt8(ascii: "*") && i + 1 < n && text[i + 1] == UInt8(ascii: "/")) {
                    i = try advanceOverCharacter(at: i)
                }
                i = min(i + 2, n)
            default:
                return true
            }
        }
        return false
    }

    /// Steps over one character of a string or comment, checking that it is UTF-8.
    @inline(__always)
    private func advanceOverCharacter(at j: Int) throws -> Int {
        let b = text[j]
        if b < 0x80 { return j + 1 }
        guard let length = UTF8Validation.multibyteLength(in: text, at: j) else {
            throw error(.encoding, "invalid UTF-8 byte 0x\(TextInput.hex(UInt32(b), width: 2)) (OpenStep text must be UTF-8, or UTF-16 with a byte-order mark)", at: j)
        }
        return j + length
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

    private mutating func parseUnquotedString() throws -> String {
        let start = i
        while i < text.count, Self.isUnquotedCharacter(text[i]) { i += 1 }
        try checkLength(i - start, at: start)
        return String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<i]), as: UTF8.self)
    }

    /// Parses a string quoted with `"` or `'` (the byte at `i`).
    private mutating func parseQuotedString() throws -> String {
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
                return String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<j]), as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { return try parseEscapedString(open: open, quote: quote, start: start, escape: j) }
            j = try advanceOverCharacter(at: j)
        }
        throw error(.syntax, "unterminated string", at: open)
    }

    /// The slow path of `parseQuotedString`, from the first backslash at `escape`.
    private mutating func parseEscapedString(open: Int, quote: UInt8, start: Int, escape: Int) throws -> String {
        let n = text.count
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: text[start..<escape])
        var j = escape
        while j < n {
            let b = text[j]
            if b == quote {
                try checkLength(scratch.count, at: open)
                i = j + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if b != UInt8(ascii: "\\") {
                let runStart = j
                while j < n, text[j] != quote, text[j] != UInt8(ascii: "\\") { j = try advanceOverCharacter(at: j) }
                scratch.append(contentsOf: text[runStart..<j])
                try checkLength(scratch.count, at: open)
                continue
            }
            guard j + 1 < n else {
                throw error(.syntax, "unterminated string (it ends with a backslash)", at: open)
            }
            let e = text[j + 1]
            j += 2
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
                appendScalar(NeXTSTEPEncoding.scalar(byte))
            case UInt8(ascii: "U"):
                let escapeOffset = j - 2
                let (unit, afterDigits) = utf16Escape(from: j)
                j = afterDigits
                switch unit {
                case 0xD800...0xDBFF:
                    if j + 1 < n, text[j] == UInt8(ascii: "\\"), text[j + 1] == UInt8(ascii: "U"),
                       case let (low, afterLow) = utf16Escape(from: j + 2), (0xDC00...0xDFFF).contains(low),
                       let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)) {
                        appendScalar(scalar)
                        j = afterLow
                    } else {
                        appendScalar(loneSurrogate(unit, at: escapeOffset))
                    }
                case 0xDC00...0xDFFF:
                    appendScalar(loneSurrogate(unit, at: escapeOffset))
                default:
                    appendScalar(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
            case UInt8(ascii: "a"): scratch.append(0x07)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "v"): scratch.append(0x0B)
            default:
                // Any other character stands for itself (`\"`, `\\`, `\'`, a newline...).
                let end = try advanceOverCharacter(at: j - 1)
                scratch.append(contentsOf: text[(j - 1)..<end])
                j = end
            }
        }
        throw error(.syntax, "unterminated string", at: open)
    }

    /// `\U` takes up to four hexadecimal digits (none gives U+0000), as CF does.
    private func utf16Escape(from start: Int) -> (unit: UInt16, end: Int) {
        var unit: UInt16 = 0
        var k = start
        while k < start + 4, k < text.count, let digit = TextInput.hexValue(text[k]) {
            unit = unit << 4 | UInt16(digit)
            k += 1
        }
        return (unit, k)
    }

    private mutating func appendScalar(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { scratch.append($0) }
    }

    private mutating func loneSurrogate(_ unit: UInt16, at offset: Int) -> Unicode.Scalar {
        pendingDiagnostics.add(.loneSurrogate, "lone UTF-16 surrogate \\U\(TextInput.hex(UInt32(unit), width: 4)) replaced by U+FFFD", at: offset)
        return "\u{FFFD}"
    }

    // MARK: - Data

    /// Parses `<0fbd 7777>` from the `<` at `i`: pairs of hex digits, with
    /// spaces, tabs, line breaks, U+2028 and U+2029 between the pairs.
    private mutating func parseData() throws -> [UInt8] {
        let n = text.count
        let open = i
        i += 1
        var bytes: [UInt8] = []
        while i < n {
            let b = text[i]
            if b == UInt8(ascii: ">") {
                i += 1
                return bytes
            }
            if let high = TextInput.hexValue(b) {
                guard i + 1 < n, let low = TextInput.hexValue(text[i + 1]) else {
                    throw error(.syntax, "odd number of hexadecimal digits in data (\(TextInput.describeCharacter(in: text, at: i + 1)) after the digit)", at: i + 1)
                }
                bytes.append(high << 4 | low)
                try checkLength(bytes.count, at: open)
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

    // MARK: - Bookkeeping

    private mutating func countObject() throws {
        objectCount += 1
        guard objectCount <= limits.maxObjects else {
            throw error(.limitExceeded, "more than \(limits.maxObjects) values")
        }
    }

    private func checkLength(_ length: Int, at offset: Int) throws {
        guard length <= limits.maxValueLength else {
            throw error(.limitExceeded, "a value longer than \(limits.maxValueLength) bytes", at: offset)
        }
    }

    private func error(_ kind: PlistError.Kind, _ message: String, at offset: Int? = nil) -> PlistError {
        PlistError(kind, message, at: .text(in: text, offset: offset ?? i))
    }

    private func unexpected(expecting what: String) -> PlistError {
        error(.syntax, "unexpected \(TextInput.describeCharacter(in: text, at: i)), expected \(what)")
    }

    /// The error for the end of input inside the innermost open container.
    private func endOfInput(in stack: [Frame], expecting what: String) -> PlistError {
        guard let frame = stack.last, frame.kind != .stringsFile else {
            return error(.syntax, "unexpected end of input, expected \(what)")
        }
        let container = frame.kind == .array ? "array" : "dictionary"
        let start = SourceLocation.text(in: text, offset: frame.start).shortDescription
        return error(.syntax, "unexpected end of input in the \(container) that starts at \(start), expected \(what)")
    }
}
