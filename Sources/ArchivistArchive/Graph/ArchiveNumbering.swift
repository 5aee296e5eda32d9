import ArchivistCore

/// The `$objects` numbering of a graph as written: the new index of each
/// node (none for those not reached from `$top`, and class dictionaries),
/// and the nodes in their new order (`$null` first), depth-first in field
/// order, as NSKeyedArchiver numbers them.
///
/// Both tables hold 32-bit numbers (a graph has fewer nodes than its
/// archive has bytes, and archives past 2 GiB are refused here): a large
/// migration keeps them beside the tree read and the writer's tables.
struct ArchiveNumbering {
    /// The new index of each node, -1 for those left out.
    private var newIndex: [Int32]
    /// The graph index of each `$objects` entry written.
    private var order: [Int32]

    /// How many objects are written (before the class dictionaries).
    var count: Int { order.count }

    /// The graph node written at `$objects` position `position`.
    subscript(position: Int) -> Int { Int(order[position]) }

    /// The graph nodes in their written order.
    var nodes: LazyMapSequence<[Int32], Int> { order.lazy.map { Int($0) } }

    /// The new index of graph node `old`, or nil when it is not written.
    func index(of old: Int) -> Int? {
        guard old >= 0, old < newIndex.count else { return nil }
        let n = newIndex[old]
        return n >= 0 ? Int(n) : nil
    }

    /// Numbers the nodes reached from `$top`.
    ///
    /// With `checkingEdges`, a reference that would name no object written
    /// (outside the graph, or a class dictionary) throws as it is met, in
    /// the order a pass over the written nodes and each one's edges would meet it.
    init(_ graph: ObjectGraph, checkingEdges: Bool = false) throws {
        let count = graph.nodes.count
        guard count < Int(Int32.max) else {
            throw PlistError(.limitExceeded, "an archive of \(count) objects is more than can be written")
        }
        newIndex = [Int32](repeating: -1, count: count)
        order = [0]
        order.reserveCapacity(count)
        newIndex[0] = 0
        var stack = graph.top.map(\.object).reversed().map { $0 }
        if checkingEdges, let n = stack.last(where: { $0 < 0 || $0 >= count }) {
            throw PlistError(.archive, "reference to object \(n), past the \(count) nodes", at: .archive(object: n, keyPath: ""))
        }
        var edges: [Int] = []
        while let n = stack.popLast() {
            guard n >= 0, n < count else {
                throw PlistError(.archive, "reference to object \(n), past the \(count) nodes", at: .archive(object: n, keyPath: ""))
            }
            if newIndex[n] >= 0 || Self.isClassDescription(n, in: graph) { continue }
            newIndex[n] = Int32(truncatingIfNeeded: order.count)
            order.append(Int32(truncatingIfNeeded: n))
            edges.removeAll(keepingCapacity: true)
            graph.edges(of: n, into: &edges)
            if checkingEdges {
                for e in edges where e < 0 || e >= count || (newIndex[e] < 0 && Self.isClassDescription(e, in: graph)) {
                    throw PlistError(.archive, "reference to object \(e), which is not part of the graph", at: .archive(object: e, keyPath: ""))
                }
            }
            for e in edges.reversed() where e >= 0 && e < count && newIndex[e] < 0 {
                stack.append(e)
            }
        }
    }

    static func isClassDescription(_ n: Int, in graph: ObjectGraph) -> Bool {
        if let storage = graph.nodes.unedited(n) { return storage.isClassDescription(n) }
        if case .classDescription = graph.nodes[n] { return true }
        return false
    }
}
