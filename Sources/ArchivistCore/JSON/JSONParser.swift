/// A strict RFC 8259 JSON scanner over one UTF-8 buffer that builds the tree
/// directly. Containers are kept on an explicit stack, so nesting costs heap
/// memory only and stops at `Limits.maxDepth`.
struct JSONParser {
    let text: UnsafeRawBufferPointer
    let limits: Limits
    /// The read position (a byte offset into `text`).
    var i = 0
    /// Lone surrogates and duplicate keys, in input order.
    var pendingDiagnostics = TextDiagnostics()
    private var objectCount = 0
    /// Reused for strings that hold escapes.
    private var scratch: [UInt8] = []

    init(text: UnsafeRawBufferPointer, limits: Limits) {
        self.text = text
        self.limits = limits
    }

    /// A container being filled.
    private struct Frame {
        var isObject: Bool
        var start: Int
        var items: [PlistValue] = []
        var members = DictionaryBuilder()
        /// The key whose value is being read.
        var key = ""
        var keyOffset = 0
    }

    // MARK: - Document

    /// Lone surrogates and duplicate keys found so far, in input order.
    var diagnostics: [PlistDiagnostic] { pendingDiagnostics.resolved(in: text) }

    /// Parses the whole buffer: one value and nothing but whitespace around it.
    mutating func parseDocument() throws -> PlistValue {
        let n = text.count
        var stack: [Frame] = []
        var value: PlistValue
        parsing: while true {
            // A value starts here.
            skipWhitespace()
            guard i < n else {
                throw error(.syntax, stack.isEmpty ? "no JSON value (the input is empty or only whitespace)" : "unexpected end of input, expected a value")
            }
            switch text[i] {
            case UInt8(ascii: "{"):
                try checkDepth(stack.count)
                try countObject()
                let start = i
                i += 1
                skipWhitespace()
                if i < n, text[i] == UInt8(ascii: "}") {
                    i += 1
                    value = .dictionary(PlistDictionary())
                } else {
                    var frame = Frame(isObject: true, start: start)
                    try readKey(into: &frame, comma: nil)
                    stack.append(frame)
                    continue parsing
                }
            case UInt8(ascii: "["):
                try checkDepth(stack.count)
                try countObject()
                let start = i
                i += 1
                skipWhitespace()
                if i < n, text[i] == UInt8(ascii: "]") {
                    i += 1
                    value = .array([])
                } else {
                    stack.append(Frame(isObject: false, start: start))
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
                try countObject()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
                try countObject()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
                try countObject()
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
                try countObject()
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
                if stack[t].isObject {
                    let key = stack[t].key
                    let keyOffset = stack[t].keyOffset
                    if let first = stack[t].members.add(key: key, at: keyOffset, value: value) {
                        pendingDiagnostics.add(.duplicateKey, "duplicate key \"\(key)\"; the last value is kept", at: keyOffset, related: first)
                    }
                    guard i < n else { throw error(.syntax, "unexpected end of input in the object that starts at \(position(stack[t].start)), expected ',' or '}'") }
                    if text[i] == UInt8(ascii: ",") {
                        i += 1
                        try readKey(into: &stack[t], comma: i - 1)
                        continue parsing
                    }
                    guard text[i] == UInt8(ascii: "}") else { throw unexpected(expecting: "',' or '}' after an object member") }
                    i += 1
                    value = .dictionary(stack.removeLast().members.dictionary)
                } else {
                    stack[t].items.append(value)
                    guard i < n else { throw error(.syntax, "unexpected end of input in the array that starts at \(position(stack[t].start)), expected ',' or ']'") }
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
                    value = .array(stack.removeLast().items)
                }
            }
            skipWhitespace()
            guard i == n else { throw unexpected(expecting: "the end of input after the top-level value") }
            return value
        }
    }

    /// Reads `"key" :` into the frame; `comma` is the offset of the comma
    /// before it, to name a trailing comma as such.
    private mutating func readKey(into frame: inout Frame, comma: Int?) throws {
        skipWhitespace()
        guard i < text.count, text[i] == UInt8(ascii: "\"") else {
            if let comma, i < text.count, text[i] == UInt8(ascii: "}") {
                throw error(.syntax, "trailing comma before '}'", at: comma)
            }
            throw unexpected(expecting: "a string key")
        }
        frame.keyOffset = i
        frame.key = try parseString()
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

    /// Parses a string whose opening quote is at `i`.
    private mutating func parseString() throws -> String {
        let n = text.count
        let open = i
        let start = i + 1
        var j = start
        while j < n {
            let b = text[j]
            if b == UInt8(ascii: "\"") {
                try checkLength(j - start, at: open)
                i = j + 1
                return String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<j]), as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { return try parseEscapedString(open: open, start: start, escape: j) }
            j = try advanceOverCharacter(at: j)
        }
        throw error(.syntax, "unterminated string", at: open)
    }

    /// Steps over one unescaped character of a string: ASCII other than a
    /// control character, or a well-formed UTF-8 sequence.
    @inline(__always)
    private func advanceOverCharacter(at j: Int) throws -> Int {
        let b = text[j]
        if b >= 0x20, b < 0x80 { return j + 1 }
        if b < 0x20 {
            throw error(.syntax, "unescaped control character U+\(TextInput.hex(UInt32(b), width: 4)) in a string", at: j)
        }
        guard let length = UTF8Validation.multibyteLength(in: text, at: j) else {
            throw error(.encoding, "invalid UTF-8 byte 0x\(TextInput.hex(UInt32(b), width: 2)) in a string", at: j)
        }
        return j + length
    }

    /// The slow path of `parseString`, from the first backslash at `escape`.
    private mutating func parseEscapedString(open: Int, start: Int, escape: Int) throws -> String {
        let n = text.count
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: text[start..<escape])
        var j = escape
        while j < n {
            let b = text[j]
            if b == UInt8(ascii: "\"") {
                try checkLength(scratch.count, at: open)
                i = j + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if b != UInt8(ascii: "\\") {
                let runStart = j
                while j < n, text[j] != UInt8(ascii: "\""), text[j] != UInt8(ascii: "\\") {
                    j = try advanceOverCharacter(at: j)
                }
                scratch.append(contentsOf: text[runStart..<j])
                try checkLength(scratch.count, at: open)
                continue
            }
            guard j + 1 < n else { break }
            switch text[j + 1] {
            case UInt8(ascii: "\""): scratch.append(0x22)
            case UInt8(ascii: "\\"): scratch.append(0x5C)
            case UInt8(ascii: "/"): scratch.append(0x2F)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                j = try appendUnicodeEscape(at: j)
                continue
            default:
                throw error(.syntax, "invalid escape in a string: '\\' followed by \(TextInput.describeCharacter(in: text, at: j + 1))", at: j)
            }
            j += 2
        }
        throw error(.syntax, "unterminated string", at: open)
    }

    /// Decodes `\uXXXX` at `j` (and a following low-surrogate escape that
    /// completes a pair), appends the scalar, and returns the offset after it.
    private mutating func appendUnicodeEscape(at j: Int) throws -> Int {
        guard let unit = hex4(at: j + 2) else {
            throw error(.syntax, "invalid \\u escape: expected four hexadecimal digits", at: j)
        }
        var scalar: Unicode.Scalar
        var next = j + 6
        switch unit {
        case 0xD800...0xDBFF:
            if next + 1 < text.count, text[next] == UInt8(ascii: "\\"), text[next + 1] == UInt8(ascii: "u"),
               let low = hex4(at: next + 2), (0xDC00...0xDFFF).contains(low),
               let combined = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)) {
                scalar = combined
                next += 6
            } else {
                scalar = loneSurrogate(unit, at: j)
            }
        case 0xDC00...0xDFFF:
            scalar = loneSurrogate(unit, at: j)
        default:
            scalar = Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
        UTF8.encode(scalar) { scratch.append($0) }
        return next
    }

