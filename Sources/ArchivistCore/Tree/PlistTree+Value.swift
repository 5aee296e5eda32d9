extension PlistTreeBuilder {
    /// The node of a value and everything below it (for writers that build
    /// a tree from values made in code). Nesting deeper than `maxDepth`
    /// levels below `depth` is refused.
    package mutating func value(_ value: PlistValue, depth: Int = 0, maxDepth: Int = Limits.default.maxDepth) throws -> Int {
        switch value {
        case .string(let s): return string(s)
        case .integer(let i): return integer(i)
        case .real(let r): return real(r)
        case .bool(let v): return bool(v)
        case .date(let d): return date(d)
        case .data(let bytes): return bytes.withUnsafeBytes { data($0) }
        case .uid(let u): return uid(u)
        case .null: return null()
        case .array(let items):
            guard depth < maxDepth else { throw Self.tooDeep(maxDepth) }
            let mark = openArray()
            for item in items { append(try self.value(item, depth: depth + 1, maxDepth: maxDepth), to: mark) }
            return close(mark)
        case .dictionary(let d):
            guard depth < maxDepth else { throw Self.tooDeep(maxDepth) }
            var mark = openDictionary()
            for (k, item) in d {
                let v = try self.value(item, depth: depth + 1, maxDepth: maxDepth)
                _ = add(key: key(k), value: v, to: &mark)
            }
            return close(mark)
        }
    }

    private static func tooDeep(_ maxDepth: Int) -> PlistError {
        PlistError(.limitExceeded, "nesting deeper than \(maxDepth) levels")
    }
}

extension PlistTree {
    /// The tree of a value (dictionary keys stored once, strings as UTF-8).
    /// Nesting deeper than `limits.maxDepth` is refused.
    ///
    /// - Parameters:
    ///   - value: The property list built or edited in code.
    ///   - limits: The bounds the tree must keep (depth, values, lengths).
    /// - Throws: ``PlistError`` (`limitExceeded`) when the value breaks a limit.
    public init(_ value: PlistValue, limits: Limits = .default) throws {
        var builder = PlistTreeBuilder()
        let root = try builder.value(value, maxDepth: limits.maxDepth)
        self = try builder.finish(root: root)
    }

    /// The whole tree as an editable `PlistValue` (shared nodes become copies
    /// that share storage until edited).
    public var value: PlistValue { value(at: root) }

    /// The subtree at `node` as a `PlistValue`.
    package func value(at node: Int) -> PlistValue {
        withView { view in
            let item = view.item(node)
            // A node without children converts alone: no record of shared nodes.
            if let leaf = PlistValueConversion.leaf(item) { return leaf }
            if node == root { WholeDocumentConversions.note() }
            var conversion = PlistValueConversion(view, wholeTree: node == root)
            return conversion.value(node)
        }
    }
}

/// Converts a tree's nodes to values. A string, data or container node met a
/// second time (a binary plist's shared object) is kept, so its further uses
/// share the value's storage instead of copying it again: 2,000 uses of one
/// 1 MiB data object cost 2 MiB, not 2 GB.
private struct PlistValueConversion {
    let view: PlistTree.View
    /// Nodes converted once: a bit per node of the tree when converting
    /// all of it; a set when converting a part (an archive's inline field),
    /// which must not cost the size of the whole tree.
    var seenBits: [UInt64]
    var seenSet = Set<Int>()
    /// Values of the nodes converted twice.
    var kept: [Int: PlistValue] = [:]

    init(_ view: PlistTree.View, wholeTree: Bool) {
        self.view = view
        seenBits = wholeTree ? [UInt64](repeating: 0, count: (view.nodes.count + 63) / 64) : []
    }

    /// Marks `node` as converted; true when it already was.
    private mutating func markSeen(_ node: Int) -> Bool {
        guard !seenBits.isEmpty else { return !seenSet.insert(node).inserted }
        let bit: UInt64 = 1 << UInt64(node & 63)
        defer { seenBits[node >> 6] |= bit }
        return seenBits[node >> 6] & bit != 0
    }

    /// The value of a scalar, string or data item; nil for a container.
    @inline(__always)
    static func leaf(_ item: PlistItem) -> PlistValue? {
        switch item {
        case .integer(let i): return .integer(i)
        case .real(let r): return .real(r)
        case .bool(let v): return .bool(v)
        case .date(let d): return .date(d)
        case .uid(let u): return .uid(u)
        case .null: return .null
        case .string(let text): return .string(String(decoding: text.bytes, as: UTF8.self))
        case .data(let bytes): return .data(Array(bytes))
        case .array, .dictionary: return nil
        }
    }

    mutating func value(_ node: Int) -> PlistValue {
        let item = view.item(node)
        switch item {
        case .integer, .real, .bool, .date, .uid, .null:
            if let scalar = Self.leaf(item) { return scalar }
        case .string, .data, .array, .dictionary:
            break
        }
        let again = markSeen(node)
        if again, let value = kept[node] { return value }
        let value = convert(node, item)
        if again { kept[node] = value }
        return value
    }

    private mutating func convert(_ node: Int, _ item: PlistItem) -> PlistValue {
        if let leaf = Self.leaf(item) { return leaf }
        switch item {
        case .array(let count):
            var items: [PlistValue] = []
            items.reserveCapacity(count)
            for i in 0..<count { items.append(value(view.element(i, of: node))) }
            return .array(items)
        case .dictionary(let count):
            var d = PlistDictionary(minimumCapacity: count)
            for i in 0..<count {
                guard case .string(let key) = view.item(view.key(i, of: node)) else { continue }
                d.appendUnchecked(key: String(decoding: key.bytes, as: UTF8.self), value: value(view.value(i, of: node)))
            }
            return .dictionary(d)
        case .string, .data, .integer, .real, .bool, .date, .uid, .null:
            return value(node)
        }
    }
}
