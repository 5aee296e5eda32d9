internal import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the node stream of an `xmlTextReader` into a `PlistTree`, with an
/// explicit stack of open containers (no recursion).
struct XMLTreeBuilder {
    private let reader: xmlTextReaderPtr
    private let limits: Limits
    private let errors: XMLErrorSink
    private(set) var diagnostics: [PlistDiagnostic] = []

    /// An open container: its children wait on the builder's pending stack.
    private struct Frame {
        enum Kind { case plist, array, dictionary }
        let kind: Kind
        var elements: PlistTreeBuilder.ArrayMark
        var members: PlistTreeBuilder.DictionaryMark
        /// The value of `<plist>`.
        var plistValue: Int?
        /// The key (a node) whose value is awaited, and the line of its start tag.
        var pendingKey: Int?
        var pendingKeyLine = 0
        /// Where the lines of its keys' start tags start on `keyLines`.
        let keyLineBase: Int
    }

    private var stack: [Frame] = []
    private var nodes = 0
    private var text: [UInt8] = []
    private var builder: PlistTreeBuilder
    /// The line of the start tag of each key of the open dictionaries (of the
    /// last occurrence of a repeated one), in entry order.
    private var keyLines: [Int] = []

    private let source: UnsafeRawBufferPointer
    /// The raw text of `<data>` elements, which CoreFoundation decodes.
    private let prescan: XMLPrescan
    /// How many `<data>` elements have been read.
    private var dataElements = 0
    /// String and key text holds `XMLCoreFoundationText` markers to restore.
    private let marked: Bool

    init(reader: xmlTextReaderPtr, source: UnsafeRawBufferPointer, prescan: XMLPrescan, marked: Bool, limits: Limits, errors: XMLErrorSink) {
        self.reader = reader
        self.source = source
        self.prescan = prescan
        self.marked = marked
        self.limits = limits
        self.errors = errors
        builder = PlistTreeBuilder(textOfSize: source.count, bytesPerNode: 24, textShare: 1.0 / 3)
    }

    private func frame(_ kind: Frame.Kind) -> Frame {
        Frame(kind: kind, elements: builder.openArray(), members: builder.openDictionary(), keyLineBase: keyLines.count)
    }

    /// The key awaiting a value in the innermost dictionary, as text (for messages).
    private func keyText(_ key: Int) -> String { builder.string(at: key) }

    private var position: SourceLocation {
        .text(line: Int(xmlTextReaderGetParserLineNumber(reader)), column: Int(xmlTextReaderGetParserColumnNumber(reader)))
    }

    /// The line of the current element's start tag (cheap: libxml2 stores it).
    private var elementLine: Int {
        guard let node = xmlTextReaderCurrentNode(reader) else { return 0 }
        return Int(xmlGetLineNo(node))
    }

    /// A location for a start tag's line, with the column of the first non-blank
    /// character of that line (libxml2 keeps no columns for nodes). Computed only
    /// when an error or diagnostic is reported.
    private func location(line: Int) -> SourceLocation {
        guard line > 0 else { return position }
        var current = 1
        var i = 0
        while current < line, i < source.count {
            if source[i] == 0x0A { current += 1 }
            i += 1
        }
        let lineStart = i
        while i < source.count, source[i] == 0x20 || source[i] == 0x09 { i += 1 }
        return .text(line: line, column: i - lineStart + 1)
    }

    private func syntax(_ message: String, at location: SourceLocation? = nil) -> PlistError {
        PlistError(.syntax, message, at: location ?? position)
    }

    /// Advances the reader; libxml2's own errors become located `PlistError`s.
    private mutating func next() throws -> Bool {
        let r = xmlTextReaderRead(reader)
        if r == 1 { return true }
        if let message = errors.message {
            throw PlistError(.syntax, message, at: .text(line: max(errors.line, 1), column: max(errors.column, 1)))
        }
        if r < 0 { throw syntax("the XML is not well-formed") }
        return false
    }

    private func name() -> String {
        xmlTextReaderConstName(reader).map { String(cString: $0) } ?? ""
    }

    /// The property-list elements, told apart by their bytes (no `String` per element).
    private enum Tag { case plist, dict, array, key, string, integer, real, `true`, `false`, date, data, other }

