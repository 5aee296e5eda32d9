/// Pretty JSON written as it is produced, token by token, into a `ByteSink`:
/// the same text `JSONPlistWriter` gives (with `pretty`) for the tree the
/// tokens describe, without building that tree. For views that make their
/// JSON from another structure (`dump --json`) and may stream it out.
package struct JSONStream {
    /// An open container: how it was reached (for error messages and
    /// pointers), and the entries of the container around it written so far
    /// (taken up again when it closes).
    private struct Level {
        var outerCount: Int
        var slot: Slot
    }

    private enum Slot {
        case root
        case element(Int)
        case entry(String)
    }

    private let out: ByteSink
    /// Containers open around the text, outside this stream (for indentation).
    private let outerDepth: Int
    /// One line: no line breaks or indents, `"key":value` (JSON Lines).
    private let compact: Bool
    private var levels: [Level] = []
    /// Entries of the innermost open container written so far.
    private var count = 0
    /// How the next value is reached: set by `key` or `element`.
    private var next = Slot.root
    /// The writer's room for transcoding text (unused for UTF-8).
    private var scratch: [UInt8] = []

    /// A stream writing into `out`; `depth` is the number of containers the
    /// text will be placed in (by `embed` of another stream), for its indents.
    /// With `compact`, the text is one line without spaces between tokens
    /// (for JSON Lines), otherwise indented as the pretty writer indents.
    package init(into out: ByteSink, depth: Int = 0, compact: Bool = false) {
        self.out = out
        outerDepth = max(depth, 0)
        self.compact = compact
    }

    /// Starts the next entry of the open object: separator, line break, indent and `"key": `.
    package mutating func key(_ key: String) {
        separate()
        string(key)
        if compact { out.append(UInt8(ascii: ":")) } else { out.append(": " as StaticString) }
        next = .entry(key)
    }

    /// Starts the next element of the open array.
    package mutating func element() {
        let index = count
        separate()
        next = .element(index)
    }

    private mutating func separate() {
        guard !levels.isEmpty else { return }
        if count > 0 { out.append(UInt8(ascii: ",")) }
        count += 1
        if compact { return }
        lineBreak()
    }

    /// A line feed and the indent of the open containers.
    private func lineBreak() {
        out.appendLineFeed(indent: 2 * (outerDepth + levels.count))
    }

    package mutating func beginObject() {
        out.append(UInt8(ascii: "{"))
        levels.append(Level(outerCount: count, slot: next))
        count = 0
    }

    package mutating func endObject() {
        close()
        out.append(UInt8(ascii: "}"))
    }

    package mutating func beginArray() {
        out.append(UInt8(ascii: "["))
        levels.append(Level(outerCount: count, slot: next))
        count = 0
    }

    package mutating func endArray() {
        close()
        out.append(UInt8(ascii: "]"))
    }

    private mutating func close() {
        guard let level = levels.popLast() else { return }
        if count > 0, !compact { lineBreak() }
        count = level.outerCount
        next = level.slot
    }

    /// A string value.
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { JSONPlistWriter.appendString(TextBytes(UnsafeRawBufferPointer($0), .utf8), scratch: &scratch, into: out) }
    }

    /// A value, containers included, as `JSONPlistWriter` writes it; NaN,
    /// infinities and dates beyond the calendar are errors located by the
    /// key path of the JSON written so far.
    package mutating func value(_ v: PlistValue) throws {
        switch v {
        case .array(let items):
            beginArray()
            for item in items {
                element()
                try value(item)
            }
            endArray()
        case .dictionary(let d):
            beginObject()
            for (k, item) in d {
                key(k)
                try value(item)
            }
            endObject()
        case .string(let text):
            string(text)
        case .data(let bytes):
            try bytes.withUnsafeBytes { try scalar(.data($0)) }
        case .integer(let i): try scalar(.integer(i))
        case .real(let r): try scalar(.real(r))
        case .bool(let b): try scalar(.bool(b))
        case .date(let d): try scalar(.date(d))
        case .uid(let u): try scalar(.uid(u))
        case .null: try scalar(.null)
        }
    }

    /// Node `node` of `tree` and everything below it, as `value(_:)` writes
    /// the same value, read from the tree (no value of the whole is made).
    /// `writingData` may write a data node's bytes as something else (the
    /// document they hold) as the stream's next value and return true;
    /// false keeps the data.
    package mutating func value(in tree: PlistTree, at node: Int, writingData: DataWriter = { _, _ in false }) throws {
        var references: SharedReferences?
        try value(in: tree, at: node, writingData: writingData, references: &references)
    }

    /// What writes a data node's bytes in place of the data (see `value(in:at:writingData:)`).
    package typealias DataWriter = (inout JSONStream, [UInt8]) throws -> Bool

    /// A stream whose text is to be embedded (``embed(_:)``) as this
    /// stream's next value: indented and compact as this one.
    package func nestedStream(into sink: ByteSink) -> JSONStream {
        JSONStream(into: sink, depth: outerDepth + levels.count, compact: compact)
    }

    /// Node `node` of `tree` as a view shows it: as `value(in:at:writingData:)`,
    /// but a large value the tree shares (`PlistSharedNodes`) is written in
    /// full where it first appears and as `{"$ref": "#/POINTER"}` after,
    /// POINTER the JSON Pointer (RFC 6901) of that first appearance from
    /// the value written here (a JSON Reference). The pointers written may
    /// repeat at most `Limits.repeatBudget(forInput:)` bytes for the tree's
    /// input, checked before each is written.
    package mutating func view(of tree: PlistTree, at node: Int, writingData: DataWriter = { _, _ in false }) throws {
        let shared = PlistSharedNodes(tree)
        var references: SharedReferences?
        if shared.any {
            references = SharedReferences(shared: shared, base: levels.count,
                                          limit: Limits.default.repeatBudget(forInput: tree.inputMeasure))
        }
        try value(in: tree, at: node, writingData: writingData, references: &references)
    }

    /// The shared nodes of a view, the pointers of those written, and what
    /// the pointers written again may still cost.
    private struct SharedReferences {
        let shared: PlistSharedNodes
        /// The open containers around the view.
        let base: Int
        let limit: Int
        var pointers: [Int: [UInt8]] = [:]
        var spent = 0
    }

    /// Throws once the sink's output failed (a closed pipe), so that no more is made.
    package func checkOutput() throws {
        try out.checkDrain()
    }

    private mutating func value(in tree: PlistTree, at node: Int, writingData: DataWriter,
                                references: inout SharedReferences?) throws {
        try out.checkDrain()
        if references?.shared.isReferable(node, in: tree) == true, try reference(node, &references) { return }
        switch tree.kind(of: node) {
        case .array:
            beginArray()
            for i in 0..<tree.count(of: node) {
                element()
                try value(in: tree, at: tree.element(i, of: node), writingData: writingData, references: &references)
            }
            endArray()
        case .dictionary:
            beginObject()
            for i in 0..<tree.count(of: node) {
                let entry = tree.entry(i, of: node)
                key(tree.string(at: entry.key) ?? "")
                try value(in: tree, at: entry.value, writingData: writingData, references: &references)
            }
            endObject()
        case .data:
            if let bytes = tree.data(at: node), try writingData(&self, bytes) { return }
            try value(tree.value(at: node))
        case .string, .integer, .real, .bool, .date, .uid, .null:
            try value(tree.value(at: node))
        }
    }

    /// For a shared node written before, writes `{"$ref": POINTER}` and
    /// returns true; otherwise records where the node is written and returns false.
    private mutating func reference(_ node: Int, _ references: inout SharedReferences?) throws -> Bool {
        guard var refs = references else { return false }
        defer { references = refs }
        if let pointer = refs.pointers[node] {
            refs.spent += pointer.count
            guard refs.spent <= refs.limit else {
                throw PlistError(.limitExceeded, "the view would repeat more than \(refs.limit) bytes of references to shared values (16 times the input)",
                                 at: .archive(object: nil, keyPath: JSONStream.keyPath(levels, next)))
            }
            beginObject()
            key("$ref")
            pointer.withUnsafeBytes { JSONPlistWriter.appendString(TextBytes($0, .utf8), scratch: &scratch, into: out) }
            endObject()
            return true
        }
        var pointer: [UInt8] = Array("#".utf8)
        func append(_ slot: Slot) {
            switch slot {
            case .root: return
            case .element(let index): pointer.append(UInt8(ascii: "/")); pointer.append(contentsOf: String(index).utf8)
            case .entry(let key):
                pointer.append(UInt8(ascii: "/"))
                for byte in key.utf8 {
                    switch byte {
                    case UInt8(ascii: "~"): pointer.append(contentsOf: "~0".utf8)
                    case UInt8(ascii: "/"): pointer.append(contentsOf: "~1".utf8)
                    default: pointer.append(byte)
                    }
                }
            }
        }
        for level in levels.dropFirst(refs.base + 1) { append(level.slot) }
        if levels.count > refs.base { append(next) }
        refs.pointers[node] = pointer
        return false
    }

    /// A scalar as the pretty writer writes it.
    private mutating func scalar(_ item: PlistItem) throws {
        let slot = next
        let levels = self.levels
        try JSONPlistWriter.writeScalar(item, pretty: !compact, encoderStyle: false, scratch: &scratch,
                                        keyPath: { JSONStream.keyPath(levels, slot) }, into: out)
    }

    /// A value another stream wrote (made with this stream's depth at this
    /// point: one more than its open containers).
    package mutating func embed(_ text: ByteSink) {
        out.append(text.bytes())
    }

    /// Ends the text (a line break, as the pretty writer ends it).
    package func finish() {
        out.append(0x0A)
    }

    private static func keyPath(_ levels: [Level], _ slot: Slot) -> String {
        var path = ""
        func append(_ slot: Slot) {
            switch slot {
            case .root: break
            case .element(let index): path += "[\(index)]"
            case .entry(let key): path += path.isEmpty ? key : "." + key
            }
        }
        for level in levels { append(level.slot) }
        append(slot)
        return path
    }
}
