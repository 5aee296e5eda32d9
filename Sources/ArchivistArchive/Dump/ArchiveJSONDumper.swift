import ArchivistCore

/// The machine-readable form of `dump`: the same view as `ArchiveDumper`,
/// written as JSON as it is made (no tree of the view is built). Objects are
/// `{"class": ..., "fields": [...]}` with `"id"` when shared; later references
/// are `{"ref": N}` (strings, data and dates are values: shown in full
/// wherever they are referenced, so every `"ref"` names an `"id"` shown before
/// it; data holding a document is `{"data": BASE64, "archive": {...}}`
/// and the like, `NestedJSON`); inline
/// primitives are `{"inline": value}` (an MBFile's `Mode` adds
/// `"fileMode"`, its times `"date"`); Foundation values are plain
/// JSON values or `{"class": "NSArray", "items": [...]}` /
/// `{"class": "NSDictionary", "entries": {"key": v, ...}}` (`[[k, v], ...]`
/// when a key is not a string).
package struct ArchiveJSONDumper {
    let graph: ObjectGraph
    /// References to each object (runs of an attributed string shown in
    /// place of its attributes array count as its dictionaries' references).
    var incoming: [Int]
    var shown: [Bool]
    var onStack: [Bool]
    let depthLimit: Int
    var budget: ViewBudget
    /// The node count and bytes of each container value of `$objects` shown so far.
    var sizes: [Int: ViewBudget.Size] = [:]
    var json: JSONStream
    let options: DumpOptions
    /// The levels of data entered to this archive (`NestedDocuments`).
    let level: Int

    /// The view of an archive as pretty JSON text; an error when it would show
    /// more than `options.maxValues` values or repeat more than
    /// `options.maxSharedBytes` bytes of shared strings and data.
    package static func json(_ graph: ObjectGraph, options: DumpOptions = DumpOptions()) throws -> [UInt8] {
        let sink = ByteSink()
        try write(graph, options: options, into: sink)
        return sink.bytes()
    }

    /// Writes the view into `sink` as it is made (a draining sink sends it on
    /// while the rest is written).
    package static func write(_ graph: ObjectGraph, options: DumpOptions = DumpOptions(), into sink: ByteSink) throws {
        var json = JSONStream(into: sink)
        try write(graph, options: options, into: &json)
        json.finish()
    }

    /// Writes the view as the next value of a JSON stream.
    package static func write(_ graph: ObjectGraph, options: DumpOptions = DumpOptions(), into json: inout JSONStream) throws {
        var budget = ViewBudget(options, inputBytes: graph.inputMeasure)
        try write(graph, options: options, budget: &budget, level: 0, into: &json)
    }

    /// Writes the view of an archive `level` levels of data down, spending
    /// the budget of the view it is part of.
    static func write(_ graph: ObjectGraph, options: DumpOptions, budget: inout ViewBudget, level: Int, into json: inout JSONStream) throws {
        var v = ArchiveJSONDumper(graph: graph, incoming: graph.incomingCounts(),
                                shown: [Bool](repeating: false, count: graph.nodes.count),
                                onStack: [Bool](repeating: false, count: graph.nodes.count), depthLimit: options.depthLimit,
                                budget: budget, json: json, options: options, level: level)
        defer {
            json = v.json
            budget = v.budget
        }
        v.json.beginObject()
        v.json.key("archiver")
        v.json.string(graph.readFrom ?? "NSKeyedArchiver")
        v.json.key("top")
        v.json.beginObject()
        for (key, entry) in graph.topEntries {
            v.json.key(key)
            switch entry {
            case .object(let object): try v.node(object, depth: 0)
            // A plain $top value, marked as an inline field is.
            case .value(let value): try v.single("inline", value)
            }
        }
        v.json.endObject()
        v.json.endObject()
    }

    /// `{"name": value}` for a one-entry object.
    private mutating func single(_ name: String, _ value: PlistValue) throws {
        json.beginObject()
        json.key(name)
        try json.value(value)
        json.endObject()
    }

    private mutating func node(_ i: Int, depth: Int) throws {
        try json.checkOutput()
        guard i >= 0, i < graph.nodes.count else { return try single("missing", .int(Int64(i))) }
        switch graph.nodes[i] {
        case .null:
            try budget.spend(object: i)
            try single("null", .bool(true))
        case .value(let v):
            let size = sizes[i] ?? budget.size(of: v)
            if size.nodes > 1 { sizes[i] = size }
            try budget.spend(size.nodes, object: i)
            if shown[i] { try budget.spendRepeated(bytes: size.bytes, object: i) }
            shown[i] = true
            try nested(v)
        case .classDescription(let name, _):
            try budget.spend(object: i)
            try single("classDescription", .string(name.readable))
        case .object(let o):
            try budget.spend(object: i)
            if onStack[i] || (shown[i] && incoming[i] > 1) {
                switch FoundationValue.interpret(o, in: graph) {
                case .string(let s)?: try repeated(.string(s), object: i)
                case .data(let b)?: try repeatedData(b, object: i)
                case .date(let t)?: try json.value(.date(PlistDate(secondsSinceReferenceDate: t)))
                default: try single("ref", .int(Int64(i)))
                }
                return
            }
            shown[i] = true
            let value = depth >= depthLimit ? nil : FoundationValue.interpret(o, in: graph)
            switch value {
            case .string(let s)?: return try json.value(.string(s))
            case .data(let b)?: return try nested(.data(b))
            case .date(let t)?: return try json.value(.date(PlistDate(secondsSinceReferenceDate: t)))
            default: break
            }
            json.beginObject()
            if incoming[i] > 1 {
                json.key("id")
                try json.value(.int(Int64(i)))
            }
            json.key("class")
            json.string(o.className.readable)
            if o.className.archived != o.className.readable {
                json.key("archivedClass")
                json.string(o.className.archived)
            }
            if depth >= depthLimit {
                json.key("elided")
                try json.value(.bool(true))
                return json.endObject()
            }
            onStack[i] = true
            defer { onStack[i] = false }
            switch value {
            case .line(let line)? where line.captions:
                try lineParts(line, depth: depth)
                try fields(o, depth: depth)
            case let value?: try foundation(value, depth: depth)
            case nil: try fields(o, depth: depth)
            }
            json.endObject()
        }
    }

    /// A value, its data decoded as `NestedJSON` shows it.
    private mutating func nested(_ value: PlistValue) throws {
        try NestedJSON.value(value, level: level, options: options, budget: &budget, into: &json)
    }

    /// Data of a shared object shown again: its bytes count as
    /// ``repeated(_:object:)`` counts them.
    private mutating func repeatedData(_ bytes: [UInt8], object i: Int) throws {
        try budget.spendRepeated(bytes: bytes.count, object: i)
        try nested(.data(bytes))
    }

    /// A string or data value of a shared object shown again: its bytes count
    /// against the view's allowance for repeated bytes.
    private mutating func repeated(_ value: PlistValue, object i: Int) throws {
        try budget.spendRepeated(bytes: ViewBudget.bytes(of: value), object: i)
        try json.value(value)
    }

    /// An array of the objects `refs` name.
    private mutating func nodes(_ refs: [Int], depth: Int) throws {
        json.beginArray()
        for r in refs {
            json.element()
            try node(r, depth: depth)
        }
        json.endArray()
    }

    /// The entries of a Foundation object after its class.
    private mutating func foundation(_ value: FoundationValue, depth: Int) throws {
        switch value {
        case .list(let refs):
            json.key("items")
            try nodes(refs, depth: depth + 1)
        case .map(let keys, let values):
            json.key("entries")
            if let names = Self.stringKeys(keys, in: graph) {
                return try object(names, keys, values, depth: depth)
            }
            json.beginArray()
            for (k, v) in zip(keys, values) {
                json.element()
                json.beginArray()
                json.element()
                try node(k, depth: depth + 1)
                json.element()
                try node(v, depth: depth + 1)
                json.endArray()
            }
            json.endArray()
        case .string, .data, .date:
            // Shown as plain values before the object is begun.
            break
        case .described(let d):
            for (key, value) in d.entries {
                json.key(key)
                try json.value(value)
            }
        case .url(let base, let relative):
            if let relative {
                json.key("relative")
                try node(relative, depth: depth + 1)
            }
            if let base {
                json.key("base")
                try node(base, depth: depth + 1)
            }
        case .null:
            json.key("null")
            try json.value(.bool(true))
        case .counted(let entries):
            json.key("items")
            json.beginArray()
            for entry in entries {
                json.element()
                json.beginObject()
                json.key("object")
                try node(entry.object, depth: depth + 1)
                json.key("count")
                try json.value(.int(Int64(entry.count)))
                json.endObject()
            }
            json.endArray()
        case .line(let line):
            json.key("value")
            json.string(line.text(in: graph))
            try lineParts(line, depth: depth)
        case .attributedString(let a):
            json.key("string")
            json.string(a.text)
            if !a.runs.isEmpty {
                // Each run's text with its attribute dictionary (with an
                // id where several runs share it, as a shared object has).
                for (d, uses) in a.dictionaryUses where incoming.indices.contains(d) { incoming[d] += uses - 1 }
                json.key("runs")
                json.beginArray()
                for run in a.runs {
                    json.element()
                    json.beginObject()
                    json.key("text")
                    json.string(run.text)
                    json.key("attributes")
                    try node(run.attributes, depth: depth + 2)
                    json.endObject()
                }
                json.endArray()
            } else if let attributes = a.attributes {
                json.key("attributes")
                try node(attributes, depth: depth + 1)
            }
        }
    }

    /// `"KIND": {"key": part, ...}` for a line's parts: words and texts as
    /// strings, objects as they are shown anywhere else.
    private mutating func lineParts(_ line: ArchivedLine, depth: Int) throws {
        json.key(line.kind)
        json.beginObject()
        for part in line.parts {
            json.key(part.key)
            switch part.value {
            case .word(let s), .text(let s): json.string(s)
            case .object(let r): try node(r, depth: depth + 1)
            }
        }
        json.endObject()
    }

    /// The keys of a dictionary when each is a string and no two are equal
    /// (so a JSON object holds them); nil otherwise.
    static func stringKeys(_ keys: [Int], in graph: ObjectGraph) -> [String]? {
        var names: [String] = []
        names.reserveCapacity(keys.count)
        var seen: Set<[UInt8]> = []
        for k in keys {
            // Compared by code points, as keys are: "é" and "e\u{301}" are two keys.
            guard let name = graph.string(.reference(k)), seen.insert(Array(name.utf8)).inserted else { return nil }
            names.append(name)
        }
        return names
    }

    /// A dictionary whose keys are strings as a JSON object, as
    /// `--to codable-json` writes it; each key counts as the value it is.
    private mutating func object(_ names: [String], _ keys: [Int], _ values: [Int], depth: Int) throws {
        json.beginObject()
        for (name, (k, v)) in zip(names, zip(keys, values)) {
            try budget.spend(object: k)
            if shown[k] { try budget.spendRepeated(bytes: name.utf8.count, object: k) }
            shown[k] = true
            json.key(name)
            try node(v, depth: depth + 1)
        }
        json.endObject()
    }

    /// `"fields": [{"key": ..., "inline" or "value": ...}, ...]`.
    private mutating func fields(_ o: ArchivedObject, depth: Int) throws {
        json.key("fields")
        json.beginArray()
        for field in o.fields {
            json.element()
            json.beginObject()
            json.key("key")
            json.string(field.key)
            switch field.value {
            case .inline(let v):
                json.key("inline")
                try nested(v)
                // MBFile's mode and times: their reading beside the integer.
                if let reading = BackupFileField.reading(className: o.className.archived, key: field.key, value: v) {
                    json.key(reading.jsonKey)
                    try json.value(reading.jsonValue)
                }
            case .reference(let r):
                json.key("value")
                try node(r, depth: depth + 1)
            case .references(let rs):
                json.key("value")
                try nodes(rs, depth: depth + 1)
            }
            json.endObject()
        }
        json.endArray()
    }
}
