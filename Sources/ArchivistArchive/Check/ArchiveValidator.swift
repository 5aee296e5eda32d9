import ArchivistCore

/// Checks every UID and class reference of `$objects` and finds, breadth first,
/// the key path by which each object is first reached from `$top`.
enum ArchiveValidator {
    /// What validating an archive finds.
    struct Result {
        /// The key path by which each object is first reached from `$top`.
        var paths: ArchivePaths
        /// For each entry the index of its class dictionary
        /// (`ArchiveStorage.noClass` for entries that are not objects).
        var classes: [UInt32]
        /// True when every UID the walk from `$top` followed is one the
        /// object graph follows too (a field of an object, or an element of
        /// a field that is a list of UIDs only): the objects `paths` reaches
        /// are then those a walk of the graph's edges reaches.
        var reachIsGraphReach: Bool
    }

    /// Validates a tree's `$objects` (`objects`: their node numbers).
    static func validate(tree: PlistTree, objects: [UInt32], top: [(key: String, object: Int)]) throws -> Result {
        try tree.withView { view in try validate(tree: tree, view: view, objects: objects, top: top) }
    }

    private static func validate(tree: PlistTree, view: PlistTree.View, objects: [UInt32],
                                 top: [(key: String, object: Int)]) throws -> Result {
        let count = objects.count
        var paths = ArchivePaths(count: count)
        var queue: [Int] = []
        for (key, object) in top where !paths.isReached(object) {
            paths.set(object, .top(key))
            queue.append(object)
        }
        // Breadth-first from $top, so an error names the shortest way there.
        var head = 0
        var walk = ArchiveUIDWalk(view)
        var graphReach = GraphReach()
        // What each class makes of its objects, worked out once per class.
        var kinds = ContainerShape.ClassKinds()
        while head < queue.count {
            let object = queue[head]
            head += 1
            let classUID = classUID(of: Int(objects[object]), in: view)
            let shape = ContainerShape(object, classUID: classUID, in: tree, objects: objects, kinds: &kinds)
            walk.start(Int(objects[object]))
            while let uid = walk.next() {
                if graphReach.holds { graphReach.check(walk.steps, entry: Int(objects[object]), isObject: classUID != nil, view: view) }
                guard uid < UInt64(count) else {
                    let base = paths.path(to: object) ?? "$objects[\(object)]"
                    let field = FieldStep.text(TreeStep.fieldSteps(walk.steps, in: tree))
                    throw PlistError(.archive, "\(field.isEmpty ? "value" : field) refers to object \(uid), past the \(count) objects",
                                     at: .archive(object: object, keyPath: join(base, field)))
                }
                let target = Int(uid)
                if !paths.isReached(target), !TreeStep.isClass(walk.steps, in: view) {
                    if case .key(let k)? = walk.steps.first,
                       let link = shape.link(walk.steps, key: paths.keyText(k, in: tree), parent: object) {
                        paths.set(target, link, keyNode: k)
                    } else {
                        paths.set(target, shape.link(TreeStep.fieldSteps(walk.steps, in: tree), parent: object))
                    }
                    queue.append(target)
                }
            }
        }
        // Every object, reachable or not: UIDs in range (those reached were
        // checked above), classes well formed.
        var classes = [UInt32](repeating: ArchiveStorage.noClass, count: count)
        // Each class dictionary is checked once, by its index.
        var checkedClasses = [Bool](repeating: false, count: count)
        for object in 0..<count {
            func base() -> String { paths.path(to: object) ?? "" }
            let node = Int(objects[object])
            if !paths.isReached(object) {
                walk.start(node)
                while let uid = walk.next() {
                    guard uid >= UInt64(count) else { continue }
                    let field = FieldStep.text(TreeStep.fieldSteps(walk.steps, in: tree))
                    throw PlistError(.archive, "\(field.isEmpty ? "value" : field) refers to object \(uid), past the \(count) objects",
                                     at: .archive(object: object, keyPath: join(base(), field)))
                }
            }
            guard tree.kind(of: node) == .dictionary else { continue }
            // A dictionary in $objects is an object (with $class) or a class description.
            guard let cls = classNode(in: node, of: view) else {
                if tree.node(forKey: "$classname", in: node) != nil { continue }
                throw PlistError(.archive, "object \(object) is a dictionary with neither $class nor $classname",
                                 at: .archive(object: object, keyPath: base()))
            }
            guard let c = tree.uid(at: cls) else {
                throw PlistError(.archive, "$class is \(tree.kind(of: cls).nameWithArticle), not a UID", at: .archive(object: object, keyPath: join(base(), "$class")))
            }
            // In range: checked with every UID above.
            let index = Int(c)
            if !checkedClasses[index] {
                try checkClass(index, tree: tree, objects: objects, from: object, path: { join(base(), "$class") })
                checkedClasses[index] = true
            }
            classes[object] = UInt32(truncatingIfNeeded: index)
        }
        return Result(paths: paths, classes: classes, reachIsGraphReach: graphReach.holds)
    }

