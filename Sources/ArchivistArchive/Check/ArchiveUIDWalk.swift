import ArchivistCore

/// The UIDs inside one `$objects` entry, in field order, without descending
/// into other objects (UIDs are the edges), each with the steps of the field
/// path inside the entry (`steps`: made into text only where a path is kept
/// or reported). Containers deeper than `maxDepth` are not walked.
///
/// An iterator over the tree's view rather than a walk calling a closure:
/// the validator asks it for every UID of the archive, and its loop keeps
/// its tables in locals instead of a closure's captures (no reference
/// counting per UID).
struct ArchiveUIDWalk {
    static let maxDepth = 512

    let view: PlistTree.View
    /// The steps to the UID `next()` returned last.
    private(set) var steps: [TreeStep] = []
    /// The containers being walked, each with its next child.
    private var open: [(node: Int, next: Int)] = []
    /// An entry that is a UID itself, not yet returned.
    private var pendingRoot: UInt64?
    /// The step to the UID returned last, taken off at the next call.
    private var stepped = false

    init(_ view: PlistTree.View) {
        self.view = view
        steps.reserveCapacity(8)
    }

    /// Starts over at entry node `node`.
    mutating func start(_ node: Int) {
        // Empty after a walk that ran to its end.
        if !steps.isEmpty { steps.removeAll(keepingCapacity: true) }
        if !open.isEmpty { open.removeAll(keepingCapacity: true) }
        stepped = false
        pendingRoot = nil
        let n = view.nodes[node]
        switch n.kind {
        case .uid: pendingRoot = n.payload
        case .array, .dictionary: open.append((node, 0))
        case .string, .integer, .real, .bool, .date, .data, .null: break
        }
    }

    /// The next UID, or nil when the entry holds no more.
    mutating func next() -> UInt64? {
        if let root = pendingRoot {
            pendingRoot = nil
            return root
        }
        if stepped {
            steps.removeLast()
            stepped = false
        }
        while let (node, i) = open.last {
            let n = view.nodes[node]
            guard i < n.count else {
                // A container done: the step into it goes too (the entry's own has none).
                open.removeLast()
                if !open.isEmpty { steps.removeLast() }
                continue
            }
            open[open.count - 1].next = i + 1
            let isArray = n.kind == .array
            let child = isArray ? view.element(i, of: node) : view.value(i, of: node)
            let c = view.nodes[child]
            switch c.kind {
            case .uid, .array, .dictionary:
                // A child as deep as the limit is not looked at.
                guard open.count < Self.maxDepth else { continue }
                steps.append(isArray ? .index(i) : .key(view.key(i, of: node)))
                if c.kind == .uid {
                    stepped = true
                    return c.payload
                }
                open.append((child, 0))
            case .string, .integer, .real, .bool, .date, .data, .null:
                continue
            }
        }
        return nil
    }
}
