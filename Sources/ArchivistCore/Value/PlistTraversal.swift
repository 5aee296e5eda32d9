/// A depth-first walk over any `PlistNodes` source without recursion, for
/// the text writers: however deep a tree is, walking it uses heap memory
/// only (one stack for the whole walk, nothing allocated per node).
/// Dictionaries give each key once, as `EntryOrder` resolves them.
struct PlistTraversal {
    /// Where a node sits in its parent.
    enum Slot {
        /// The root of the tree.
        case root
        /// Element `index` of an array.
        case element(index: Int)
        /// The entry at output position `index` of a dictionary, with its key node.
        case entry(key: Int, index: Int)

        /// The position in the parent (0 for the root), for separators.
        var index: Int {
            switch self {
            case .root: return 0
            case .element(let index), .entry(_, let index): return index
            }
        }
    }

    /// One step of the walk.
    enum Step {
        /// A node that is not a container.
        case scalar(PlistItem, Slot)
        /// The start of an array of `count` elements.
        case beginArray(count: Int, Slot)
        /// The start of a dictionary of `count` entries.
        case beginDictionary(count: Int, Slot)
        /// The end of the innermost open array.
        case endArray(count: Int, Slot)
        /// The end of the innermost open dictionary.
        case endDictionary(count: Int, Slot)
    }

    /// An open container: its node, the number of children to visit, the
    /// next one, and where a dictionary's resolved entries start in
    /// `entries` (nil: stored order).
    private struct Frame {
        var node: Int
        var isDictionary: Bool
        var count: Int
        var next: Int
        var entries: Int?
        var slot: Slot
    }

    private var started = false
    private var stack: [Frame] = []
    private var entries: [Int] = []
    private var order: EntryOrder

    /// A walk; dictionary entries come sorted by UTF-16 code units when
    /// `sortKeys` is true and in stored order otherwise.
    init(sortKeys: Bool) {
        order = EntryOrder(sorted: sortKeys)
    }

    /// The number of containers open around the next node.
    var depth: Int { stack.count }

    /// The next step over `source` (the same source at every call), or nil at the end.
    mutating func next<S: PlistNodes>(in source: inout S) throws -> Step? {
        if !started {
            started = true
            return try enter(source.rootNode, .root, in: &source)
        }
        guard let t = stack.indices.last else { return nil }
        let position = stack[t].next
        guard position < stack[t].count else {
            let frame = stack.removeLast()
            if let start = frame.entries { entries.removeSubrange(start...) }
            source.leave(frame.node)
            return frame.isDictionary ? .endDictionary(count: frame.count, frame.slot)
                                      : .endArray(count: frame.count, frame.slot)
        }
        stack[t].next = position + 1
        let node = stack[t].node
        guard stack[t].isDictionary else {
            return try enter(try source.element(position, of: node), .element(index: position), in: &source)
        }
        var keyEntry = position, valueEntry = position
        if let start = stack[t].entries {
            keyEntry = entries[start + 2 * position]
            valueEntry = entries[start + 2 * position + 1]
        }
        let key = try source.key(keyEntry, of: node)
        return try enter(try source.value(valueEntry, of: node), .entry(key: key, index: position), in: &source)
    }

    /// Leaves every open container, for a writer that stops early and
    /// walks the source again (a source may refuse to enter an open one).
    mutating func abandon<S: PlistNodes>(in source: inout S) {
        while let frame = stack.popLast() { source.leave(frame.node) }
        entries.removeAll()
    }

    private mutating func enter<S: PlistNodes>(_ node: Int, _ slot: Slot, in source: inout S) throws -> Step {
        let item = try source.item(node)
        switch item {
        case .array(let count):
            try source.enter(node, depth: stack.count)
            stack.append(Frame(node: node, isDictionary: false, count: count, next: 0, entries: nil, slot: slot))
            return .beginArray(count: count, slot)
        case .dictionary(let stored):
            try source.enter(node, depth: stack.count)
            let start = entries.count
            let resolved = try order.resolve(node, count: stored, of: &source, into: &entries)
            let count = resolved ?? stored
            stack.append(Frame(node: node, isDictionary: true, count: count, next: 0, entries: resolved == nil ? nil : start, slot: slot))
            return .beginDictionary(count: count, slot)
        case .string, .integer, .real, .bool, .date, .data, .uid, .null:
            return .scalar(item, slot)
        }
    }

    /// The path from the root to the node of the latest `.scalar` step (given
    /// its slot), as `objects.ABC.children[2]`; empty for the root.
    func keyPath<S: PlistNodes>(to slot: Slot, in source: inout S) -> String {
        var path = ""
        var scratch: [UInt8] = []
        func append(_ slot: Slot, _ source: inout S) {
            switch slot {
            case .root: break
            case .element(let index): path += "[\(index)]"
            case .entry(let key, _):
                var name = "?"
                if case .string(let text)? = try? source.item(key) {
                    name = text.withUTF8(scratch: &scratch) { String(decoding: $0, as: UTF8.self) }
                }
                path += path.isEmpty ? name : "." + name
            }
        }
        for frame in stack { append(frame.slot, &source) }
        append(slot, &source)
        return path
    }
}
