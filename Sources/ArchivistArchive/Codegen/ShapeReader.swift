import ArchivistCore

/// Reads the shapes of one graph's referenced values, each node once (a
/// container shared along many paths, or containing itself, is walked once).
struct ShapeReader {
    let graph: ObjectGraph
    /// Shapes already read; `.some(nil)` while a node is being read.
    private var known: [Int: SecureFieldShape?] = [:]

    init(graph: ObjectGraph) {
        self.graph = graph
    }

    /// The shape of a plain value in `$objects` or inline.
    static func valueShape(_ v: PlistValue) -> SecureFieldShape? {
        if let kind = SecureNumberKind(v) { return .number(kind) }
        switch v {
        case .string: return SecureFieldShape.standing(for: .string)
        case .data: return SecureFieldShape.standing(for: .data)
        case .date: return SecureFieldShape.standing(for: .date)
        case .array: return .list(className: ClassCatalogue.standing(for: .array).name, element: nil)
        case .dictionary: return .map(className: ClassCatalogue.standing(for: .dictionary).name, key: nil, value: nil)
        case .integer, .real, .bool, .uid, .null: return nil
        }
    }

    /// The shape of node `index`; nil for `$null` (or a node met again while
    /// it is being read).
    mutating func shape(of index: Int, depth: Int) -> SecureFieldShape? {
        if let seen = known[index] { return seen }
        guard depth < SwiftCodegen.maxShapeDepth else { return nil }
        known[index] = .some(nil)
        let shape = read(index, depth: depth)
        known[index] = .some(shape)
        return shape
    }

    private mutating func read(_ index: Int, depth: Int) -> SecureFieldShape? {
        switch graph.nodes[safe: index] {
        case nil, .null?, .classDescription?: return nil
        case .value(let v)?: return Self.valueShape(v)
        case .object(let o)?:
            let name = o.className.archived
            switch FoundationValue.standIn(o, in: graph) {
            case .list(let refs)?: return collection(name, refs, depth: depth)
            case .counted(let entries)?: return .foundation(className: name, holding: distinct(entries.map(\.object), depth: depth))
            case .map(let keys, let values)?:
                let k = distinct(keys, depth: depth), v = distinct(values, depth: depth)
                if let key = Self.single(k), let value = Self.single(v) {
                    return .map(className: name, key: key, value: value)
                }
                return .foundation(className: name, holding: k + v.filter { !k.contains($0) })
            case .attributedString(let a)? where (a.attributes ?? 0) != 0:
                return .foundation(className: name, holding: distinct([a.attributes ?? 0], depth: depth))
            case .string?, .data?, .date?, .described?, .url?, .null?, .attributedString?, .line?:
                return SecureFieldShape.foundationObject(name)
            case nil:
                return SwiftCodegen.isCustom(o, in: graph)
                    ? .custom(o.className.swiftType, ancestors: SwiftCodegen.customAncestors(of: o).map(\.swiftType))
                    : .foundation(className: name, holding: [])
            }
        }
    }

    /// An array or set (bridged when its elements have one shape), or another
    /// collection class with the classes it holds.
    mutating func collection(_ name: String, _ refs: [Int], depth: Int) -> SecureFieldShape {
        let shapes = distinct(refs, depth: depth)
        let bridge = SecureFieldShape.bridge(of: name)
        let bridged = bridge == .array || bridge == .set
        if bridged, shapes.isEmpty { return .list(className: name, element: nil) }
        if bridged, let element = Self.single(shapes) { return .list(className: name, element: element) }
        return .foundation(className: name, holding: shapes)
    }

    /// The distinct shapes of some nodes, in order.
    private mutating func distinct(_ refs: [Int], depth: Int) -> [SecureFieldShape] {
        var out: [SecureFieldShape] = []
        for r in refs {
            if let s = shape(of: r, depth: depth + 1), !out.contains(s) { out.append(s) }
        }
        return out
    }

    /// The one shape that all of `shapes` merge into; nil when they do not.
    private static func single(_ shapes: [SecureFieldShape]) -> SecureFieldShape? {
        guard var merged = shapes.first else { return nil }
        for s in shapes.dropFirst() {
            guard let next = merged.merged(with: s) else { return nil }
            merged = next
        }
        return merged
    }
}
