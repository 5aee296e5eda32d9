import ArchivistCore

/// One side of a diff: a document's tree, and for a keyed archive its object
/// graph. Values are read from it one level at a time as the diff walks
/// (``shape(of:path:depth:)``); a whole value is built only for a change to
/// report (``value(of:path:depth:)``).
final class DiffSide {
    let tree: PlistTree
    let graph: ObjectGraph?
    /// Builds the values of changes, and marks the objects on the current
    /// path (`entered`), whose references are left out as the export leaves
    /// out a reference back.
    var exporter: CodableExporter

    init(_ tree: PlistTree) throws {
        self.tree = tree
        let graph = KeyedArchive.looksLikeArchive(tree) ? try ObjectGraph(tree) : nil
        self.graph = graph
        exporter = CodableExporter(graph: graph ?? .empty, rules: MigrationRules(),
                                   options: CodableOptions(cycles: .omit, nativeLeaves: true), budget: 1_000_000, nesting: 0)
        exporter.classKey = PlistDiff.classKey
        exporter.inlineKey = PlistDiff.inlineKey
        exporter.keepsRealWidth = true
        // Archives in data are compared as archives, by `$top` key (root.data.root.name).
        exporter.expandsNestedArchives = false
    }

    /// The item the diff starts at: an archive's `$top`, a plain list's root.
    var root: DiffItem { graph == nil ? .tree(tree.root) : .top }

    /// The object an item is, when it is an object of the graph.
    func object(_ item: DiffItem) -> Int? {
        guard case .node(let i) = item, let graph, case .object? = graph.nodes[safe: i] else { return nil }
        return i
    }

    /// True for a reference the export leaves out: to `$null`, or back to an
    /// object on the current path.
    private func isLeftOut(_ r: Int) -> Bool {
        guard let graph, let node = graph.nodes[safe: r] else { return false }
        switch node {
        case .null: return true
        case .object: return exporter.entered[r] != nil
        case .value, .classDescription: return false
        }
    }

    /// An item one level deep.
    func shape(of item: DiffItem, path: [String], depth: Int) throws -> DiffShape {
        switch item {
        case .value(let v): return Self.shape(of: v)
        case .tree(let n): return treeShape(n)
        case .top: return topShape()
        case .node(let i): return try nodeShape(i, path: path, depth: depth)
        case .list(let refs): return .array(refs.map { .node($0) })
        }
    }

    /// The whole value of an item, as the Codable export of the archive shows it.
    func value(of item: DiffItem, path: [String], depth: Int) throws -> PlistValue {
        switch item {
        case .value(let v): return v
        case .tree(let n): return tree.value(at: n)
        case .top:
            guard let graph else { return tree.value }
            var top = PlistDictionary()
            for (key, entry) in graph.topEntries {
                switch entry {
                case .object(let index): top[key] = try exporter.object(index, path: key, depth: 0) ?? .null
                case .value(let value): top[key] = value
                }
            }
            return .dictionary(top)
        case .node(let i):
            return try exporter.object(i, path: Self.text(path), depth: depth) ?? .null
        case .list(let refs):
            var items: [PlistValue] = []
            for (n, r) in refs.enumerated() {
                if let v = try exporter.object(r, path: Self.text(path + [String(n)]), depth: depth + 1) { items.append(v) }
            }
            return .array(items)
        }
    }

    /// A key path's text, as errors name it.
    static func text(_ path: [String]) -> String {
        PlistKeyPath(components: path).description
    }

    private static func shape(of v: PlistValue) -> DiffShape {
        switch v {
        case .array(let items): return .array(items.map { .value($0) })
        case .dictionary(let d):
            if d.count == 1, d[PlistDiff.inlineKey] != nil { return .leaf(v) }
            var chain: [String]?
            if case .array(let names)? = d[PlistDiff.classKey] { chain = names.compactMap(\.stringValue) }
            var keys: [String] = [], values: [DiffItem] = []
            keys.reserveCapacity(d.count)
            values.reserveCapacity(d.count)
            for (k, item) in d where chain == nil || !PlistKeys.same(k, PlistDiff.classKey) {
                keys.append(k)
                values.append(.value(item))
            }
            return .dictionary(keys: keys, values: values, classChain: chain)
        default: return .leaf(v)
        }
    }