    private func tag() -> Tag {
        guard let n = xmlTextReaderConstName(reader) else { return .other }
        let length = strlen(UnsafeRawPointer(n).assumingMemoryBound(to: CChar.self))
        @inline(__always) func matches(_ literal: StaticString) -> Bool {
            guard literal.utf8CodeUnitCount == length else { return false }
            return literal.withUTF8Buffer { lit in
                guard let l = lit.baseAddress else { return length == 0 }
                return memcmp(n, l, length) == 0
            }
        }
        switch n[0] {
        case UInt8(ascii: "s"): return matches("string") ? .string : .other
        case UInt8(ascii: "k"): return matches("key") ? .key : .other
        case UInt8(ascii: "i"): return matches("integer") ? .integer : .other
        case UInt8(ascii: "r"): return matches("real") ? .real : .other
        case UInt8(ascii: "d"): return matches("dict") ? .dict : matches("date") ? .date : matches("data") ? .data : .other
        case UInt8(ascii: "a"): return matches("array") ? .array : .other
        case UInt8(ascii: "t"): return matches("true") ? .true : .other
        case UInt8(ascii: "f"): return matches("false") ? .false : .other
        case UInt8(ascii: "p"): return matches("plist") ? .plist : .other
        default: return .other
        }
    }

    mutating func run() throws -> PlistTree {
        var root: Int?
        var sawPlist = false
        while try next() {
            switch xmlTextReaderNodeType(reader) {
            case 1: // element
                if stack.isEmpty, root == nil, !sawPlist, tag() == .plist {
                    sawPlist = true
                    if xmlTextReaderIsEmptyElement(reader) == 1 {
                        throw syntax("<plist> holds no value")
                    }
                    stack.append(frame(.plist))
                    continue
                }
                guard !stack.isEmpty || (root == nil && !sawPlist) else {
                    throw syntax("unexpected <\(name())> after the property list's value")
                }
                if let value = try element() {
                    if stack.isEmpty { root = value } else { try add(value) }
                }
            case 15: // end element
                guard let frame = stack.popLast() else { throw syntax("unexpected </\(name())>") }
                let value: Int
                switch frame.kind {
                case .plist:
                    guard let v = frame.plistValue else { throw syntax("<plist> holds no value") }
                    root = v
                    continue
                case .array:
                    value = builder.close(frame.elements)
                case .dictionary:
                    if let pending = frame.pendingKey { throw syntax("key \"\(keyText(pending))\" has no value") }
                    keyLines.removeLast(keyLines.count - frame.keyLineBase)
                    value = builder.closeDictionaryOrUID(frame.members)
                }
                if stack.isEmpty { root = value } else { try add(value) }
            case 3, 4: // text, CDATA
                throw syntax("unexpected text outside a value")
            case 5: // entity reference
                throw syntax("entity references other than &amp; &lt; &gt; &quot; &apos; are not allowed in property lists")
            case 13, 14, 7, 8, 10: // whitespace, processing instruction, comment, DOCTYPE
                continue
            default:
                continue
            }
        }
        guard stack.isEmpty, let root else { throw syntax("the input holds no property-list value") }
        return try builder.finish(root: root)
    }

