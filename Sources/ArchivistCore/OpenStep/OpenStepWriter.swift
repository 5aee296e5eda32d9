/// Writes a property-list tree as old-style (OpenStep) text, in the layout of
/// Xcode project files: one entry per line, tab indentation, keys sorted by
/// UTF-16 code units (as Core Foundation sorts them) unless
/// `options.keepKeyOrder` is set.
///
/// ```
/// {
/// 	name = "My App";
/// 	icon = <0fbd7777 12345678 9a>;
/// 	tags = (
/// 		a,
/// 		b
/// 	);
/// }
/// ```
///
/// Strings are quoted only when they are empty, start with `//` or hold a
/// character outside `[A-Za-z0-9_$/:.-]`; inside quotes `"` and `\` are escaped, control
/// characters are written as `\n`, `\t`... or `\U00XX`, other text stays UTF-8.
/// Data is hex in groups of four bytes, as `NSData` describes itself.
///
/// OpenStep holds only strings, data, arrays and dictionaries. Apple's tools
/// refuse to write it for anything else (Core Foundation cannot write OpenStep
/// at all, and `plutil` offers no OpenStep output), so an integer, real,
/// boolean, date, UID or null is an error naming its key path rather than a
/// silent conversion to text that would read back as a string.
package enum OpenStepWriter {
    /// The OpenStep text of `tree`, ending with a newline.
    package static func write(_ tree: PlistTree, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        let out = ByteSink()
        try tree.withView { try write(&$0, options: options, into: out) }
        return out.bytes()
    }

    /// Appends the OpenStep text of `source`, ending with a newline, to `out`.
    package static func write<S: PlistNodes>(_ source: inout S, options: WriteOptions = WriteOptions(), into out: ByteSink) throws {
        if options.layout == .automatic, let template = options.stringsTemplate, try template.write(&source, into: out) {
            return
        }
        if try DocumentLayout.of(&source, as: .openstep, options: options) == .xcodeProject {
            return try XcodeProjectWriter.write(&source, projectName: options.xcodeProjectName, into: out)
        }
        var walk = PlistTraversal(sortKeys: !options.keepKeyOrder)
        var scratch: [UInt8] = []
        while let step = try walk.next(in: &source) {
            switch step {
            case .scalar(let scalar, let slot):
                try begin(slot, depth: walk.depth, source: &source, scratch: &scratch, into: out)
                switch scalar {
                case .string(let text):
                    appendString(text, scratch: &scratch, into: out)
                case .data(let bytes):
                    appendData(bytes, into: out)
                case .integer, .real, .bool, .date, .uid, .null, .array, .dictionary:
                    let path = walk.keyPath(to: slot, in: &source)
                    walk.abandon(in: &source)
                    throw notRepresentable(scalar.kind, at: path, holdsUIDs: (try? holdsUID(&source)) ?? false)
                }
                finish(slot, into: out)
            case .beginArray(_, let slot):
                try begin(slot, depth: walk.depth - 1, source: &source, scratch: &scratch, into: out)
                out.append(UInt8(ascii: "("))
            case .beginDictionary(_, let slot):
                try begin(slot, depth: walk.depth - 1, source: &source, scratch: &scratch, into: out)
                out.append(UInt8(ascii: "{"))
            case .endArray(_, let slot):
                newline(depth: walk.depth, into: out)
                out.append(UInt8(ascii: ")"))
                finish(slot, into: out)
            case .endDictionary(_, let slot):
                newline(depth: walk.depth, into: out)
                out.append(UInt8(ascii: "}"))
                finish(slot, into: out)
            }
        }
        out.append(0x0A)
    }

    /// The separator, line break, indent and key that come before a node.
    private static func begin<S: PlistNodes>(_ slot: PlistTraversal.Slot, depth: Int, source: inout S, scratch: inout [UInt8], into out: ByteSink) throws {
        switch slot {
        case .root:
            break
        case .element(let index):
            if index > 0 { out.append(UInt8(ascii: ",")) }
            newline(depth: depth, into: out)
        case .entry(let key, _):
            guard case .string(let text) = try source.item(key) else {
                throw PlistError(.invalidValue, "a dictionary key is not a string")
            }
            newline(depth: depth, into: out)
            appendString(text, scratch: &scratch, into: out)
            out.append(" = ")
        }
    }

    /// The `;` that ends a dictionary entry.
    private static func finish(_ slot: PlistTraversal.Slot, into out: ByteSink) {
        if case .entry = slot { out.append(UInt8(ascii: ";")) }
    }

    private static func newline(depth: Int, into out: ByteSink) {
        out.append(0x0A)
        out.append(repeating: 0x09, count: depth)
    }

    /// The error for a node of a kind OpenStep lacks, at `path`.
    private static func notRepresentable(_ kind: PlistKind, at path: String, holdsUIDs: Bool) -> PlistError {
        let place = path.isEmpty ? "at the top level" : "at \"\(path)\""
        let instead = holdsUIDs
            ? "the tree holds UIDs (a keyed archive), which only xml1 and binary1 keep: write one of those instead"
            : "write xml1, binary1 or json instead"
        return PlistError(.notRepresentable,
                          "OpenStep has no \(kind.name) type: the \(kind.name) \(place) cannot be written (OpenStep holds only strings, data, arrays and dictionaries; \(instead))")
    }

    /// True when the source holds a UID anywhere.
    private static func holdsUID<S: PlistNodes>(_ source: inout S) throws -> Bool {
        var walk = PlistTraversal(sortKeys: false)
        while let step = try walk.next(in: &source) {
            if case .scalar(.uid, _) = step { return true }
        }
        return false
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `<0fbd7777 12345678 9a>`.
    private static func appendData(_ bytes: UnsafeRawBufferPointer, into out: ByteSink) {
        out.append(UInt8(ascii: "<"))
        for (k, b) in bytes.enumerated() {
            if k > 0, k % 4 == 0 { out.append(UInt8(ascii: " ")) }
            out.append(hexDigits[Int(b >> 4)])
            out.append(hexDigits[Int(b & 0x0F)])
        }
        out.append(UInt8(ascii: ">"))
    }

    /// A string, bare when every byte is one of `[A-Za-z0-9_$/:.-]` and it
    /// does not start with `//` (which readers take for a comment), quoted
    /// with escapes otherwise.
    static func appendString(_ text: TextBytes, scratch: inout [UInt8], into out: ByteSink) {
        text.withUTF8(scratch: &scratch) { bytes in
            let startsComment = bytes.count >= 2 && bytes[0] == UInt8(ascii: "/") && bytes[1] == UInt8(ascii: "/")
            if !bytes.isEmpty, !startsComment, bytes.allSatisfy(OpenStepParser.isUnquotedCharacter) {
                out.append(bytes)
                return
            }
            out.appendQuoted(bytes, escaping: OpenStepEscaping())
        }
    }
}

/// Core Foundation's old-style escapes: control characters, `"`, `\` and DEL.
struct OpenStepEscaping: BackslashEscaping {
    static let hexEscapePrefix: StaticString = "U00"

    @inline(__always)
    func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F
    }

    func letter(for b: UInt8) -> UInt8? {
        switch b {
        case 0x22, 0x5C: return b
        case 0x0A: return UInt8(ascii: "n")
        case 0x09: return UInt8(ascii: "t")
        case 0x0D: return UInt8(ascii: "r")
        case 0x07: return UInt8(ascii: "a")
        case 0x08: return UInt8(ascii: "b")
        case 0x0C: return UInt8(ascii: "f")
        case 0x0B: return UInt8(ascii: "v")
        default: return nil
        }
    }
}
