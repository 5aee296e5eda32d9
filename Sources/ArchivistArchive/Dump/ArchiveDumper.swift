import ArchivistCore

/// Renders a keyed archive as objects, not `$objects` indices: each object with
/// its class and fields in order, inline primitives marked, Foundation values
/// shown as values, an object referenced from several places labelled `@N` where
/// it is first shown and referred to as `-> @N` after (so cycles stay finite).
public struct ArchiveDumper {
    let graph: ObjectGraph
    let options: DumpOptions
    /// References to each object (runs of an attributed string shown in
    /// place of its attributes array count as its dictionaries' references).
    var incoming: [Int]
    var shown: [Bool]
    var onStack: [Bool]
    /// Labels of shared objects: their index, or in a stable dump the order in which they appear.
    var labels: [Int: Int] = [:]
    var out: DumpBuffer
    /// What the view may still show, shared with nested dumpers.
    var budget: ViewBudget
    /// The text of each data value of `$objects` referred to from several
    /// places, at the indent it was rendered at, and the values it showed:
    /// a property list inside is decoded once, not at every reference.
    var sharedData: [Int: (indent: Int, text: String, values: Int)] = [:]

    /// The text of an archive's graph; an error when it would show more than
    /// `options.maxValues` values.
    ///
    /// - Parameters:
    ///   - graph: The archive's object graph.
    ///   - options: Depth, nested data and limits.
    /// - Returns: The text, one line per field or value.
    /// - Throws: `PlistError` when the view would break a limit.
    public static func render(_ graph: ObjectGraph, options: DumpOptions = DumpOptions()) throws -> String {
        let sink = ByteSink()
        try render(graph, options: options, into: sink)
        return sink.text()
    }

    /// Writes the text of an archive's graph into `sink` as it is made (a
    /// draining sink sends it on while the rest is rendered).
    package static func render(_ graph: ObjectGraph, options: DumpOptions = DumpOptions(), into sink: ByteSink) throws {
        var d = ArchiveDumper(graph: graph, options: options, budget: ViewBudget(options, inputBytes: graph.inputMeasure), out: DumpBuffer(sink))
        let objects = graph.objectCount
        let kind = graph.readFrom == "NSArchiver" ? "NSArchiver typedstream"
            : graph.readFrom == "NIBArchive" ? "NIBArchive (iOS compiled nib)" : "NSKeyedArchiver archive"
        d.out += options.stable ? "\(kind), \(counted(objects, "object"))\n"
            : "\(kind), \(graph.nodes.count) entries in $objects, \(counted(objects, "object"))\n"
        try d.body(indent: 0)
        d.out += "\n"
    }

    /// The text of one node of a graph (what a key path leads to).
    ///
    /// - Parameters:
    ///   - graph: The archive's object graph.
    ///   - index: The node's index in `graph.nodes`.
    ///   - options: Depth, nested data and limits.
    /// - Returns: The text of the node and what it refers to.
    /// - Throws: `PlistError` when the view would break a limit.
    public static func render(_ graph: ObjectGraph, node index: Int, options: DumpOptions = DumpOptions()) throws -> String {
        let sink = ByteSink()
        try render(graph, node: index, options: options, into: sink)
        return sink.text()
    }

    /// Writes the text of one node of a graph into `sink`.
    package static func render(_ graph: ObjectGraph, node index: Int, options: DumpOptions = DumpOptions(), into sink: ByteSink) throws {
        var d = ArchiveDumper(graph: graph, options: options, budget: ViewBudget(options, inputBytes: graph.inputMeasure), out: DumpBuffer(sink))
        try d.node(index, indent: 0)
        d.out += "\n"
    }

    init(graph: ObjectGraph, options: DumpOptions, budget: ViewBudget, out: DumpBuffer) {
        self.graph = graph
        self.out = out
        self.options = options
        self.budget = budget
        incoming = graph.incomingCounts()
        shown = [Bool](repeating: false, count: graph.nodes.count)
        onStack = [Bool](repeating: false, count: graph.nodes.count)
    }