    /// Whether every UID met so far is an edge of the object graph
    /// (`ArchiveStorage.edges(of:into:)`): a field of an object that is a
    /// UID, or an element of a field that is a non-empty list of UIDs only.
    private struct GraphReach {
        private(set) var holds = true
        /// The list field whose first element was checked last, and whether
        /// it is a list of UIDs only (its later elements come next, in order).
        private var list: (entry: Int, key: Int, ofUIDs: Bool)?

        mutating func check(_ steps: [TreeStep], entry: Int, isObject: Bool, view: PlistTree.View) {
            guard isObject, steps.count == 1 || steps.count == 2, case .key(let key) = steps[0] else { return holds = false }
            guard steps.count == 2 else { return }
            guard case .index(let i) = steps[1] else { return holds = false }
            if i == 0 {
                list = (entry, key, Self.isListOfUIDs(field: key, of: entry, view: view))
            }
            guard let list, list.entry == entry, list.key == key, list.ofUIDs else { return holds = false }
        }

        /// Whether the field under key node `key` of a dictionary is a
        /// non-empty array of UIDs only (`ArchiveStorage.isReferenceList`).
        private static func isListOfUIDs(field key: Int, of entry: Int, view: PlistTree.View) -> Bool {
            let n = view.nodes[entry]
            guard n.kind == .dictionary else { return false }
            for i in 0..<n.count where view.key(i, of: entry) == key {
                let list = view.value(i, of: entry)
                let l = view.nodes[list]
                guard l.kind == .array, l.count > 0 else { return false }
                return (0..<l.count).allSatisfy { view.nodes[view.element($0, of: list)].kind == .uid }
            }
            return false
        }
    }

    private static func checkClass(_ index: Int, tree: PlistTree, objects: [UInt32], from object: Int, path: () -> String) throws {
        let node = Int(objects[index])
        guard tree.kind(of: node) == .dictionary else {
            throw PlistError(.archive, "$class refers to object \(index), \(tree.kind(of: node).nameWithArticle), not a class dictionary",
                             at: .archive(object: object, keyPath: path()))
        }
        guard let name = tree.node(forKey: "$classname", in: node), tree.kind(of: name) == .string else {
            throw PlistError(.archive, "class dictionary at object \(index) has no $classname string",
                             at: .archive(object: index, keyPath: path() + ".$classname"))
        }
        if let chain = tree.node(forKey: "$classes", in: node) {
            guard tree.kind(of: chain) == .array,
                  (0..<tree.count(of: chain)).allSatisfy({ tree.kind(of: tree.element($0, of: chain)) == .string }) else {
                throw PlistError(.archive, "class dictionary at object \(index) has a $classes that is not an array of strings",
                                 at: .archive(object: index, keyPath: path() + ".$classes"))
            }
        }
    }

    /// The value of a dictionary's first `$class` key (`tree.node(forKey:in:)`),
    /// comparing each key's length before its bytes: no call per key.
    private static func classNode(in node: Int, of view: PlistTree.View) -> Int? {
        let n = view.nodes[node]
        guard n.kind == .dictionary else { return nil }
        for i in 0..<n.count where isClassKey(view.key(i, of: node), in: view) {
            return view.value(i, of: node)
        }
        return nil
    }

    /// Whether a key node is the string `$class`, its length compared before its bytes.
    static func isClassKey(_ key: Int, in view: PlistTree.View) -> Bool {
        let n = view.nodes[key]
        guard n.kind == .string, n.count == 6 else { return false }
        let b = view.bytes, at = n.start
        return b[at] == UInt8(ascii: "$") && b[at + 1] == UInt8(ascii: "c") && b[at + 2] == UInt8(ascii: "l")
            && b[at + 3] == UInt8(ascii: "a") && b[at + 4] == UInt8(ascii: "s") && b[at + 5] == UInt8(ascii: "s")
    }

    /// The UID of a dictionary's `$class`, when it is one.
    private static func classUID(of node: Int, in view: PlistTree.View) -> UInt64? {
        guard let cls = classNode(in: node, of: view), view.nodes[cls].kind == .uid else { return nil }
        return view.nodes[cls].payload
    }