    private func treeShape(_ n: Int) -> DiffShape {
        switch tree.kind(of: n) {
        case .array:
            return .array((0..<tree.count(of: n)).map { .tree(tree.element($0, of: n)) })
        case .dictionary:
            let count = tree.count(of: n)
            if count == 1, tree.node(forKey: PlistDiff.inlineKey, in: n) != nil { return .leaf(tree.value(at: n)) }
            var chain: [String]?
            if let c = tree.node(forKey: PlistDiff.classKey, in: n), tree.kind(of: c) == .array {
                chain = (0..<tree.count(of: c)).compactMap { tree.string(at: tree.element($0, of: c)) }
            }
            var keys: [String] = [], values: [DiffItem] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            for i in 0..<count {
                let (k, v) = tree.entry(i, of: n)
                let key = tree.string(at: k) ?? ""
                if chain != nil, PlistKeys.same(key, PlistDiff.classKey) { continue }
                keys.append(key)
                values.append(.tree(v))
            }
            return .dictionary(keys: keys, values: values, classChain: chain)
        default:
            return .leaf(tree.value(at: n))
        }
    }

    /// `$top` by key: an entry referring to `$null` is null.
    private func topShape() -> DiffShape {
        guard let graph else { return .leaf(.null) }
        var keys: [String] = [], values: [DiffItem] = []
        for (key, entry) in graph.topEntries {
            let item: DiffItem
            switch entry {
            case .object(let index):
                if case .null? = graph.nodes[safe: index] { item = .value(.null) } else { item = .node(index) }
            case .value(let value): item = .value(value)
            }
            // Keys set again replace, as a dictionary's subscript does.
            if let i = keys.firstIndex(where: { PlistKeys.same($0, key) }) { values[i] = item } else {
                keys.append(key)
                values.append(item)
            }
        }
        return .dictionary(keys: keys, values: values, classChain: nil)
    }

    private func nodeShape(_ index: Int, path: [String], depth: Int) throws -> DiffShape {
        guard let graph else { return .leaf(.null) }
        let keyPath = Self.text(path)
        guard let node = graph.nodes[safe: index] else {
            throw PlistError(.archive, "reference to object \(index), past the \(graph.nodes.count) objects", at: .archive(object: index, keyPath: keyPath))
        }
        switch node {
        case .null: return .leaf(.null)
        case .value(let v): return Self.shape(of: v)
        case .classDescription:
            throw PlistError(.archive, "a field refers to a class description", at: .archive(object: index, keyPath: keyPath))
        case .object(let o):
            guard depth < exporter.options.maxDepth else {
                throw PlistError(.limitExceeded, "objects nest deeper than \(exporter.options.maxDepth)", at: .archive(object: index, keyPath: keyPath))
            }
            guard let foundation = FoundationValue.interpret(o, in: graph) else { return try fields(of: o) }
            switch foundation {
            case .list(let refs): return .array(refs.filter { !isLeftOut($0) }.map { .node($0) })
            case .counted(let entries): return .array(entries.map(\.object).filter { !isLeftOut($0) }.map { .node($0) })
            case .map(let keys, let values): return try map(keys, values, path: keyPath, depth: depth)
            // A line's parts are not archived keys: compare its fields, which key paths reach.
            case .line: return try fields(of: o)
            default: return Self.shape(of: try exporter.foundation(foundation, path: keyPath, depth: depth) ?? .null)
            }
        }
    }

