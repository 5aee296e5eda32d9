import ArchivistCore

/// Writes an object graph back as a keyed-archive tree: `$null` at index 0,
/// objects numbered in the order they are first reached from `$top`, each
/// shared object written once, one class dictionary per class, cycles kept.
/// Objects no longer reachable from `$top` are left out.
///
/// The archive is built straight into a `PlistTree`: a node no edit
/// replaced is copied from the tree the graph was read from (its references
/// renumbered), so only edited and added nodes pass through `PlistValue`.
public enum GraphWriter {
    /// The archive tree (`$version`, `$archiver`, `$top`, `$objects`).
    ///
    /// - Parameter graph: The graph, edited or not.
    /// - Returns: The archive's tree, to write with `PropertyList.write`.
    /// - Throws: `PlistError` when a reference names no node or the archive
    ///   would break a limit.
    public static func archive(_ graph: ObjectGraph) throws -> PlistTree {
        var writer = try Writer(graph: graph)
        return try writer.write()
    }

    /// One write: the new numbering, the tree being built and the classes met.
    private struct Writer {
        let graph: ObjectGraph
        let storage: ArchiveStorage?
        var builder: PlistTreeBuilder
        var copy: PlistTreeCopy?
        /// The new index of each node reached from `$top`, and the nodes in that order.
        let numbering: ArchiveNumbering
        /// Class dictionaries by name and chain, their `$objects` indices.
        var classIndices: [String: Int] = [:]
        /// The class index of each class dictionary of the archive read.
        var storedClassIndex: [UInt32: Int] = [:]
        var pendingClasses: [(name: String, chain: [String])] = []

        init(graph: ObjectGraph) throws {
            self.graph = graph
            numbering = try ArchiveNumbering(graph)
            storage = graph.nodes.storage
            let tree = storage?.tree
            builder = PlistTreeBuilder(expectedNodes: (tree?.nodeCount ?? 0) + graph.nodes.count + 16,
                                       expectedLinks: (tree?.links.count ?? 0) + graph.nodes.count + 16,
                                       expectedBytes: tree?.bytes.count ?? 0)
            copy = tree.map { PlistTreeCopy(from: $0) }
        }

        mutating func write() throws -> PlistTree {
            let objectsMark = builder.openArray()
            let classBase = numbering.count
            for old in numbering.nodes {
                let entry = try node(old, classBase: classBase)
                builder.append(entry, to: objectsMark)
            }
            for (name, chain) in pendingClasses {
                let entry = classDictionary(name, chain)
                builder.append(entry, to: objectsMark)
            }
            let objects = builder.close(objectsMark)
            var topMark = builder.openDictionary()
            for (key, entry) in graph.topEntries {
                let value: Int
                switch entry {
                case .object(let object): value = builder.uid(try uid(object))
                case .value(let plain): value = try builder.value(plain, depth: 2, maxDepth: Limits.writing.maxDepth)
                }
                _ = builder.add(key: builder.key(key), value: value, to: &topMark)
            }
            let top = builder.close(topMark)
            let version = builder.integer(PlistInteger(Int64(100_000)))
            let archiver = builder.string("NSKeyedArchiver")
            var envelope = builder.openDictionary()
            for (key, value) in [("$version", version), ("$archiver", archiver), ("$top", top), ("$objects", objects)] {
                _ = builder.add(key: builder.key(key), value: value, to: &envelope)
            }
            let root = builder.close(envelope)
            return try builder.finish(root: root)
        }

        /// The new index of a node referred to.
        private func uid(_ old: Int) throws -> UInt64 {
            guard let index = numbering.index(of: old) else {
                throw PlistError(.archive, "reference to object \(old), which is not part of the graph", at: .archive(object: old, keyPath: ""))
            }
            return UInt64(index)
        }

