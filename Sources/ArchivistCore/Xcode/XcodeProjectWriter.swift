/// Writes an Xcode project (`project.pbxproj`) as Xcode writes it, so that a
/// file Xcode wrote reads and writes back byte for byte and any other
/// project comes out as Xcode would save it:
///
/// - the `// !$*UTF8*$!` header, then the top-level dictionary;
/// - `objects` in one `/* Begin ISA section */` ... `/* End ISA section */`
///   block per `isa`, sections in `isa` order, objects sorted by ID;
/// - `PBXBuildFile` and `PBXFileReference` objects (and, before
///   objectVersion 77, synchronized folders) on one line:
///   `{isa = PBXBuildFile; fileRef = ID /* a.swift */; };`;
/// - `isa` first in every object, other keys sorted as Core Foundation sorts;
/// - an object ID written as a value followed by the comment Xcode derives
///   (``XcodeProjectIndex``), except where Xcode writes none
///   (`remoteGlobalIDString`, `TestTargetID`, keys);
/// - strings bare only when made of `[A-Za-z0-9_$./]` (and holding
///   neither `//` nor `___`), quoted with escapes otherwise; arrays with a
///   comma after every element.
package enum XcodeProjectWriter {
    /// Appends the project `source` (which `XcodeProjectIndex.isProject`
    /// accepted) in Xcode's layout to `out`.
    package static func write<S: PlistNodes>(_ source: inout S, projectName: String?, into out: ByteSink) throws {
        let index = try XcodeProjectIndex(&source, projectName: projectName)
        var emitter = XcodeProjectEmitter(index: index, out: out)
        try emitter.document(&source)
    }
}

/// The writer's state: the index, the output and the scratch buffers it reuses.
private struct XcodeProjectEmitter {
    let index: XcodeProjectIndex
    let out: ByteSink
    var scratch: [UInt8] = []
    /// The lengths of the project's IDs: a string of another length is no ID.
    let idLengths: Set<Int>
    /// How deep the writer is, bounded like the readers' nesting.
    var depth = 0

    init(index: XcodeProjectIndex, out: ByteSink) {
        self.index = index
        self.out = out
        idLengths = Set(index.objects.map { $0.id.utf8.count })
    }

    /// Where a value stands: which tells whether its IDs get comments and
    /// whether its strings are always quoted.
    enum Context {
        case plain
        /// Under a key whose IDs Xcode writes without comments.
        case uncommented
        /// The lines of a `shellScript` array (objectVersion 110), always quoted.
        case scriptLines
    }

    mutating func document<S: PlistNodes>(_ source: inout S) throws {
        out.append("// !$*UTF8*$!\n")
        let root = source.rootNode
        guard case .dictionary = try source.item(root) else { throw PlistError(.invalidValue, "an Xcode project is a dictionary") }
        try source.enter(root, depth: 0)
        out.append("{\n")
        for (key, value) in try sortedEntries(root, &source) {
            out.append(UInt8(ascii: "\t"))
            appendString(key, quoteAlways: false)
            out.append(" = ")
            if key == "objects", value == index.objectsNode {
                try objects(&source)
            } else {
                try write(value, indent: 1, singleLine: false, context: .plain, &source)
            }
            out.append(";\n")
        }
        source.leave(root)
        out.append("}\n")
    }

    /// The `objects` dictionary, in sections.
    mutating func objects<S: PlistNodes>(_ source: inout S) throws {
        try source.enter(index.objectsNode, depth: 1)
        defer { source.leave(index.objectsNode) }
        let order = index.objects.indices.sorted { a, b in
            let x = index.objects[a], y = index.objects[b]
            if x.isa != y.isa { return Self.precedes(x.isa, y.isa) }
            return Self.precedes(x.id, y.id)
        }
        out.append("{\n")
        var section: String?
        for k in order {
            let object = index.objects[k]
            if object.isa != section {
                if let section { endSection(section) }
                out.append("\n/* Begin ")
                out.append(utf8: object.isa)
                out.append(" section */\n")
                section = object.isa
            }
            out.append("\t\t")
            appendString(object.id, quoteAlways: false)
            if let comment = object.comment { appendComment(comment) }
            out.append(" = ")
            try write(object.node, indent: 2, singleLine: isSingleLine(object.isa), context: .plain, &source)
            out.append(";\n")
        }
        if let section { endSection(section) }
        out.append("\t}")
    }

    func endSection(_ isa: String) {
        out.append("/* End ")
        out.append(utf8: isa)
        out.append(" section */\n")
    }

    /// The kinds of object Xcode writes on one line.
    func isSingleLine(_ isa: String) -> Bool {
        switch isa {
        case "PBXBuildFile", "PBXFileReference": return true
        case "PBXFileSystemSynchronizedRootGroup": return index.objectVersion < 77
        default: return false
        }
    }