    /// Handles a start tag: opens a container (returns nil) or reads a scalar.
    private mutating func element() throws -> Int? {
        nodes += 1
        guard nodes <= limits.maxObjects else {
            throw PlistError(.limitExceeded, "more than \(limits.maxObjects) objects", at: position)
        }
        let startLine = elementLine
        var start: SourceLocation { location(line: startLine) }
        let empty = xmlTextReaderIsEmptyElement(reader) == 1
        let kind = tag()
        switch kind {
        case .dict, .array:
            let isDict = kind == .dict
            if empty { return isDict ? builder.close(builder.openDictionary()) : builder.close(builder.openArray()) }
            guard stack.count < limits.maxDepth else {
                throw PlistError(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels", at: start)
            }
            if let top = stack.last, top.kind == .dictionary, top.pendingKey == nil {
                throw syntax("expected <key> in <dict>, found <\(name())>", at: start)
            }
            stack.append(frame(isDict ? .dictionary : .array))
            return nil
        case .true, .false:
            let value = kind == .true
            if !empty { try readText(of: kind); guard isBlank(text) else { throw syntax("<\(value)> must be empty", at: start) } }
            return builder.bool(value)
        case .key:
            guard let t = stack.indices.last, stack[t].kind == .dictionary else {
                throw syntax("<key> outside a <dict>", at: start)
            }
            if let pending = stack[t].pendingKey { throw syntax("key \"\(keyText(pending))\" has no value", at: start) }
            if !empty { try readText(of: "key") } else { text.removeAll(keepingCapacity: true) }
            if marked { XMLCoreFoundationText.restore(&text) }
            let key = text.withUnsafeBytes { builder.key(utf8: $0) }
            // Reported as the key is read (before diagnostics inside its value);
            // the entry keeps its place and takes the last value.
            if let i = builder.position(ofKey: key, in: stack[t].members) {
                let first = stack[t].keyLineBase + i
                diagnostics.append(PlistDiagnostic(.duplicateKey, "duplicate key \"\(keyText(key))\"; the last value is kept",
                                                   at: start, related: location(line: keyLines[first])))
            }
            stack[t].pendingKey = key
            stack[t].pendingKeyLine = startLine
            return nil
        case .plist, .other:
            throw syntax("unknown element <\(name())>", at: start)
        case .string, .integer, .real, .date, .data:
            break
        }
        if empty { text.removeAll(keepingCapacity: true) } else { try readText(of: kind) }
        guard text.count <= limits.maxValueLength else {
            throw PlistError(.limitExceeded, "<\(name())> of \(text.count) bytes exceeds the limit", at: start)
        }
        switch kind {
        case .string:
            if marked { XMLCoreFoundationText.restore(&text) }
            return text.withUnsafeBytes { builder.string(utf8: $0) }
        case .integer:
            guard let i = XMLScalars.integer(text) else { throw syntax("invalid <integer> \"\(preview())\"", at: start) }
            return builder.integer(i)
        case .real:
            guard let r = XMLScalars.real(text) else { throw syntax("invalid <real> \"\(preview())\"", at: start) }
            return builder.real(PlistReal(r))
        case .date:
            guard let d = ISO8601.parseXML(text) else { throw syntax("invalid <date> \"\(preview())\" (expected YYYY-MM-DDTHH:MM:SSZ)", at: start) }
            return builder.date(d)
        default:
            return try data(startLine: startLine)
        }
    }

    /// The data node of the `<data>` element just read: its raw text decoded
    /// as CoreFoundation decodes it (references not replaced, markup refused),
    /// or libxml2's text when the pre-pass did not find the element. Errors
    /// are at the start tag's line (the column is found only then).
    private mutating func data(startLine: Int) throws -> Int {
        defer { dataElements += 1 }
        let fromRaw = try prescan.dataText(dataElements, in: source) { raw -> Int in
            guard let raw else {
                throw syntax("<data> holds markup (a comment or CDATA section), which CoreFoundation refuses: its base64 runs to </data>",
                             at: location(line: startLine))
            }
            return try decodeData(raw, startLine: startLine)
        }
        if let fromRaw { return fromRaw }
        let libxmlText = text
        return try libxmlText.withUnsafeBytes { try decodeData($0, startLine: startLine) }
    }

    private mutating func decodeData(_ text: UnsafeRawBufferPointer, startLine: Int) throws -> Int {
        if let byte = text.first(where: { $0 >= 0x80 }) {
            throw syntax("invalid character 0x\(String(byte, radix: 16, uppercase: true)) in <data> (base64 is ASCII)", at: location(line: startLine))
        }
        // Checked: only ASCII, which always decodes.
        return builder.data(maxCount: Base64.maxDecodedCount(text.count)) { Base64.decodeLikeCoreFoundation(text, into: $0) ?? 0 }
    }

    private func preview() -> String {
        String(decoding: text.prefix(40), as: UTF8.self)
    }

    private func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    private static func tagName(_ tag: Tag) -> String {
        switch tag {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .date: return "date"
        case .data: return "data"
        case .key: return "key"
        case .dict: return "dict"
        case .array: return "array"
        case .true: return "true"
        case .false: return "false"
        case .plist: return "plist"
        case .other: return "element"
        }
    }

    private mutating func readText(of tag: Tag) throws {
        try readText(of: XMLTreeBuilder.tagName(tag))
    }

    /// Collects the text of the current element up to its end tag into `text`.
    private mutating func readText(of tag: @autoclosure () -> String) throws {
        text.removeAll(keepingCapacity: true)
        while try next() {
            switch xmlTextReaderNodeType(reader) {
            case 3, 4, 13, 14:
                if let value = xmlTextReaderConstValue(reader) {
                    let count = strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
                    text.append(contentsOf: UnsafeBufferPointer(start: value, count: count))
                }
                if text.count > limits.maxValueLength {
                    throw PlistError(.limitExceeded, "<\(tag())> exceeds the length limit", at: position)
                }
            case 15:
                return
            case 5:
                throw syntax("entity references other than &amp; &lt; &gt; &quot; &apos; are not allowed in property lists")
            case 1:
                throw syntax("unexpected <\(name())> inside <\(tag())>")
            default:
                continue
            }
        }
        throw syntax("<\(tag())> is not closed")
    }

    /// Adds a finished value (a node) to the innermost open container.
    private mutating func add(_ value: Int) throws {
        guard let t = stack.indices.last else { return }
        switch stack[t].kind {
        case .plist:
            if stack[t].plistValue != nil { throw syntax("<plist> holds more than one value") }
            stack[t].plistValue = value
        case .array:
            builder.append(value, to: stack[t].elements)
        case .dictionary:
            guard let key = stack[t].pendingKey else {
                throw syntax("expected <key> in <dict>, found \(builder.kind(of: value).nameWithArticle)")
            }
            if let first = builder.add(key: key, value: value, to: &stack[t].members) {
                // The next repeat names this occurrence.
                keyLines[stack[t].keyLineBase + first] = stack[t].pendingKeyLine
            } else {
                keyLines.append(stack[t].pendingKeyLine)
            }
            stack[t].pendingKey = nil
        }
    }
}
