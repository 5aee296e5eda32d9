import ArchivistCore

/// An archive as an object graph: one node per `$objects` entry, edges by index.
/// An object referenced from several places is one node; cycles are edges like
/// any other, so nothing here follows them.
public struct ObjectGraph: Sendable {
    /// The nodes, indexed as `$objects` is (made from the archive's compact
    /// tree as they are read; edits are kept beside it).
    public var nodes: ArchivedNodes
    /// The `$top` entries.
    public var top: [(key: String, object: Int)]
    /// The `$top` entries that are plain values, not objects (kept as read).
    package var topValues: [TopValue] = []
    /// "NSArchiver" for the graph of a typedstream, nil for a keyed archive's
    /// (``KeyedArchive/readFrom``).
    package var readFrom: String?
    /// Every `$top` entry, objects and plain values, in the order read.
    package var topEntries: [(key: String, entry: TopEntry)] { orderedTop(top, topValues) }

    /// The graph of a validated archive.
    ///
    /// - Parameter archive: The validated archive.
    public init(_ archive: KeyedArchive) {
        top = archive.top
        topValues = archive.topValues
        readFrom = archive.readFrom
        nodes = ArchivedNodes(archive.storage)
    }

    /// A graph of given nodes and `$top` entries.
    init(nodes: [ArchivedNode], top: [(key: String, object: Int)]) {
        self.nodes = ArchivedNodes(nodes)
        self.top = top
    }

    /// Validates a compact tree (a document's `tree`) as an archive and builds
    /// its graph on it, without converting the tree.
    ///
    /// - Parameter tree: A document's tree.
    /// - Throws: `PlistError` (`archive`) naming what is broken.
    public init(_ tree: PlistTree) throws {
        self.init(try KeyedArchive(tree))
    }

    /// The object at an index, when that node is an object.
    ///
    /// - Parameter index: A node's index.
    /// - Returns: The object, or nil for a value or an index out of range.
    public func object(_ index: Int) -> ArchivedObject? {
        guard index >= 0, index < nodes.count, case .object(let o) = nodes[index] else { return nil }
        return o
    }

    /// The number of nodes that are objects (read from the archive's classes
    /// without making the nodes).
    public var objectCount: Int {
        var count = 0
        for i in nodes.indices {
            if let storage = nodes.unedited(i) {
                if storage.classOf(i) != nil { count += 1 }
            } else if case .object = nodes[i] {
                count += 1
            }
        }
        return count
    }

    /// The indices a node refers to, in field order.
    ///
    /// - Parameter index: A node's index.
    /// - Returns: The indices of the nodes its fields refer to.
    public func edges(of index: Int) -> [Int] {
        var out: [Int] = []
        edges(of: index, into: &out)
        return out
    }

    /// ``edges(of:)`` appended to `out`, for walks that reuse one buffer.
    package func edges(of index: Int, into out: inout [Int]) {
        if let storage = nodes.unedited(index) {
            storage.edges(of: index, into: &out)
            return
        }
        if nodes.migratedEdges(of: index, into: &out) { return }
        guard let o = object(index) else { return }
        for field in o.fields {
            switch field.value {
            case .reference(let r): out.append(r)
            case .references(let rs): out.append(contentsOf: rs)
            case .inline: continue
            }
        }
    }

    /// The breadth-first spanning tree from `$top`: the key path by which each
    /// object is first reached (`paths().path(to: 5)`), as `get` takes it.
    package func paths() -> ArchivePaths {
        var paths = ArchivePaths(count: nodes.count)
        var queue: [Int] = []
        for (key, object) in top where nodes.indices.contains(object) && !paths.isReached(object) {
            paths.set(object, .top(key))
            queue.append(object)
        }
        var head = 0
        while head < queue.count {
            let index = queue[head]
            head += 1
            guard case .object(let o) = nodes[index] else { continue }
            let shape = ContainerShape(o, in: self)
            for field in o.fields {
                switch field.value {
                case .inline: continue
                case .reference(let r):
                    if nodes.indices.contains(r), !paths.isReached(r) {
                        paths.set(r, shape.link([.key(field.key)], parent: index))
                        queue.append(r)
                    }
                case .references(let rs):
                    for (i, r) in rs.enumerated() where nodes.indices.contains(r) && !paths.isReached(r) {
                        paths.set(r, shape.link([.key(field.key), .index(i)], parent: index))
                        queue.append(r)
                    }
                }
            }
        }
        return paths
    }

    /// For each node, how many edges point at it from nodes reachable from `$top`.
    package func incomingCounts() -> [Int] {
        var counts = [Int](repeating: 0, count: nodes.count)
        var seen = [Bool](repeating: false, count: nodes.count)
        var stack = top.map(\.object)
        for t in stack { counts[t] += 1 }
        while let n = stack.popLast() {
            if seen[n] { continue }
            seen[n] = true
            for e in edges(of: n) where e < nodes.count {
                counts[e] += 1
                if !seen[e] { stack.append(e) }
            }
        }
        return counts
    }

    /// Every class used by an object reachable or not, with how many objects use it.
    ///
    /// - Returns: Each class's name and chain with its number of objects, in
    ///   order of first use.
    public func classCensus() -> [(name: ClassName, chain: [String], count: Int)] {
        var order: [String] = []
        var info: [String: (ClassName, [String], Int)] = [:]
        for i in nodes.indices {
            // An object read from the archive: its class from the storage, without making its fields.
            let name: ClassName, chain: [String]
            if let storage = nodes.unedited(i) {
                guard let c = storage.classOf(i), let cls = storage.classInfo[c] else { continue }
                (name, chain) = (cls.name, cls.chain)
            } else {
                guard case .object(let o) = nodes[i] else { continue }
                (name, chain) = (o.className, o.classChain)
            }
            if let existing = info[name.archived] {
                info[name.archived] = (existing.0, existing.1, existing.2 + 1)
            } else {
                order.append(name.archived)
                info[name.archived] = (name, chain, 1)
            }
        }
        return order.compactMap { info[$0].map { (name: $0.0, chain: $0.1, count: $0.2) } }
    }
}

extension ObjectGraph {
    /// The size of the tree the graph was read from, as budgets count it
    /// (`PlistTree.inputMeasure`); nil for a graph made otherwise.
    var inputMeasure: Int? { nodes.storage?.tree.inputMeasure }
}
