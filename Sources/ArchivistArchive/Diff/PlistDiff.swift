import ArchivistCore

/// A structural diff of two property lists in any formats (an XML and a binary
/// plist of the same tree are equal). Keyed archives are compared as object
/// graphs from their `$top` keys: each object as its class (`$class`) and
/// fields, references followed, so an object that moved to another
/// `$objects` index is not a change.
public struct PlistDiff: Sendable {
    /// One difference.
    public struct Change: Sendable, Equatable {
        /// Added, removed, or changed.
        public enum Kind: String, Sendable {
            case added, removed, changed
        }

        /// What happened.
        public var kind: Kind
        /// The key path (dotted, `\.` for a dot in a key).
        public var path: String
        /// The value before (nil when added).
        public var old: PlistValue?
        /// The value after (nil when removed).
        public var new: PlistValue?
    }

    /// The differences, in the order met (the first file's keys first).
    public private(set) var changes: [Change] = []

    /// The most changes collected; a diff beyond stops there.
    public static let maxChanges = 100_000

    /// Compares two trees.
    public init(_ a: PlistValue, _ b: PlistValue) throws {
        compare(try Self.comparable(a), try Self.comparable(b), path: [], depth: 0)
    }

    /// The tree compared for a file: an archive as its objects.
    static func comparable(_ value: PlistValue) throws -> PlistValue {
        guard KeyedArchive.looksLikeArchive(value) else { return value }
        let graph = try ObjectGraph(value)
        var exporter = CodableExporter(graph: graph, rules: MigrationRules(),
                                       options: CodableOptions(cycles: .omit, nativeLeaves: true), budget: 1_000_000, nesting: 0)
        exporter.classKey = "$class"
        var top = PlistDictionary()
        for (key, index) in graph.top { top[key] = try exporter.object(index, path: key, depth: 0) ?? .null }
        // Keyed by $top keys, so paths read as `get` takes them (root.name).
        return .dictionary(top)
    }

    private mutating func record(_ kind: Change.Kind, _ path: [String], _ old: PlistValue?, _ new: PlistValue?) {
        guard changes.count < Self.maxChanges else { return }
        changes.append(Change(kind: kind, path: PlistKeyPath(components: path).description, old: old, new: new))
    }

    private mutating func compare(_ a: PlistValue, _ b: PlistValue, path: [String], depth: Int) {
        guard changes.count < Self.maxChanges else { return }
        switch (a, b) {
        case (.dictionary(let x), .dictionary(let y)) where depth < 1_000:
            var yIndex: [String: Int] = [:]
            for (i, k) in y.keys.enumerated() { yIndex[k] = i }
            var xKeys = Set<String>()
            for (k, v) in x {
                xKeys.insert(k)
                if let i = yIndex[k] { compare(v, y.values[i], path: path + [k], depth: depth + 1) } else { record(.removed, path + [k], v, nil) }
            }
            for (k, v) in y where !xKeys.contains(k) { record(.added, path + [k], nil, v) }
        case (.array(let x), .array(let y)) where depth < 1_000:
            for i in 0..<max(x.count, y.count) {
                if i < x.count, i < y.count { compare(x[i], y[i], path: path + [String(i)], depth: depth + 1) }
                else if i < x.count { record(.removed, path + [String(i)], x[i], nil) }
                else { record(.added, path + [String(i)], nil, y[i]) }
            }
        case (.data(let x), .data(let y)) where x != y && depth < 1_000:
            // Property lists in data are compared by content.
            if let dx = EmbeddedPlist.document(x), let dy = EmbeddedPlist.document(y),
               let cx = try? Self.comparable(dx.value), let cy = try? Self.comparable(dy.value) {
                compare(cx, cy, path: path, depth: depth + 1)
            } else {
                record(.changed, path, a, b)
            }
        default:
            if a != b { record(.changed, path, a, b) }
        }
    }

    /// The changes as lines: `+ PATH: TYPE VALUE`, `- PATH: ...`, `~ PATH: OLD -> NEW`.
    public var lines: [String] {
        changes.map { c in
            let where_ = c.path.isEmpty ? "(top level)" : c.path
            switch c.kind {
            case .added: return "+ \(where_): \(Self.describe(c.new))"
            case .removed: return "- \(where_): \(Self.describe(c.old))"
            case .changed: return "~ \(where_): \(Self.describe(c.old)) -> \(Self.describe(c.new))"
            }
        }
    }

    static func describe(_ v: PlistValue?) -> String {
        guard let v else { return "nothing" }
        switch v {
        case .array(let a): return "array of \(a.count)"
        case .dictionary(let d):
            if case .string(let cls)? = d["$class"] { return "\(cls) object" }
            return "dictionary of \(d.count) keys"
        default: return v.typeName + " " + DumpText.scalar(v)
        }
    }
}
