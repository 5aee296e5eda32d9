import ArchivistCore

/// The machine-readable form of `dump`: the same view as `ArchiveDumper` as a
/// tree for the JSON writer. Objects are `{"class": ..., "fields": [...]}` with
/// `"id"` when shared; later references are `{"ref": N}` (strings, data and
/// dates are values: shown in full wherever they are referenced, so every
/// `"ref"` names an `"id"` shown before it); inline primitives are
/// `{"inline": value}`; Foundation values are plain JSON values or
/// `{"class": "NSArray", "items": [...]}` / `{"class": "NSDictionary", "entries": [[k, v], ...]}`.
public struct ArchiveJSONView {
    let graph: ObjectGraph
    let incoming: [Int]
    var shown: [Bool]
    var onStack: [Bool]
    let depthLimit: Int
    var budget: ViewBudget
    /// The node count of each container value of `$objects` shown so far.
    var sizes: [Int: Int] = [:]

    /// The view of an archive; an error when it would show more than
    /// `options.maxValues` values.
    public static func tree(_ graph: ObjectGraph, options: DumpOptions = DumpOptions()) throws -> PlistValue {
        var v = ArchiveJSONView(graph: graph, incoming: graph.incomingCounts(),
                                shown: [Bool](repeating: false, count: graph.nodes.count),
                                onStack: [Bool](repeating: false, count: graph.nodes.count), depthLimit: options.depthLimit,
                                budget: ViewBudget(options.maxValues))
        var top = PlistDictionary()
        for (key, object) in graph.top { top[key] = try v.node(object, depth: 0) }
        return .dictionary(PlistDictionary([("archiver", .string("NSKeyedArchiver")), ("top", .dictionary(top))]))
    }

    private mutating func node(_ i: Int, depth: Int) throws -> PlistValue {
        guard i >= 0, i < graph.nodes.count else { return .dictionary(PlistDictionary([("missing", .int(Int64(i)))])) }
        switch graph.nodes[i] {
        case .null:
            try budget.spend(object: i)
            return .dictionary(PlistDictionary([("null", .bool(true))]))
        case .value(let v):
            let size = sizes[i] ?? budget.nodes(of: v)
            if size > 1 { sizes[i] = size }
            try budget.spend(size, object: i)
            return v
        case .classDescription(let name, _):
            try budget.spend(object: i)
            return .dictionary(PlistDictionary([("classDescription", .string(name.readable))]))
        case .object(let o):
            try budget.spend(object: i)
            if onStack[i] || (shown[i] && incoming[i] > 1) {
                switch FoundationValue.interpret(o, in: graph) {
                case .string(let s)?: return .string(s)
                case .data(let b)?: return .data(b)
                case .date(let t)?: return .date(PlistDate(secondsSinceReferenceDate: t))
                default: return .dictionary(PlistDictionary([("ref", .int(Int64(i)))]))
                }
            }
            shown[i] = true
            var out = PlistDictionary()
            if incoming[i] > 1 { out["id"] = .int(Int64(i)) }
            out["class"] = .string(o.className.readable)
            if o.className.archived != o.className.readable { out["archivedClass"] = .string(o.className.archived) }
            if depth >= depthLimit {
                out["elided"] = .bool(true)
                return .dictionary(out)
            }
            onStack[i] = true
            defer { onStack[i] = false }
            if let value = FoundationValue.interpret(o, in: graph) {
                switch value {
                case .list(let refs): out["items"] = .array(try refs.map { try node($0, depth: depth + 1) })
                case .map(let keys, let values):
                    out["entries"] = .array(try zip(keys, values).map { .array([try node($0, depth: depth + 1), try node($1, depth: depth + 1)]) })
                case .string(let s): return .string(s)
                case .data(let b): return .data(b)
                case .date(let t): return .date(PlistDate(secondsSinceReferenceDate: t))
                case .uuid(let s): out["uuid"] = .string(s)
                case .url(let base, let relative):
                    if let relative { out["relative"] = try node(relative, depth: depth + 1) }
                    if let base { out["base"] = try node(base, depth: depth + 1) }
                case .null: out["null"] = .bool(true)
                case .counted(let entries):
                    out["items"] = .array(try entries.map {
                        .dictionary(PlistDictionary([("object", try node($0.object, depth: depth + 1)), ("count", .int(Int64($0.count)))]))
                    })
                case .geometry(let g):
                    out["kind"] = .string(g.kind)
                    switch g {
                    case .point(let s), .size(let s), .rect(let s): out["value"] = .string(s)
                    case .range(let location, let length):
                        out["value"] = .dictionary(PlistDictionary([("location", location), ("length", length)]))
                    case .edgeInsets(let t, let l, let b, let r):
                        out["value"] = .dictionary(PlistDictionary([("top", t), ("left", l), ("bottom", b), ("right", r)]))
                    }
                case .locale(let identifier): out["identifier"] = .string(identifier)
                case .timeZone(let zone): out["name"] = .string(zone)
                case .attributedString(let text, let attributes):
                    out["string"] = .string(text)
                    if let attributes { out["attributes"] = try node(attributes, depth: depth + 1) }
                }
                return .dictionary(out)
            }
            var fields: [PlistValue] = []
            for field in o.fields {
                var f = PlistDictionary()
                f["key"] = .string(field.key)
                switch field.value {
                case .inline(let v): f["inline"] = v
                case .reference(let r): f["value"] = try node(r, depth: depth + 1)
                case .references(let rs): f["value"] = .array(try rs.map { try node($0, depth: depth + 1) })
                }
                fields.append(.dictionary(f))
            }
            out["fields"] = .array(fields)
            return .dictionary(out)
        }
    }
}
