import ArchivistCore

/// The classes and keys of the keyed archives in a run's inputs (nested ones
/// included), to check a rules file against: every command that takes
/// `--rules` fills one and reports its `problems(of:)`.
package struct RulesCensus: Sendable {
    /// Every class seen (objects' classes and their `$classes` chains), in
    /// order of first appearance.
    package private(set) var classNames: [ClassName] = []
    /// The keys of the objects of each archived class name.
    private var keys: [String: Set<PlistKey>] = [:]
    private var seen: Set<String> = []
    /// An empty census.
    package init() {}

    /// Adds the keyed archives of one input's tree (the tree itself and those
    /// its data holds, as ``NestedArchiveWalk`` finds them).
    /// `archive`, when given, is `tree` already validated as a keyed archive.
    package mutating func add(_ tree: PlistTree, archive: KeyedArchive? = nil) {
        try? NestedArchiveWalk.archives(in: tree, archive: archive, broken: .skip) { archive in
            guard archive.kind != .typedstream else { return }
            add(archive.graph)
        }
    }

    /// The classes and keys of one graph's objects. An object read from the
    /// archive is read from its tree: its class once per class dictionary,
    /// and its keys as key nodes, skipped when they are those of the last
    /// object of its class (objects of a class mostly share their keys).
    private mutating func add(_ graph: ObjectGraph) {
        // For each class dictionary met: the key nodes of its objects, and
        // the node of its last object.
        var classKeys: [UInt32: (keys: Set<Int>, last: Int)] = [:]
        var order: [UInt32] = []
        for index in graph.nodes.indices {
            guard let storage = graph.nodes.unedited(index) else {
                guard case .object(let o) = graph.nodes[index] else { continue }
                add(o.className, chain: o.classChain)
                keys[o.className.archived, default: []].formUnion(o.fields.lazy.map { PlistKey($0.key) })
                continue
            }
            guard let c = storage.classOf(index), let info = storage.classInfo[c] else { continue }
            let tree = storage.tree, node = Int(storage.objects[index])
            guard var entry = classKeys[c] else {
                add(info.name, chain: info.chain)
                order.append(c)
                var keyNodes = Set<Int>()
                for i in 0..<tree.count(of: node) where !storage.isClassKey(tree.entry(i, of: node).key) {
                    keyNodes.insert(tree.entry(i, of: node).key)
                }
                classKeys[c] = (keyNodes, node)
                continue
            }
            let count = tree.count(of: node)
            if count == tree.count(of: entry.last), (0..<count).allSatisfy({ tree.entry($0, of: node).key == tree.entry($0, of: entry.last).key }) {
                continue
            }
            classKeys[c] = nil
            for i in 0..<count where !storage.isClassKey(tree.entry(i, of: node).key) { entry.keys.insert(tree.entry(i, of: node).key) }
            entry.last = node
            classKeys[c] = entry
        }
        guard let tree = graph.nodes.storage?.tree, let storage = graph.nodes.storage else { return }
        for c in order {
            guard let info = storage.classInfo[c], let entry = classKeys[c] else { continue }
            keys[info.name.archived, default: []].formUnion(entry.keys.lazy.map { PlistKey(tree.string(at: $0) ?? "") })
        }
    }

    /// A class and its chain, each name once.
    private mutating func add(_ name: ClassName, chain: [String]) {
        for name in [name.archived] + chain where seen.insert(name).inserted {
            classNames.append(ClassName(archived: name))
        }
    }

    /// What is wrong with `rules` for these inputs: a class that occurs in
    /// none of them is an error (a typo is the likely cause); a key rule that
    /// no object of its class has is a warning. Both suggest near misses
    /// (same letters in another case, or a small edit distance). Inputs that
    /// hold no keyed archive at all (a hook's run on plain plists) give
    /// nothing to check against, and no problems.
    package func problems(of rules: MigrationRules) -> [RulesProblem] {
        guard !classNames.isEmpty else { return [] }
        var problems: [RulesProblem] = []
        var index = ArchivedClassIndex()
        for (position, name) in classNames.enumerated() { index.insert(name, at: position) }
        var nearClasses = NearMiss.Finder(classNames.map(\.readable))
        for rule in rules.classes {
            var positions = index.positions(matching: rule.name)
            if let renameTo = rule.renameTo { positions = Array(Set(positions + index.positions(matching: renameTo))).sorted() }
            let matching = positions.map { classNames[$0] }
            guard !matching.isEmpty else {
                let guess = nearClasses.best(for: rule.name)
                problems.append(RulesProblem(severity: .error, path: rule.path,
                                             message: "class \(rule.name) occurs in none of the inputs" + Self.didYouMean(guess)))
                continue
            }
            var present: Set<PlistKey> = []
            for name in matching { present.formUnion(keys[name.archived] ?? []) }
            // One finder per class, sharing what the class finder left of the budget.
            var nearKeys: NearMiss.Finder?
            for key in rule.keys where !present.contains(PlistKey(key.key)) && !(key.renameTo.map { present.contains(PlistKey($0)) } ?? false) {
                var finder = nearKeys ?? NearMiss.Finder(present.map(\.text).sorted(), budget: nearClasses.cellsLeft)
                let guess = finder.best(for: key.key).map { "\"\($0)\"" }
                nearClasses.spend(finder.cellsLeft)
                nearKeys = finder
                let objects = matching.map(\.readable).joined(separator: " or ")
                problems.append(RulesProblem(severity: .warning, path: rule.path + ".keys." + MigrationRules.pathComponent(key.key),
                                             message: "no \(objects) object has a key \"\(key.key)\"; this rule does nothing" + Self.didYouMean(guess)))
            }
        }
        return problems
    }

    private static func didYouMean(_ guess: String?) -> String {
        guess.map { " (did you mean \($0)?)" } ?? ""
    }
}

/// A problem of a rules file for a run's inputs.
package struct RulesProblem: Sendable, Equatable {
    /// An error stops the run (status 64); a warning is printed.
    package enum Severity: String, Sendable {
        case error, warning
    }

    /// How bad it is.
    package var severity: Severity
    /// Where in the rules file (`classes."A.B".keys.k`).
    package var path: String
    /// What is wrong.
    package var message: String

    /// The line printed for it: `RULES: error: PATH: MESSAGE`.
    package func formatted(rulesPath: String) -> String {
        "\(rulesPath): \(severity.rawValue): \(path): \(message)"
    }
}
