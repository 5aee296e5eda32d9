import ArchivistCore

/// What the checks of one archive share (the unarchiver check, then the
/// secure-coding check): which objects a walk from `$top` along reference
/// fields reaches (the objects of `graph.paths()`, found once, without making
/// a node), and the key paths, made at the first finding only.
final class ArchiveCheckWalk {
    let graph: ObjectGraph
    /// For each node, whether it is reached from `$top`.
    let reached: [Bool]
    private var shown: ArchivePaths?

    init(_ graph: ObjectGraph) {
        self.graph = graph
        reached = Self.reachedObjects(graph)
    }

    /// The walk of the graph of an archive as read, taking what validation
    /// reached when that is what the graph's edges reach
    /// (``KeyedArchive/reachIsGraphReach``): no second walk.
    init(_ graph: ObjectGraph, readFrom archive: KeyedArchive) {
        self.graph = graph
        if archive.reachIsGraphReach, graph.nodes.isAsRead, graph.nodes.count == archive.storage.objects.count {
            reached = (0..<graph.nodes.count).map { archive.paths.isReached($0) }
        } else {
            reached = Self.reachedObjects(graph)
        }
    }

    /// The key path of a reached object (`graph.paths()`, made once when a
    /// finding first asks).
    func path(to index: Int) -> String {
        let paths = shown ?? graph.paths()
        shown = paths
        return paths.path(to: index) ?? ""
    }

    /// For each node, whether `graph.paths()` reaches it: the same walk from
    /// `$top` along reference fields, without making paths or nodes.
    private static func reachedObjects(_ graph: ObjectGraph) -> [Bool] {
        var reached = [Bool](repeating: false, count: graph.nodes.count)
        var queue: [Int] = []
        for (_, object) in graph.top where graph.nodes.indices.contains(object) && !reached[object] {
            reached[object] = true
            queue.append(object)
        }
        var edges: [Int] = []
        var head = 0
        while head < queue.count {
            let index = queue[head]
            head += 1
            edges.removeAll(keepingCapacity: true)
            graph.edges(of: index, into: &edges)
            for r in edges where graph.nodes.indices.contains(r) && !reached[r] {
                reached[r] = true
                queue.append(r)
            }
        }
        return reached
    }
}