    mutating func write<S: PlistNodes>(_ node: Int, indent: Int, singleLine: Bool, context: Context, _ source: inout S) throws {
        switch try source.item(node) {
        case .string(let text):
            let quoteAlways = context == .scriptLines
            var buffer: [UInt8] = []
            swap(&buffer, &scratch)
            defer { swap(&buffer, &scratch) }
            let (out, index, idLengths) = (out, index, idLengths)
            text.withUTF8(scratch: &buffer) { bytes in
                Self.appendString(bytes, quoteAlways: quoteAlways, into: out)
                guard context != .uncommented, idLengths.contains(bytes.count) else { return }
                let id = String(decoding: bytes, as: UTF8.self)
                if let comment = index.object(id)?.comment { Self.appendComment(comment, into: out) }
            }
        case .data(let bytes):
            Self.appendData(bytes, into: out)
        case .array(let count):
            try nest(node, &source)
            defer { unnest(node, &source) }
            out.append(UInt8(ascii: "("))
            for i in 0..<count {
                if !singleLine {
                    out.append(0x0A)
                    out.append(repeating: 0x09, count: indent + 1)
                }
                try write(try source.element(i, of: node), indent: indent + 1, singleLine: singleLine, context: context, &source)
                out.append(singleLine ? ", " : ",")
            }
            if !singleLine {
                out.append(0x0A)
                out.append(repeating: 0x09, count: indent)
            }
            out.append(UInt8(ascii: ")"))
        case .dictionary:
            try nest(node, &source)
            defer { unnest(node, &source) }
            out.append(UInt8(ascii: "{"))
            for (key, value) in try sortedEntries(node, &source) {
                if !singleLine {
                    out.append(0x0A)
                    out.append(repeating: 0x09, count: indent + 1)
                }
                appendString(key, quoteAlways: false)
                out.append(" = ")
                let inner: Context
                switch key {
                case "remoteGlobalIDString", "TestTargetID": inner = .uncommented
                case "shellScript" where index.objectVersion >= 110: inner = .scriptLines
                default: inner = context == .scriptLines ? .plain : context
                }
                try write(value, indent: indent + 1, singleLine: singleLine, context: inner, &source)
                out.append(singleLine ? "; " : ";")
            }
            if !singleLine {
                out.append(0x0A)
                out.append(repeating: 0x09, count: indent)
            }
            out.append(UInt8(ascii: "}"))
        case let item:
            throw PlistError(.notRepresentable,
                             "OpenStep has no \(item.kind.name) type: an Xcode project holds only strings, arrays and dictionaries (write xml1, binary1 or json instead)")
        }
    }

    mutating func nest<S: PlistNodes>(_ node: Int, _ source: inout S) throws {
        depth += 1
        guard depth <= 512 else { throw PlistError(.limitExceeded, "an Xcode project nested more than 512 containers deep") }
        try source.enter(node, depth: depth)
    }

    mutating func unnest<S: PlistNodes>(_ node: Int, _ source: inout S) {
        source.leave(node)
        depth -= 1
    }

    /// A dictionary's entries as Xcode orders them: `isa` first, the others
    /// sorted by UTF-16 code units.
    mutating func sortedEntries<S: PlistNodes>(_ node: Int, _ source: inout S) throws -> [(key: String, value: Int)] {
        guard case .dictionary(let count) = try source.item(node) else { return [] }
        var entries: [(key: String, value: Int)] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            guard let key = try XcodeProjectIndex.text(try source.key(i, of: node), &source, scratch: &scratch) else {
                throw PlistError(.invalidValue, "a dictionary key is not a string")
            }
            entries.append((key, try source.value(i, of: node)))
        }
        entries.sort { a, b in
            if a.key == "isa" { return b.key != "isa" }
            if b.key == "isa" { return false }
            return Self.precedes(a.key, b.key)
        }
        return entries
    }

    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    func appendComment(_ comment: String) {
        Self.appendComment(comment, into: out)
    }

    static func appendComment(_ comment: String, into out: ByteSink) {
        out.append(" /* ")
        out.append(utf8: comment)
        out.append(" */")
    }

    func appendString(_ text: String, quoteAlways: Bool) {
        var text = text
        text.withUTF8 { Self.appendString($0, quoteAlways: quoteAlways, into: out) }
    }

    /// Bare when Xcode writes it bare, quoted with Core Foundation's escapes otherwise.
    static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, quoteAlways: Bool, into out: ByteSink) {
        if !quoteAlways, isBare(bytes) {
            out.append(bytes)
            return
        }
        out.appendQuoted(bytes, escaping: XcodeEscaping())
    }

    /// `[A-Za-z0-9_$./]+` holding neither `//` nor `___`.
    static func isBare(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var previous: UInt8 = 0, underscores = 0
        for b in bytes {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "$"), UInt8(ascii: "."):
                break
            case UInt8(ascii: "/"):
                if previous == b { return false }
            case UInt8(ascii: "_"):
                underscores = previous == b ? underscores + 1 : 1
                if underscores >= 3 { return false }
            default:
                return false
            }
            previous = b
        }
        return true
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func appendData(_ bytes: UnsafeRawBufferPointer, into out: ByteSink) {
        out.append(UInt8(ascii: "<"))
        for (k, b) in bytes.enumerated() {
            if k > 0, k % 4 == 0 { out.append(UInt8(ascii: " ")) }
            out.append(hexDigits[Int(b >> 4)])
            out.append(hexDigits[Int(b & 0x0F)])
        }
        out.append(UInt8(ascii: ">"))
    }
}

/// Xcode's escapes in quoted strings: `\"`, `\\`, `\n`, `\t`, and other
/// control characters in hexadecimal.
private struct XcodeEscaping: BackslashEscaping {
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
        default: return nil
        }
    }
}