    /// Indents built once: rendering appends them rather than building a string per line.
    private static let pads: [String] = (0..<64).map { String(repeating: "  ", count: $0) }

    /// Two spaces a level (both dumpers indent so).
    static func pad(_ n: Int) -> String { n < pads.count ? pads[n] : String(repeating: "  ", count: n) }

    private func pad(_ n: Int) -> String { Self.pad(n) }

    /// `{ topKey = object ... }` at an indent.
    mutating func body(indent: Int) throws {
        out += "{\n"
        for (key, entry) in graph.topEntries {
            out += pad(indent + 1)
            out += TerminalText.escaped(key)
            out += " = "
            switch entry {
            case .object(let object): try node(object, indent: indent + 1)
            case .value(let value): try inline(value, indent: indent + 1)
            }
            out += "\n"
        }
        out += pad(indent) + "}"
    }

    private func label(_ i: Int) -> String { incoming[i] > 1 ? " " + options.paint("@\(labels[i] ?? i)", .label) : "" }

    mutating func node(_ i: Int, indent: Int) throws {
        try budget.spend(object: i)
        try out.sink.checkDrain()
        guard i >= 0, i < graph.nodes.count else { out += "<missing object \(i)>"; return }
        switch graph.nodes[i] {
        case .null:
            out += "nil"
        case .value(let v):
            // A long string or data referred to from several places is shown
            // once, labelled, and referred to after; a short value is shown in
            // full at each reference, and from the second on its bytes count.
            if incoming[i] > 1, ViewBudget.bytes(of: v) >= PlistTreeCopy.sharedFrom {
                if shown[i] { out += options.paint("-> @\(labels[i] ?? i)", .label); return }
                labels[i] = options.stable ? labels.count + 1 : i
                out += options.paint("@\(labels[i] ?? i)", .label) + " "
            } else if shown[i] {
                try budget.spendRepeated(bytes: ViewBudget.bytes(of: v), object: i)
            }
            shown[i] = true
            if case .data(let bytes) = v {
                try data(bytes, indent: indent, node: i)
            } else if case .string(let s) = v {
                out.appendQuoted(s, options)
            } else {
                out += DumpText.scalar(v)
            }
        case .classDescription(let name, _):
            out += "<class \(TerminalText.escaped(name.description))>"
        case .object(let o):
            if onStack[i] || (shown[i] && incoming[i] > 1) {
                out += options.paint("-> @\(labels[i] ?? i)", .label)
                return
            }
            shown[i] = true
            if incoming[i] > 1 { labels[i] = options.stable ? labels.count + 1 : i }
            if indent > options.depthLimit {
                out += "\(TerminalText.escaped(o.className.readable))\(label(i)) { … }"
                return
            }
            onStack[i] = true
            defer { onStack[i] = false }
            switch FoundationValue.interpret(o, in: graph) {
            case .line(let line)? where line.captions: try generic(o, i, indent: indent, caption: line)
            case let value?: try foundation(value, o, i, indent: indent)
            case nil: try generic(o, i, indent: indent)
            }
        }
    }

    /// Data as `TreeDumper` shows it (a property list inside decoded); for a
    /// data value of `$objects` (`node`) referred to from several places, the
    /// text is made once and reused.
    private mutating func data(_ bytes: [UInt8], indent: Int, node: Int? = nil) throws {
        if let i = node, let cached = sharedData[i], cached.indent == indent {
            try budget.spend(cached.values, object: i)
            out += cached.text
            return
        }
        guard let i = node, incoming[i] > 1 else {
            var t = TreeDumper(options: options, budget: budget, out: out)
            try t.value(.data(bytes), indent: indent)
            budget = t.budget
            return
        }
        let before = budget.left
        var t = TreeDumper(options: options, budget: budget, out: DumpBuffer(ByteSink()))
        try t.value(.data(bytes), indent: indent)
        budget = t.budget
        let text = t.out.text
        sharedData[i] = (indent, text, before - budget.left)
        out += text
    }