        /// The `$objects` entry of node `old`.
        private mutating func node(_ old: Int, classBase: Int) throws -> Int {
            if let storage = graph.nodes.unedited(old), old != 0 {
                return try storedNode(old, storage, classBase: classBase)
            }
            switch graph.nodes[old] {
            case .null:
                return builder.string("$null")
            case .value(let v):
                return try builder.value(v, depth: 2, maxDepth: Limits.writing.maxDepth)
            case .classDescription(let name, _):
                return builder.string(name.archived)
            case .object(let o):
                var mark = builder.openDictionary()
                for field in o.fields {
                    let value: Int
                    switch field.value {
                    case .inline(let v): value = try builder.value(v, depth: 3, maxDepth: Limits.writing.maxDepth)
                    case .reference(let r): value = builder.uid(try uid(r))
                    case .references(let rs): value = try references(rs)
                    }
                    _ = builder.add(key: builder.key(field.key), value: value, to: &mark)
                }
                let ci = classIndex(o.className.archived, o.classChain, classBase: classBase)
                _ = builder.add(key: builder.key("$class"), value: builder.uid(UInt64(ci)), to: &mark)
                return builder.close(mark)
            }
        }

        /// A node no edit replaced, copied from the archive's tree: an object's
        /// fields in order with their references renumbered and `$class` last
        /// (as an edited object is written), anything else as it is.
        private mutating func storedNode(_ old: Int, _ storage: ArchiveStorage, classBase: Int) throws -> Int {
            let tree = storage.tree
            let node = Int(storage.objects[old])
            // Taken out while it is used, so that its table of copied nodes is not copied.
            guard var copy = self.copy else { return builder.null() }
            self.copy = nil
            defer { self.copy = copy }
            guard let c = storage.classOf(old), let info = storage.classInfo[c] else {
                return copy.node(node, into: &builder)
            }
            var mark = builder.openDictionary()
            for i in 0..<tree.count(of: node) {
                let (key, value) = tree.entry(i, of: node)
                if storage.isClassKey(key) { continue }
                let written: Int
                if let u = tree.uid(at: value) {
                    written = builder.uid(try uid(Int(u)))
                } else if storage.isReferenceList(value) {
                    written = try references((0..<tree.count(of: value)).map { Int(tree.uid(at: tree.element($0, of: value)) ?? 0) })
                } else {
                    written = copy.node(value, into: &builder)
                }
                _ = builder.add(key: copy.key(key, into: &builder), value: written, to: &mark)
            }
            let ci: Int
            if let known = storedClassIndex[c] {
                ci = known
            } else {
                ci = classIndex(info.name.archived, info.chain, classBase: classBase)
                storedClassIndex[c] = ci
            }
            _ = builder.add(key: builder.key("$class"), value: builder.uid(UInt64(ci)), to: &mark)
            return builder.close(mark)
        }

        private mutating func references(_ rs: [Int]) throws -> Int {
            let mark = builder.openArray()
            for r in rs {
                let u = builder.uid(try uid(r))
                builder.append(u, to: mark)
            }
            return builder.close(mark)
        }

        /// The `$objects` index of the class dictionary of a class and chain.
        private mutating func classIndex(_ name: String, _ chain: [String], classBase: Int) -> Int {
            let key = name + "\u{0}" + chain.joined(separator: "\u{0}")
            if let existing = classIndices[key] { return existing }
            let ci = classBase + pendingClasses.count
            classIndices[key] = ci
            pendingClasses.append((name, chain))
            return ci
        }

        private mutating func classDictionary(_ name: String, _ chain: [String]) -> Int {
            let nameNode = builder.string(name)
            let list = builder.openArray()
            for entry in chain.isEmpty ? [name] : chain {
                let text = builder.string(entry)
                builder.append(text, to: list)
            }
            let classes = builder.close(list)
            var mark = builder.openDictionary()
            _ = builder.add(key: builder.key("$classname"), value: nameNode, to: &mark)
            _ = builder.add(key: builder.key("$classes"), value: classes, to: &mark)
            return builder.close(mark)
        }
    }
}