    private static func join(_ base: String, _ field: String) -> String {
        if field.isEmpty { return base }
        if base.isEmpty { return field }
        return base + "." + field
    }
}

/// A step of a field path as the validator walks the tree: a key by its node
/// (made into text only where a path is kept or reported) or an array index.
enum TreeStep {
    case key(Int)
    case index(Int)

    static func fieldSteps(_ steps: [TreeStep], in tree: PlistTree) -> [FieldStep] {
        steps.map { step in
            switch step {
            case .key(let k): return .key(tree.string(at: k) ?? "")
            case .index(let i): return .index(i)
            }
        }
    }

    /// The object's own `$class` field (read through the tree's view: asked
    /// for every UID of the archive).
    static func isClass(_ steps: [TreeStep], in view: PlistTree.View) -> Bool {
        guard steps.count == 1, case .key(let k) = steps[0] else { return false }
        return ArchiveValidator.isClassKey(k, in: view)
    }
}

extension ContainerShape {
    /// What a class makes of its objects' shape: elements by position,
    /// values by key (keys from the object), or fields.
    enum ClassKind {
        case list, map, fields
    }

    /// Each class's kind once worked out, by the UID of its class dictionary:
    /// a few recent classes in slots by UID, looked at for every object
    /// walked before the table of all of them (a hash per object was 3% of
    /// `lint`); memory grows with the classes, not the objects.
    struct ClassKinds {
        private var slots = [(uid: UInt64, kind: ClassKind)](repeating: (UInt64.max, .fields), count: 64)
        private var all: [UInt64: ClassKind] = [:]

        /// The kind of class `c`, worked out by `make` the first time.
        mutating func kind(of c: UInt64, _ make: () -> ClassKind) -> ClassKind {
            let slot = Int(truncatingIfNeeded: c) & (slots.count - 1)
            if slots[slot].uid == c { return slots[slot].kind }
            let kind: ClassKind
            if let known = all[c] {
                kind = known
            } else {
                kind = make()
                all[c] = kind
            }
            slots[slot] = (c, kind)
            return kind
        }
    }

    /// The shape of an entry of `$objects` not yet validated (`classUID`: the
    /// UID of its `$class`, when it is a dictionary with one): Foundation
    /// collections by their class name, dictionary keys where they are strings.
    /// `kinds` keeps each class's kind, by the UID of its class dictionary.
    init(_ object: Int, classUID: UInt64?, in tree: PlistTree, objects: [UInt32], kinds: inout ClassKinds) {
        let node = Int(objects[object])
        guard let c = classUID else {
            self = .fields
            return
        }
        switch kinds.kind(of: c, { Self.classKind(c, in: tree, objects: objects) }) {
        case .list:
            self = .list
        case .map:
            guard let keys = tree.node(forKey: "NS.keys", in: node), tree.kind(of: keys) == .array else {
                self = .fields
                return
            }
            self = .map(keys: (0..<tree.count(of: keys)).map { i in
                guard let k = tree.uid(at: tree.element(i, of: keys)), k < UInt64(objects.count) else { return nil }
                let key = Int(objects[Int(k)])
                switch tree.kind(of: key) {
                case .string: return tree.string(at: key)
                case .dictionary: return tree.node(forKey: "NS.string", in: key).flatMap { tree.string(at: $0) }
                case .integer, .real, .bool, .date, .data, .array, .uid, .null: return nil
                }
            })
        case .fields:
            self = .fields
        }
    }

    /// The kind of the class at `$objects[c]`, from its `$classname` (fields
    /// when it is not a class dictionary with one).
    private static func classKind(_ c: UInt64, in tree: PlistTree, objects: [UInt32]) -> ClassKind {
        guard c < UInt64(objects.count), case let clsNode = Int(objects[Int(c)]), tree.kind(of: clsNode) == .dictionary,
              let nameNode = tree.node(forKey: "$classname", in: clsNode), let name = tree.string(at: nameNode) else { return .fields }
        if FoundationValue.listClasses.contains(name) || ClassCatalogue.description(of: name)?.shape == .countedSet { return .list }
        if FoundationValue.mapClasses.contains(name) { return .map }
        return .fields
    }
}

extension ContainerShape {
    /// The link to a reference in field `key` (`steps` one key), or in an
    /// element of it (a key and an index); nil for any other steps. The
    /// caller reads the key's text once per key node.
    func link(_ steps: [TreeStep], key: String, parent: Int) -> ArchivePaths.Link? {
        if steps.count == 1 { return link(key: key, parent: parent) }
        if steps.count == 2, case .index(let i) = steps[1] { return link(key: key, index: i, parent: parent) }
        return nil
    }
}
