/// Writes a property-list tree as JSON (RFC 8259, UTF-8).
///
/// Dictionaries keep their stored key order. Integers are exact over the whole
/// range (including values above 2^53 and up to `UInt64.max`); reals use the
/// shortest text that reads back to the same `Double`. JSON has no date, data or
/// UID: dates become ISO 8601 strings (with as many digits of a fraction of a
/// second as the date needs to read back exactly), data becomes base64 strings
/// and a UID becomes `{"CF$UID": n}`, so reading the output back gives strings and a
/// dictionary where the tree had those types. NaN, infinities and dates too far
/// away to write as a calendar date are errors.
///
/// Output is compact (`{"a":1}`) unless `options.pretty` is set: then each
/// element is on its own line, indented by two spaces, written `"key": value`,
/// and the text ends with a newline.
package enum JSONPlistWriter {
    /// The JSON text of `tree`.
    package static func write(_ tree: PlistTree, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        let out = ByteSink()
        try tree.withView { try write(&$0, options: options, into: out) }
        return out.bytes()
    }

    /// Appends the JSON text of `source` to `out`.
    package static func write<S: PlistNodes>(_ source: inout S, options: WriteOptions = WriteOptions(), into out: ByteSink) throws {
        if try DocumentLayout.of(&source, as: .json, options: options) == .xcodeStringCatalog {
            return try XcodeStringCatalogWriter.write(&source, into: out)
        }
        var walk = PlistTraversal(sortKeys: false)
        var scratch: [UInt8] = []
        let pretty = options.pretty
        let encoderStyle = options.jsonEncoderStyle
        while let step = try walk.next(in: &source) {
            switch step {
            case .scalar(let scalar, let slot):
                try begin(slot, depth: walk.depth, pretty: pretty, encoderStyle: encoderStyle, source: &source, scratch: &scratch, into: out)
                try writeScalar(scalar, pretty: pretty, encoderStyle: encoderStyle, scratch: &scratch,
                                keyPath: { walk.keyPath(to: slot, in: &source) }, into: out)
            case .beginArray(_, let slot):
                try begin(slot, depth: walk.depth - 1, pretty: pretty, encoderStyle: encoderStyle, source: &source, scratch: &scratch, into: out)
                out.append(UInt8(ascii: "["))
            case .beginDictionary(_, let slot):
                try begin(slot, depth: walk.depth - 1, pretty: pretty, encoderStyle: encoderStyle, source: &source, scratch: &scratch, into: out)
                out.append(UInt8(ascii: "{"))
            case .endArray(let count, _):
                end(count: count, depth: walk.depth, pretty: pretty, into: out)
                out.append(UInt8(ascii: "]"))
            case .endDictionary(let count, _):
                end(count: count, depth: walk.depth, pretty: pretty, into: out)
                out.append(UInt8(ascii: "}"))
            }
        }
        if pretty { out.append(0x0A) }
    }

    /// The separator, line break, indent and key that come before a node.
    private static func begin<S: PlistNodes>(_ slot: PlistTraversal.Slot, depth: Int, pretty: Bool, encoderStyle: Bool,
                                             source: inout S, scratch: inout [UInt8], into out: ByteSink) throws {
        switch slot {
        case .root:
            return
        case .element, .entry:
            if slot.index > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { newline(depth: depth, into: out) }
        }
        if case .entry(let key, _) = slot {
            guard case .string(let text) = try source.item(key) else {
                throw PlistError(.invalidValue, "a dictionary key is not a string")
            }
            appendString(text, escapingSlashes: encoderStyle, scratch: &scratch, into: out)
            out.append(UInt8(ascii: ":"))
            if pretty { out.append(UInt8(ascii: " ")) }
        }
    }

    /// The line break before a closing bracket of a non-empty container.
    private static func end(count: Int, depth: Int, pretty: Bool, into out: ByteSink) {
        if pretty, count > 0 { newline(depth: depth, into: out) }
    }

    private static func newline(depth: Int, into out: ByteSink) {
        out.append(0x0A)
        out.append(repeating: UInt8(ascii: " "), count: 2 * depth)
    }

    static func writeScalar(_ item: PlistItem, pretty: Bool, encoderStyle: Bool, scratch: inout [UInt8],
                                    keyPath: () -> String, into out: ByteSink) throws {
        switch item {
        case .string(let text):
            appendString(text, escapingSlashes: encoderStyle, scratch: &scratch, into: out)
        case .integer(let i):
            out.appendDecimal(i)
        case .real(let r):
            guard r.value.isFinite else {
                throw PlistError(.notRepresentable, "JSON has no \(r.value.isNaN ? "NaN" : "infinity") (real \(describe(keyPath())))")
            }
            appendReal(r.value, withoutIntegralFraction: encoderStyle, into: out)
        case .bool(let b):
            out.append(b ? "true" : "false" as StaticString)
        case .date(let d):
            out.append(UInt8(ascii: "\""))
            guard ISO8601.appendFormatted(d, into: out, fraction: true) else {
                throw PlistError(.notRepresentable, "the date \(describe(keyPath())) (\(d.secondsSinceReferenceDate) s since 2001) cannot be written as an ISO 8601 date")
            }
            out.append(UInt8(ascii: "\""))
        case .data(let bytes):
            out.append(UInt8(ascii: "\""))
            Base64.encode(bytes.assumingMemoryBound(to: UInt8.self), into: out)
            out.append(UInt8(ascii: "\""))
        case .uid(let u):
            out.append(pretty ? "{\"CF$UID\": " : "{\"CF$UID\":" as StaticString)
            out.appendDecimal(PlistInteger(u))
            out.append(UInt8(ascii: "}"))
        case .null:
            out.append("null")
        case .array, .dictionary:
            // The traversal hands containers over as begin/end steps.
            break
        }
    }

    private static func describe(_ keyPath: String) -> String {
        keyPath.isEmpty ? "at the top level" : "at \"\(keyPath)\""
    }

    /// Swift's shortest round-tripping form, which is valid JSON for finite
    /// values (`1.0`, `0.1`, `1e+20`, `5e-324`, `-0.0`); `JSONEncoder` leaves
    /// the `.0` of integral values out (`1`, `-0`).
    private static func appendReal(_ value: Double, withoutIntegralFraction: Bool, into out: ByteSink) {
        var text = value.description
        if withoutIntegralFraction, text.hasSuffix(".0") { text.removeLast(2) }
        out.append(utf8: text)
    }

    /// A quoted JSON string: `"` and `\` (and `/` when `escapingSlashes`, as
    /// `JSONEncoder` writes it) escaped, control characters as `\n`, `\t`...
    /// or `\u00XX`; everything else copied as UTF-8.
    static func appendString(_ text: TextBytes, escapingSlashes: Bool = false, scratch: inout [UInt8], into out: ByteSink) {
        text.withUTF8(scratch: &scratch) { out.appendQuoted($0, escaping: JSONEscaping(escapingSlashes: escapingSlashes)) }
    }
}

/// RFC 8259's escapes, with `/` escaped too when `escapingSlashes`.
private struct JSONEscaping: BackslashEscaping {
    var escapingSlashes: Bool

    static let hexEscapePrefix: StaticString = "u00"

    @inline(__always)
    func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x22 || b == 0x5C || (b == 0x2F && escapingSlashes)
    }

    func letter(for b: UInt8) -> UInt8? {
        switch b {
        case 0x22, 0x5C, 0x2F: return b
        case 0x0A: return UInt8(ascii: "n")
        case 0x0D: return UInt8(ascii: "r")
        case 0x09: return UInt8(ascii: "t")
        case 0x08: return UInt8(ascii: "b")
        case 0x0C: return UInt8(ascii: "f")
        default: return nil
        }
    }
}
