import ArchivistCore

/// A dotted key path as `plutil` spells it (`CFBundleURLTypes.0.CFBundleURLSchemes`,
/// `\.` for a literal dot), resolved through plain trees, keyed archives'
/// objects (starting at a `$top` key: `root.cpu_coder.cores.1.coreID`) and
/// archives nested in `<data>` (`currentUser.root.name`) and bookmark data
/// (`DownloadHistory.0.DownloadEntryBookmarkBlob.path`).
public struct PlistKeyPath: Sendable, Equatable, CustomStringConvertible {
    /// The components, unescaped.
    public let components: [String]

    /// Parses `a.b.0`, with `\.` for a dot inside a component and `\\` for a backslash.
    ///
    /// - Parameter text: The path as plutil takes it.
    public init(_ text: String) {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for c in text {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "." {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        parts.append(current)
        components = text.isEmpty ? [] : parts
    }

    /// The path as written, escaping dots inside components.
    public var description: String {
        ArchivePaths.spelled(components)
    }

    /// What a path leads to.
    public enum Target {
        /// A node of a plain tree, as read (nothing converted).
        case tree(PlistNode)
        /// A value stored in an archived object (an inline field, a `$top` value).
        case value(PlistValue)
        /// A whole archive, where a path into it starts (its next component
        /// is a `$top` key).
        case archive(ObjectGraph)
        /// A node of an archive's object graph (an index into its `nodes`).
        case node(ObjectGraph, Int)
        /// A field of an archived object that lists references (as `NS.objects` does).
        case references(ObjectGraph, [Int])
    }

    /// Resolves the path in a tree read from a file. A keyed archive is read
    /// as its object graph straight from the tree; a plain tree is stepped
    /// through node by node, and only what the path leads to becomes a
    /// value. Data on the way is stepped into through the nested-document
    /// service, the document it holds read the same way (no whole document
    /// converted): a plain tree's target is its node (``Target/tree(_:)``).
    ///
    /// - Parameter tree: A document's tree.
    /// - Returns: What the path leads to: a value, or a node of an archive's graph.
    /// - Throws: `PlistError` naming the component that failed.
    public func resolve(in tree: PlistTree) throws -> Target {
        // The data values stepped into on the way (`NestedDocuments`' levels).
        var levels = 0
        return try resolve(in: tree, from: 0, levels: &levels)
    }

    /// Components `first...` in a tree: the input's, or one held in data.
    private func resolve(in tree: PlistTree, from first: Int, levels: inout Int) throws -> Target {
        try steps(from: try Self.start(tree), at: first, levels: &levels)
    }

    /// Component `n` and those after it, in the document data holds.
    private func enter(_ bytes: [UInt8], at n: Int, levels: inout Int) throws -> Target {
        let nested = try NestedDocuments.step(into: bytes, level: levels, at: PlistKeyPath(components: Array(components[...n])).description)
        levels += 1
        return try resolve(in: nested.document.tree, from: n, levels: &levels)
    }

    /// The steps of components `first...` from `target`; data met on the
    /// way is entered as a tree of its own.
    private func steps(from target: Target, at first: Int, levels: inout Int) throws -> Target {
        var target = target
        for n in first..<components.count {
            if let bytes = Self.heldData(target) { return try enter(bytes, at: n, levels: &levels) }
            target = try Self.step(target, components[n], path: PlistKeyPath(components: Array(components[...n])), levels: &levels)
        }
        return target
    }

    /// The bytes a target stands for: data, a data value of an archive, or an
    /// object whose Foundation value is data (NSData); nil for anything else.
    private static func heldData(_ target: Target) -> [UInt8]? {
        switch target {
        case .value(.data(let bytes)): return bytes
        case .tree(let node): return node.dataValue
        case .node(let graph, let i):
            switch graph.nodes[safe: i] {
            case .value(.data(let bytes))?: return bytes
            case .object(let o)?:
                if case .data(let bytes)? = FoundationValue.interpret(o, in: graph) { return bytes }
                return nil
            default: return nil
            }
        case .value, .archive, .references: return nil
        }
    }

    init(components: [String]) {
        self.components = components
    }

    /// Where a document's path starts: an archive as its graph (built on its
    /// tree; its first component is a `$top` key), a plain tree at its root node.
    private static func start(_ document: PlistTree) throws -> Target {
        if KeyedArchive.looksLikeArchive(document) {
            return .archive(try ObjectGraph(document))
        }
        return .tree(document.rootNode)
    }

    private static func fail(_ path: PlistKeyPath, _ message: String) -> PlistError {
        PlistError(.invalidValue, "\(path): \(message)")
    }

    /// One step; `levels` counts the data values stepped into on the path so
    /// far (a property list whose root is data holding another counts twice).
    private static func step(_ target: Target, _ key: String, path: PlistKeyPath, levels: inout Int) throws -> Target {
        switch target {
        case .tree(let node):
            switch node.kind {
            case .dictionary:
                if let next = node[key] { return .tree(next) }
                let keys = node.entries.map(\.key)
                let hint = PlistKeys.normalisationHint(for: key, in: keys)
                throw fail(path, "no key \"\(key)\" (dictionary of \(counted(keys.count, "key"))\(hint.isEmpty ? nearMiss(key, among: keys) : hint))")
            case .array:
                return .tree(node.elements[try index(key, count: node.count, path: path)])
            case .string, .integer, .real, .bool, .date, .data, .uid, .null:
                // Data was stepped into before (`heldData`); a scalar has no keys.
                return try step(.value(node.value), key, path: path, levels: &levels)
            }
        case .value(let v):
            switch v {
            case .dictionary(let d):
                guard let next = d[key] else {
                    let hint = PlistKeys.normalisationHint(for: key, in: d.keys)
                    throw fail(path, "no key \"\(key)\" (dictionary of \(counted(d.count, "key"))\(hint.isEmpty ? nearMiss(key, among: d.keys) : hint))")
                }
                return .value(next)
            case .array(let items):
                return .value(items[try index(key, count: items.count, path: path)])
            case .data(let bytes):
                // What dump shows decoded is looked into (a bookmark as its dictionary: `path`, `volume`, ...).
                let nested = try NestedDocuments.step(into: bytes, level: levels, at: path.description)
                levels += 1
                return try step(try start(nested.document.tree), key, path: path, levels: &levels)
            case .string, .integer, .real, .bool, .date, .uid, .null:
                throw fail(path, "\(v.aTypeName) has no key \"\(key)\"")
            }
        case .references(let graph, let refs):
            return .node(graph, refs[try index(key, count: refs.count, path: path)])
        case .archive(let graph):
            guard let top = graph.topEntries.first(where: { PlistKeys.same($0.key, key) }) else {
                throw fail(path, "no $top key \"\(key)\" (the archive has \(graph.topEntries.map(\.key).joined(separator: ", ")))")
            }
            switch top.entry {
            case .object(let object): return .node(graph, object)
            case .value(let value): return .value(value)
            }
        case .node(let graph, let i):
            switch graph.nodes[safe: i] {
            case .object(let o)?:
                if let value = FoundationValue.interpret(o, in: graph) {
                    switch value {
                    case .list(let refs):
                        return .node(graph, refs[try index(key, count: refs.count, path: path)])
                    case .map(let keys, let values):
                        for (k, v) in zip(keys, values) {
                            if case .value(.string(let s))? = graph.nodes[safe: k], PlistKeys.same(s, key) { return .node(graph, v) }
                            if let ko = graph.object(k), case .string(let s)? = FoundationValue.interpret(ko, in: graph), PlistKeys.same(s, key) { return .node(graph, v) }
                        }
                        let names = keys.compactMap { k -> String? in
                            if case .value(.string(let s))? = graph.nodes[safe: k] { return s }
                            if let ko = graph.object(k), case .string(let s)? = FoundationValue.interpret(ko, in: graph) { return s }
                            return nil
                        }
                        throw fail(path, "no key \"\(key)\" in \(o.className.readable) of \(counted(keys.count, "entry", "entries"))\(nearMiss(key, among: names))")
                    case .data(let bytes):
                        return try step(.value(.data(bytes)), key, path: path, levels: &levels)
                    case .counted(let entries):
                        return .node(graph, entries[try index(key, count: entries.count, path: path)].object)
                    case .attributedString(let a) where key == "attributes" && a.attributes != nil:
                        return .node(graph, a.attributes ?? 0)
                    case .described(let d) where d.keepsFields:
                        // Shown as a value, still reached by its archived fields (`NSColorName`).
                        break
                    case .line:
                        break
                    case .string, .date, .described, .url, .null, .attributedString:
                        throw fail(path, "\(o.className.readable) has no key \"\(key)\"")
                    }
                }
                guard let field = o[key] else {
                    let fields = o.fields.map(\.key)
                    throw fail(path, "\(o.className.readable) has no field \"\(key)\" (fields: \(fields.joined(separator: ", "))\(nearMiss(key, among: fields)))")
                }
                switch field {
                case .inline(let v): return .value(v)
                case .reference(let r): return .node(graph, r)
                case .references(let rs): return .references(graph, rs)
                }
            case .value(let v)?:
                return try step(.value(v), key, path: path, levels: &levels)
            case .null?, .classDescription?, nil:
                throw fail(path, "nil has no key \"\(key)\"")
            }
        }
    }

    /// `; did you mean "KEY"?` for the key of `keys` closest to a missing
    /// one (``NearMiss``: letter case, or a few edits), or nothing. The
    /// comparisons share a budget, so a dictionary of a million keys costs
    /// a bounded time.
    private static func nearMiss(_ key: String, among keys: [String]) -> String {
        var finder = NearMiss.Finder(keys, budget: nearMissBudget)
        return finder.best(for: key).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// The edit-distance table cells one "did you mean" may fill.
    static let nearMissBudget = 2_000_000

    private static func index(_ key: String, count: Int, path: PlistKeyPath) throws -> Int {
        guard let i = Int(key), i >= 0 else { throw fail(path, "\"\(key)\" is not an index (array of \(count))") }
        guard i < count else { throw fail(path, "index \(i) out of range (array of \(count))") }
        return i
    }
}