    /// A custom object: its class, and its fields but those that are `$null`,
    /// NSNull or a reference back.
    private func fields(of o: ArchivedObject) throws -> DiffShape {
        guard let graph else { return .leaf(.null) }
        var keys: [String] = [], values: [DiffItem] = []
        keys.reserveCapacity(o.fields.count)
        values.reserveCapacity(o.fields.count)
        for field in o.fields {
            let item: DiffItem
            switch field.value {
            case .inline(let v):
                item = .value(SecureCodingCheck.isPrimitive(v) ? .dictionary(PlistDictionary([(PlistDiff.inlineKey, v)])) : v)
            case .reference(let r):
                if isLeftOut(r) { continue }
                if case .object(let referred)? = graph.nodes[safe: r], case .null? = FoundationValue.interpret(referred, in: graph) { continue }
                item = .node(r)
            case .references(let rs):
                item = .list(rs.filter { !isLeftOut($0) })
            }
            // An archived object's keys are unique (a tree's dictionary keeps one of each).
            keys.append(field.key)
            values.append(item)
        }
        return .dictionary(keys: keys, values: values, classChain: [o.className.description] + o.classChain)
    }

    /// NSDictionary: keyed by its string keys, or by its integer keys'
    /// decimal text, else the flat `[key, value, ...]` list.
    private func map(_ keyRefs: [Int], _ valueRefs: [Int], path: String, depth: Int) throws -> DiffShape {
        var resolved: [(PlistValue, DiffItem)] = []
        for (i, (k, v)) in zip(keyRefs, valueRefs).enumerated() {
            // A key stored as a value is that value (most are); others as the export makes them.
            let key: PlistValue?
            if case .value(let v)? = graph?.nodes[safe: k] { key = v } else {
                key = try exporter.object(k, path: "\(path).<key \(i)>", depth: depth + 1)
            }
            guard let key, !isLeftOut(v) else { continue }
            resolved.append((key, .node(v)))
        }
        if resolved.allSatisfy({ if case .string = $0.0 { return true } else { return false } }) {
            var keys: [String] = [], values: [DiffItem] = []
            var seen = Set<PlistKey>()
            for (k, v) in resolved { if case .string(let s) = k, seen.insert(PlistKey(s)).inserted { keys.append(s); values.append(v) } }
            return .dictionary(keys: keys, values: values, classChain: nil)
        }
        if resolved.allSatisfy({ if case .integer = $0.0 { return true } else { return false } }) {
            var keys: [String] = [], values: [DiffItem] = []
            var seen = Set<String>()
            for (k, v) in resolved { if case .integer(let i) = k, seen.insert(i.description).inserted { keys.append(i.description); values.append(v) } }
            return .dictionary(keys: keys, values: values, classChain: nil)
        }
        return .array(resolved.flatMap { [.value($0.0), $0.1] })
    }
}

/// A value on one side of a diff, not yet read.
enum DiffItem {
    /// A value at hand (an inline field, a Foundation leaf, part of a value node).
    case value(PlistValue)
    /// A node of a plain property list's tree.
    case tree(Int)
    /// An archive's `$top`, by key.
    case top
    /// An entry of an archive's `$objects`.
    case node(Int)
    /// A field's list of references (those left out already dropped).
    case list([Int])
}

/// An item one level deep, as the diff compares it.
enum DiffShape {
    /// Keys in order (`$class` apart, as `classChain`: the class's
    /// description, then its `$classes`).
    case dictionary(keys: [String], values: [DiffItem], classChain: [String]?)
    case array([DiffItem])
    /// A scalar, data, or an inline primitive's stand-in.
    case leaf(PlistValue)
}

/// The two sides of a diff, and the pairs of objects met so far: each pair
/// is compared once, however many references lead to it.
final class DiffPair {
    let a: DiffSide
    let b: DiffSide
    var visited = Set<PairKey>()

    init(_ a: DiffSide, _ b: DiffSide) {
        self.a = a
        self.b = b
    }
}

/// An object of the first graph with the object of the second it is compared to.
struct PairKey: Hashable {
    let a: Int
    let b: Int

    init(_ a: Int, _ b: Int) {
        self.a = a
        self.b = b
    }
}