    private mutating func foundation(_ value: FoundationValue, _ o: ArchivedObject, _ i: Int, indent: Int) throws {
        let name = options.paint(TerminalText.escaped(o.className.readable), .className) + label(i)
        switch value {
        case .list(let refs):
            if refs.isEmpty { out += "\(name) []"; return }
            out += "\(name) [\n"
            for r in refs {
                out += pad(indent + 1)
                try node(r, indent: indent + 1)
                out += "\n"
            }
            out += pad(indent)
            out += "]"
        case .map(let keys, let values):
            if keys.isEmpty { out += "\(name) {}"; return }
            out += "\(name) {\n"
            var entries = Array(zip(keys, values))
            if options.stable { entries.sort { (graph.string(.reference($0.0)) ?? "") < (graph.string(.reference($1.0)) ?? "") } }
            for (k, v) in entries {
                out += pad(indent + 1)
                try node(k, indent: indent + 1)
                out += " => "
                try node(v, indent: indent + 1)
                out += "\n"
            }
            out += pad(indent) + "}"
        case .string(let s):
            out.appendQuoted(s, options)
        case .data(let bytes):
            try data(bytes, indent: indent)
        case .date(let t):
            out += DumpText.scalar(.date(PlistDate(secondsSinceReferenceDate: t)))
            out += " ("
            out += TerminalText.escaped(o.className.readable)
            out += ")"
        case .described(let d):
            switch d.lead {
            case .className: out += "\(name) " + TerminalText.escaped(d.text)
            case .word(let word): out += word + " " + TerminalText.escaped(d.text)
            case .none: out += TerminalText.escaped(d.text) + label(i)
            }
        case .url(let base, let relative):
            out += "URL "
            if let relative { try node(relative, indent: indent) } else { out += "nil" }
            if let base {
                out += " relative to "
                try node(base, indent: indent)
            }
        case .null:
            out += ClassDescription.nsNull.name
        case .counted(let entries):
            if entries.isEmpty { out += "\(name) []"; return }
            out += "\(name) [\n"
            for (object, count) in entries {
                out += pad(indent + 1)
                try node(object, indent: indent + 1)
                out += " × \(count)\n"
            }
            out += pad(indent) + "]"
        case .line(let line):
            out += name
            try lineParts(line.parts, indent: indent, caption: false)
        case .attributedString(let a):
            out += "\(name) " + options.paint(DumpText.quoted(a.text), .string)
            if !a.runs.isEmpty {
                // Each run's text, then its attribute dictionary (labelled
                // where several runs share it, as a shared object is).
                for (d, uses) in a.dictionaryUses where incoming.indices.contains(d) { incoming[d] += uses - 1 }
                out += " runs [\n"
                for run in a.runs {
                    out += pad(indent + 1)
                    out += options.paint(DumpText.quoted(run.text), .string) + " "
                    try node(run.attributes, indent: indent + 1)
                    out += "\n"
                }
                out += pad(indent)
                out += "]"
            } else if let attributes = a.attributes {
                out += " attributes "
                try node(attributes, indent: indent)
            }
        }
    }

    /// A line's parts, each after a space: its label, then its word, quoted
    /// text or object (in a caption only the object's label: its fields
    /// follow; in a line as `lineObject` shows it).
    private mutating func lineParts(_ parts: [ArchivedLine.Part], indent: Int, caption: Bool) throws {
        for part in parts {
            out += " "
            if let word = part.label { out += word + " " }
            switch part.value {
            case .word(let w): out += TerminalText.escaped(w)
            case .text(let t): out += options.paint(DumpText.quoted(t), .string)
            case .object(let r):
                if caption { out += "@\(labels[r] ?? r)" } else { try lineObject(r, indent: indent) }
            }
        }
    }

