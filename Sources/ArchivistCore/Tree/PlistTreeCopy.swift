/// Copies nodes of one tree into a builder, for writers that make a new tree
/// from parts of a tree read (an archive's unchanged objects): no `PlistValue`
/// on the way. A container, or a string or data of at least
/// ``sharedFrom`` bytes, copied once is reused when met again, so a node the
/// source shares stays shared (2,000 uses of one 1 MiB data node cost 1 MiB,
/// not 2 GB); a shorter string or data is copied at each use, costing at
/// most a few times what the reference to it costs.
package struct PlistTreeCopy {
    /// The tree copied from.
    package let source: PlistTree
    /// Nodes of `source` already copied, and their nodes in the builder.
    private var copied: [Int: Int] = [:]
    /// The size from which a string or data node is copied once.
    package static let sharedFrom = 64

    /// A copy from `source`.
    package init(from source: PlistTree) {
        self.source = source
    }

    /// The builder's node for `node` of the source and everything below it.
    package mutating func node(_ node: Int, into builder: inout PlistTreeBuilder) -> Int {
        // Taken out while it is used, so that the table is not copied.
        var copied: [Int: Int] = [:]
        swap(&copied, &self.copied)
        defer { swap(&copied, &self.copied) }
        return source.withView { view in Self.copy(node, view, into: &builder, copied: &copied) }
    }

    /// The builder's key node with the text of the source's string node `node`.
    package func key(_ node: Int, into builder: inout PlistTreeBuilder) -> Int {
        source.withView { view in
            guard case .string(let text) = view.item(node) else { return builder.key("") }
            return builder.key(utf8: text.bytes)
        }
    }

    private static func copy(_ node: Int, _ view: PlistTree.View, into b: inout PlistTreeBuilder, copied: inout [Int: Int]) -> Int {
        let made: Int
        switch view.item(node) {
        case .integer(let i): return b.integer(i)
        case .real(let r): return b.real(r)
        case .bool(let v): return b.bool(v)
        case .date(let d): return b.date(d)
        case .uid(let u): return b.uid(u)
        case .null: return b.null()
        case .string(let text):
            if text.bytes.count < sharedFrom { return b.string(utf8: text.bytes) }
            if let done = copied[node] { return done }
            made = b.string(utf8: text.bytes)
        case .data(let bytes):
            if bytes.count < sharedFrom { return b.data(bytes) }
            if let done = copied[node] { return done }
            made = b.data(bytes)
        case .array(let count):
            if let done = copied[node] { return done }
            let mark = b.openArray()
            for i in 0..<count {
                let element = copy(view.element(i, of: node), view, into: &b, copied: &copied)
                b.append(element, to: mark)
            }
            made = b.close(mark)
        case .dictionary(let count):
            if let done = copied[node] { return done }
            var mark = b.openDictionary()
            for i in 0..<count {
                guard case .string(let key) = view.item(view.key(i, of: node)) else { continue }
                let value = copy(view.value(i, of: node), view, into: &b, copied: &copied)
                _ = b.add(key: b.key(utf8: key.bytes), value: value, to: &mark)
            }
            made = b.close(mark)
        }
        copied[node] = made
        return made
    }
}

extension PlistTree {
    /// The tree with each data node `replacements` names holding other bytes,
    /// everything else as it was (node for node: nothing is converted or
    /// rebuilt). The new bytes are added to the byte arena; a node that is not
    /// data is left as it is. A data node several containers share changes in
    /// all of them.
    package func replacingData(_ replacements: [(node: Int, bytes: [UInt8])]) -> PlistTree {
        var copy = self
        for (node, content) in replacements where node >= 0 && node < copy.nodes.count && copy.nodes[node].kind == .data {
            let start = copy.bytes.count
            copy.bytes.append(contentsOf: content)
            copy.nodes[node] = Node(.data, count: content.count, payload: UInt64(start))
        }
        return copy
    }
}