    private mutating func loneSurrogate(_ unit: UInt16, at offset: Int) -> Unicode.Scalar {
        pendingDiagnostics.add(.loneSurrogate, "lone UTF-16 surrogate \\u\(TextInput.hex(UInt32(unit), width: 4)) replaced by U+FFFD", at: offset)
        return "\u{FFFD}"
    }

    /// Four hexadecimal digits at `offset` as a UTF-16 code unit.
    private func hex4(at offset: Int) -> UInt16? {
        guard offset + 4 <= text.count else { return nil }
        var value: UInt16 = 0
        for k in offset..<offset + 4 {
            guard let digit = TextInput.hexValue(text[k]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    // MARK: - Bookkeeping

    private mutating func countObject() throws {
        objectCount += 1
        guard objectCount <= limits.maxObjects else {
            throw error(.limitExceeded, "more than \(limits.maxObjects) values")
        }
    }

    private func checkDepth(_ open: Int) throws {
        guard open < limits.maxDepth else {
            throw error(.limitExceeded, "containers nested deeper than \(limits.maxDepth) levels")
        }
    }

    private func checkLength(_ length: Int, at offset: Int) throws {
        guard length <= limits.maxValueLength else {
            throw error(.limitExceeded, "a string longer than \(limits.maxValueLength) bytes", at: offset)
        }
    }

    func error(_ kind: PlistError.Kind, _ message: String, at offset: Int? = nil) -> PlistError {
        PlistError(kind, message, at: .text(in: text, offset: offset ?? i))
    }

    private func unexpected(expecting what: String) -> PlistError {
        if i + 1 < text.count, text[i] == UInt8(ascii: "/"), text[i + 1] == UInt8(ascii: "/") || text[i + 1] == UInt8(ascii: "*") {
            return error(.syntax, "JSON has no comments: remove the comment that starts here (expected \(what))")
        }
        return error(.syntax, "unexpected \(TextInput.describeCharacter(in: text, at: i)), expected \(what)")
    }

    private func position(_ offset: Int) -> String {
        SourceLocation.text(in: text, offset: offset).shortDescription
    }
}