    /// An object a line names: `@N (Class)` once it has been shown, else in
    /// full (so an object the line alone refers to is not hidden).
    private mutating func lineObject(_ r: Int, indent: Int) throws {
        if case .object(let o)? = graph.nodes[safe: r], onStack[r] || (shown[r] && incoming[r] > 1) {
            try budget.spend(object: r)
            out += options.paint("@\(labels[r] ?? r)", .label) + " (" + TerminalText.escaped(o.className.readable) + ")"
        } else {
            try node(r, indent: indent)
        }
    }

    /// A value written in place of a reference (an inline field, a plain
    /// `$top` entry), marked as such.
    private mutating func inline(_ v: PlistValue, indent: Int) throws {
        switch v {
        case .integer, .real, .bool:
            // The note says the kind once: a 32-bit real is "(inline float)".
            let text: String, note: String
            switch v {
            case .integer: (text, note) = (DumpText.scalar(v), "(inline integer)")
            case .real(let r) where r.width == .bits32: (text, note) = ("\(Float(r.value))", "(inline float)")
            case .real: (text, note) = (DumpText.scalar(v), "(inline real)")
            default: (text, note) = (DumpText.scalar(v), "(inline bool)")
            }
            out += text
            out += " "
            out += options.color ? options.paint(note, .inline) : note
        case .data(let bytes):
            try data(bytes, indent: indent)
        case .array, .dictionary, .string, .date, .uid, .null:
            var t = TreeDumper(options: options, budget: budget, out: out)
            try t.value(v, indent: indent)
            budget = t.budget
            out += " (inline)"
        }
    }

    private mutating func generic(_ o: ArchivedObject, _ i: Int, indent: Int, caption: ArchivedLine? = nil) throws {
        out += options.paint(TerminalText.escaped(o.className.description), .className)
        if incoming[i] > 1 { out += label(i) }
        if let caption {
            // A caption holds words and texts only: its objects are among the fields below.
            try lineParts(caption.parts, indent: indent, caption: true)
        }
        if o.fields.isEmpty { out += " {}"; return }
        out += " {\n"
        for field in options.stable ? o.fields.sorted(by: { $0.key < $1.key }) : o.fields {
            out += pad(indent + 1)
            out += TerminalText.escaped(field.key)
            out += " = "
            switch field.value {
            case .inline(let v):
                if let reading = BackupFileField.reading(className: o.className.archived, key: field.key, value: v) {
                    // MBFile's mode and times: the reading, then the integer archived.
                    out += reading.text + " "
                    let note = "(inline integer \(DumpText.scalar(v)), \(reading.note))"
                    out += options.color ? options.paint(note, .inline) : note
                } else {
                    try inline(v, indent: indent + 1)
                }
            case .reference(let r):
                try node(r, indent: indent + 1)
            case .references(let refs):
                out += "[\n"
                for r in refs {
                    out += pad(indent + 2)
                    try node(r, indent: indent + 2)
                    out += "\n"
                }
                out += pad(indent + 1) + "]"
            }
            out += "\n"
        }
        out += pad(indent) + "}"
    }
}

/// The dump's text as UTF-8 bytes in a `ByteSink`: appending copies bytes,
/// where appending to a `String` costs hundreds of instructions a time (a dump
/// makes one append per token). Nested dumpers share their parent's sink.
struct DumpBuffer {
    let sink: ByteSink

    init(_ sink: ByteSink) {
        self.sink = sink
    }

    static func += (buffer: inout DumpBuffer, text: String) {
        buffer.sink.append(utf8: text)
    }

    /// A string as `DumpText.quoted` shows it, painted when the options
    /// say so; a string that needs no escapes goes in with no copy made.
    mutating func appendQuoted(_ s: String, _ options: DumpOptions) {
        guard !options.color, PlistValue.quotesAsItIs(s) else {
            self += options.paint(DumpText.quoted(s), .string)
            return
        }
        sink.append(UInt8(ascii: "\""))
        sink.append(utf8: s)
        sink.append(UInt8(ascii: "\""))
    }

    var text: String { sink.text() }
}
