import ArchivistCore

/// An archive met by ``NestedArchiveWalk``: the tree's own, or one held in a
/// `<data>` value of it (at any level up to ``NestedData/maxLevels``).
package struct NestedArchive {
    /// The archive's object graph.
    package var graph: ObjectGraph
    /// The key path of the data holding it, as `get` takes it; empty for the
    /// tree itself.
    package var keyPath: String
    /// 0 for the tree itself, 1 for an archive in its data, and so on.
    package var level: Int
    /// What the data held (a keyed archive or a typedstream); nil at level 0.
    package var kind: NestedData.Kind?
    /// The size of the data holding it; 0 at level 0.
    package var size: Int
}

/// The visit of `NestedDocuments`: the one walk into a tree and the documents its data values hold: every
/// keyed archive (and typedstream) found in plain containers, in archives'
/// objects and inline fields, and in data inside those, to one depth limit.
/// Archives are visited before the archives their data holds.
package enum NestedArchiveWalk {
    /// What to do with an archive that does not read as an object graph.
    package enum Broken {
        /// Leave it out (counting and suggesting).
        case skip
        /// Throw its error, located under the key path of the data holding it.
        case fail
    }

    /// Visits every archive in `tree`. A node several containers share is
    /// walked once (at the first key path that reaches it), so the walk is
    /// linear in the tree's size.
    /// `archive`, when given, is `tree` already validated as a keyed archive.
    package static func archives(in tree: PlistTree, archive: KeyedArchive? = nil, broken: Broken,
                                 _ visit: (NestedArchive) throws -> Void) throws {
        try walk(tree, validated: archive, keyPath: "", level: 0, kind: nil, size: 0, broken: broken, visit)
    }

    private static func walk(_ tree: PlistTree, validated: KeyedArchive? = nil, keyPath: String, level: Int, kind: NestedData.Kind?,
                             size: Int, broken: Broken, _ visit: (NestedArchive) throws -> Void) throws {
        func data(_ bytes: [UInt8], at path: String) throws {
            guard let nested = NestedDocuments.open(bytes, level: level) else { return }
            let inner = nested.document.tree
            try walk(inner, keyPath: path, level: level + 1, kind: nested.kind, size: bytes.count, broken: broken, visit)
        }
        if validated != nil || KeyedArchive.looksLikeArchive(tree) {
            let graph: ObjectGraph
            do {
                graph = try validated.map { ObjectGraph($0) } ?? ObjectGraph(tree)
            } catch let error as PlistError {
                guard broken == .fail else { return }
                throw NestedDocuments.relocated(error, under: keyPath)
            }
            try visit(NestedArchive(graph: graph, keyPath: keyPath, level: level, kind: kind, size: size))
            var paths: ArchivePaths?
            func path(to index: Int, _ field: (key: String, object: ArchivedObject)? = nil) -> String {
                let found = paths ?? graph.paths()
                paths = found
                let base = found.path(to: index) ?? "$objects[\(index)]"
                let path = field.map { NestedDocuments.path(ofField: $0.key, of: $0.object, at: base, in: graph) } ?? base
                return ArchivePaths.nested(path, in: keyPath)
            }
            for index in graph.nodes.indices {
                // Read from the archive's tree: a node is made only where data is.
                if let storage = graph.nodes.unedited(index), !storage.holdsData(index) { continue }
                switch graph.nodes[index] {
                case .value(.data(let bytes)):
                    try data(bytes, at: path(to: index))
                case .object(let o):
                    for field in o.fields {
                        if case .inline(.data(let bytes)) = field.value { try data(bytes, at: path(to: index, (field.key, o))) }
                    }
                case .null, .value, .classDescription:
                    continue
                }
            }
            return
        }
        try dataNodes(in: tree, keyPath: keyPath) { node, path in try data(tree.data(at: node) ?? [], at: path) }
    }

    /// Visits every data node of a plain tree (one that is not an archive)
    /// with its key path under `keyPath`: its containers are walked, each
    /// shared one once (at the first key path that reaches it), so the walk
    /// is linear in the tree's size. The one walk both reading nested
    /// archives and migrating them in place use.
    package static func dataNodes(in tree: PlistTree, keyPath: String, _ visit: (_ node: Int, _ keyPath: String) throws -> Void) rethrows {
        // Key paths are made only for data found: each child pushed records
        // its parent step and its key node or index (no text per node).
        var seen = [Bool](repeating: false, count: tree.nodeCount)
        var steps: [(parent: Int, key: Int, index: Int)] = []
        func text(_ step: Int) -> String {
            var components: [String] = []
            var at = step
            while at >= 0 {
                let s = steps[at]
                components.append(s.key >= 0 ? tree.string(at: s.key) ?? "" : String(s.index))
                at = s.parent
            }
            return components.reversed().reduce(keyPath) { ArchivePaths.joined($0, $1) }
        }
        var stack: [(node: Int, step: Int)] = [(tree.root, -1)]
        while let (node, step) = stack.popLast() {
            switch tree.kind(of: node) {
            case .dictionary, .array:
                guard !seen[node] else { continue }
                seen[node] = true
                let isDictionary = tree.kind(of: node) == .dictionary
                // Pushed last to first, so entries are walked in order.
                for i in (0..<tree.count(of: node)).reversed() {
                    steps.append((step, isDictionary ? tree.entry(i, of: node).key : -1, i))
                    stack.append((isDictionary ? tree.entry(i, of: node).value : tree.element(i, of: node), steps.count - 1))
                }
            case .data:
                try visit(node, step < 0 ? keyPath : text(step))
            case .string, .integer, .real, .bool, .date, .uid, .null:
                continue
            }
        }
    }
}
