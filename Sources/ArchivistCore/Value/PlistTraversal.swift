/// A depth-first walk over a tree without recursion, for the text writers:
/// however deep a tree is, walking it uses heap memory only.
struct PlistTraversal {
    /// Where a node sits in its parent.
    enum Slot {
        /// The root of the tree.
        case root
        /// Element `index` of an array.
        case element(index: Int)
        /// The entry at output position `index` of a dictionary, with its key.
        case entry(key: String, index: Int)

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
        case scalar(PlistValue, Slot)
        /// The start of an array of `count` elements.
        case beginArray(count: Int, Slot)
        /// The start of a dictionary of `count` entries.
        case beginDictionary(count: Int, Slot)
        /// The end of the innermost open array.
        case endArray(count: Int, Slot)
        /// The end of the innermost open dictionary.
        case endDictionary(count: Int, Slot)
    }

    /// An open container: its elements (a dictionary's values), a
    /// dictionary's keys, and the order to visit them (nil: stored order).
    private struct Frame {
        var isDictionary: Bool
        var values: [PlistValue]
        var keys: [String]
        var order: [Int]?
        var next: Int
        var slot: Slot
    }

    private var root: PlistValue?
    private var stack: [Frame] = []
    private let sortKeys: Bool

    /// A walk over `root`; dictionary entries come sorted by UTF-16 code units
    /// when `sortKeys` is true and in stored order otherwise.
    init(_ root: PlistValue, sortKeys: Bool) {
        self.root = root
        self.sortKeys = sortKeys
    }

    /// The number of containers open around the next node.
    var depth: Int { stack.count }

    /// The next step, or nil at the end.
    mutating func next() -> Step? {
        if let value = root {
            root = nil
            return enter(value, .root)
        }
        guard let t = stack.indices.last else { return nil }
        let position = stack[t].next
        guard position < stack[t].values.count else {
            let frame = stack.removeLast()
            return frame.isDictionary ? .endDictionary(count: frame.values.count, frame.slot)
                                      : .endArray(count: frame.values.count, frame.slot)
        }
        stack[t].next = position + 1
        guard stack[t].isDictionary else {
            return enter(stack[t].values[position], .element(index: position))
        }
        let i = stack[t].order?[position] ?? position
        return enter(stack[t].values[i], .entry(key: stack[t].keys[i], index: position))
    }

    private mutating func enter(_ value: PlistValue, _ slot: Slot) -> Step {
        switch value {
        case .array(let items):
            stack.append(Frame(isDictionary: false, values: items, keys: [], order: nil, next: 0, slot: slot))
            return .beginArray(count: items.count, slot)
        case .dictionary(let dict):
            let order = sortKeys ? dict.indicesSortedByUTF16() : nil
            stack.append(Frame(isDictionary: true, values: dict.values, keys: dict.keys, order: order, next: 0, slot: slot))
            return .beginDictionary(count: dict.count, slot)
        case .string, .integer, .real, .bool, .date, .data, .uid, .null:
            return .scalar(value, slot)
        }
    }

    /// The path from the root to the node of the latest `.scalar` step (given
    /// its slot), as `objects.ABC.children[2]`; empty for the root.
    func keyPath(to slot: Slot) -> String {
        var path = ""
        func append(_ slot: Slot) {
            switch slot {
            case .root: break
            case .element(let index): path += "[\(index)]"
            case .entry(let key, _): path += path.isEmpty ? key : "." + key
            }
        }
        for frame in stack { append(frame.slot) }
        append(slot)
        return path
    }
}
