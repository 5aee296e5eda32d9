import ArchivistCore

/// A validated archive kept compact: its tree, `$objects` as node numbers of
/// the tree and, for each entry, the index of its class dictionary. Class
/// names and chains are read once per class. Graph nodes are made from it on
/// demand (`node(_:)`), so a graph holds no Swift values per object.
final class ArchiveStorage: Sendable {
    /// The class index of an entry that is not an object.
    static let noClass = UInt32.max

    /// A class dictionary, read once.
    struct ClassInfo: Sendable {
        var name: ClassName
        var chain: [String]
        /// Whether the dictionary has a `$classes` (validated: an array of strings).
        var listsClasses: Bool
    }

    let tree: PlistTree
    /// The node of each `$objects` entry.
    let objects: [UInt32]
    /// For each entry, the `$objects` index of its class dictionary, or `noClass`.
    let classes: [UInt32]
    /// Each class dictionary used by an object, by its `$objects` index.
    let classInfo: [UInt32: ClassInfo]

    init(tree: PlistTree, objects: [UInt32], classes: [UInt32]) {
        self.tree = tree
        self.objects = objects
        self.classes = classes
        var info: [UInt32: ClassInfo] = [:]
        // Each class described once; a few recent classes, in slots by
        // index, are looked at before the table (a hash per object).
        var recent = [UInt32](repeating: Self.noClass, count: 64)
        for c in classes where c != Self.noClass && recent[Int(c) & 63] != c {
            recent[Int(c) & 63] = c
            if info[c] == nil { info[c] = Self.classDescription(Int(objects[Int(c)]), in: tree) }
        }
        classInfo = info
    }

    /// The class index of an object; nil for other entries and indices outside `$objects`.
    func classOf(_ index: Int) -> UInt32? {
        guard index >= 0, index < classes.count, classes[index] != Self.noClass else { return nil }
        return classes[index]
    }

    /// `$classname` and `$classes` of a dictionary node (validated: a name is there).
    private static func classDescription(_ node: Int, in tree: PlistTree) -> ClassInfo {
        let name = tree.node(forKey: "$classname", in: node).flatMap { tree.string(at: $0) } ?? ""
        var chain: [String] = []
        let list = tree.node(forKey: "$classes", in: node)
        if let list, tree.kind(of: list) == .array {
            chain = (0..<tree.count(of: list)).compactMap { tree.string(at: tree.element($0, of: list)) }
        }
        return ClassInfo(name: ClassName(archived: name), chain: chain, listsClasses: list != nil)
    }

    /// Entry `index` of `$objects` as a graph node. Any entry that is the
    /// string `$null` is nil, not only the first: NSKeyedUnarchiver reads a
    /// reference to one as nil (Interface Builder's nibs hold several,
    /// `sparkle/SUStatus.nib/keyedobjects.nib` among them).
    func node(_ index: Int) -> ArchivedNode {
        if index == 0 { return .null }
        let node = Int(objects[index])
        guard tree.kind(of: node) == .dictionary else {
            if tree.kind(of: node) == .string, tree.string(at: node, equals: "$null") { return .null }
            return .value(tree.value(at: node))
        }
        if let c = classOf(index), let info = classInfo[c] {
            var fields: [Field] = []
            fields.reserveCapacity(tree.count(of: node))
            for i in 0..<tree.count(of: node) {
                let (key, value) = tree.entry(i, of: node)
                if isClassKey(key) { continue }
                fields.append(Field(key: tree.string(at: key) ?? "", value: fieldValue(value)))
            }
            return .object(ArchivedObject(className: info.name, classChain: info.chain, fields: fields))
        }
        if let name = tree.node(forKey: "$classname", in: node).flatMap({ tree.string(at: $0) }) {
            return .classDescription(ClassName(archived: name), chain: Self.classDescription(node, in: tree).chain)
        }
        return .value(tree.value(at: node))
    }

    /// True for the key `$class` (its length compared first: most keys differ in it).
    func isClassKey(_ key: Int) -> Bool {
        tree.count(of: key) == 6 && tree.string(at: key, equals: "$class")
    }

    /// How a field's value node was written: a UID, a non-empty array of UIDs, or inline.
    private func fieldValue(_ node: Int) -> FieldValue {
        if let u = tree.uid(at: node) { return .reference(Int(u)) }
        if isReferenceList(node) {
            return .references((0..<tree.count(of: node)).map { Int(tree.uid(at: tree.element($0, of: node)) ?? 0) })
        }
        return .inline(tree.value(at: node))
    }

    /// True for a non-empty array of UIDs (a field's list of references).
    func isReferenceList(_ node: Int) -> Bool {
        guard tree.kind(of: node) == .array, tree.count(of: node) > 0 else { return false }
        return (0..<tree.count(of: node)).allSatisfy { tree.kind(of: tree.element($0, of: node)) == .uid }
    }

    /// True when entry `index` is a class dictionary (`$classname`, no
    /// `$class`), as ``node(_:)`` reads it, without making the node.
    func isClassDescription(_ index: Int) -> Bool {
        guard index > 0, index < objects.count, classOf(index) == nil else { return false }
        let node = Int(objects[index])
        return tree.kind(of: node) == .dictionary && tree.node(forKey: "$classname", in: node).flatMap { tree.string(at: $0) } != nil
    }

    /// False when entry `index`, as ``node(_:)`` reads it, is neither data
    /// nor an object with an inline data field (read without making the node).
    func holdsData(_ index: Int) -> Bool {
        guard index > 0, index < objects.count else { return index == 0 ? false : true }
        let node = Int(objects[index])
        switch tree.kind(of: node) {
        case .data: return true
        case .dictionary:
            guard classOf(index) != nil else { return false }
            for i in 0..<tree.count(of: node) where tree.kind(of: tree.entry(i, of: node).value) == .data { return true }
            return false
        case .string, .integer, .real, .bool, .date, .array, .uid, .null: return false
        }
    }

    /// The `$objects` indices an object refers to, in field order, read from the
    /// tree without making its fields.
    func edges(of index: Int, into out: inout [Int]) {
        guard classOf(index) != nil else { return }
        let node = Int(objects[index])
        for i in 0..<tree.count(of: node) {
            let (key, value) = tree.entry(i, of: node)
            if let u = tree.uid(at: value) {
                if !isClassKey(key) { out.append(Int(u)) }
            } else if isReferenceList(value) {
                for j in 0..<tree.count(of: value) { out.append(Int(tree.uid(at: tree.element(j, of: value)) ?? 0)) }
            }
        }
    }
}
