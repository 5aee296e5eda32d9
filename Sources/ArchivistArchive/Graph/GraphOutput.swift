import ArchivistCore

/// A migrated graph written straight from the tree it was read from, with no
/// tree built for the result: the archive ``GraphWriter`` would build (the
/// same `$objects` numbering, class dictionaries and field order), presented
/// to the writers as nodes (``PlistNodes``) that are the read tree's own
/// wherever the result holds what was read (every string, number, date,
/// data and inline container), and made on the fly where it changed (an
/// object's entries, renumbered references, renamed keys and classes).
///
/// Only a graph whose edits are all class migrations and boxed numbers
/// (``ArchivedNodes/onlyMigrated``) and whose `$top` holds objects only is
/// written this way; ``init(_:)`` returns nil for any other.
package struct GraphOutput: Sendable {
    let graph: ObjectGraph
    let storage: ArchiveStorage
    /// The new index of each graph node written, and the nodes in that order.
    let numbering: ArchiveNumbering
    /// The class dictionaries written after the objects, in order.
    let classes: [(name: Int, chain: [Int])]
    /// The `$objects` index of the class dictionary of each stored class.
    let classIndex: [UInt32: Int]
    /// Strings the result adds (class names, chains, renamed keys, `$top`
    /// keys): UTF-8 one after another, and each one's range.
    let arena: [UInt8]
    let spans: [Range<Int>]
    /// Each string of the arena by its text.
    let interned: [PlistKey: Int]
    /// The `$top` keys, as strings of the arena.
    let topKeys: [Int]

    /// The output of a graph, or nil when it holds edits other than class
    /// migrations and boxed numbers, or `$top` plain values.
    ///
    /// - Parameter graph: A graph read from an archive and migrated.
    /// - Throws: `PlistError` when a reference names no node, as ``GraphWriter`` does.
    package init?(_ graph: ObjectGraph) throws {
        guard graph.nodes.onlyMigrated, graph.topValues.isEmpty, let storage = graph.nodes.storage else { return nil }
        self.graph = graph
        self.storage = storage
        // Every reference written must name a node written, as GraphWriter's `uid` checks.
        let numbering = try ArchiveNumbering(graph, checkingEdges: true)
        self.numbering = numbering
        for (_, object) in graph.top where numbering.index(of: object) == nil {
            throw PlistError(.archive, "reference to object \(object), which is not part of the graph", at: .archive(object: object, keyPath: ""))
        }
        var arena: [UInt8] = []
        var spans: [Range<Int>] = []
        var interned: [PlistKey: Int] = [:]
        func intern(_ text: String) -> Int {
            if let known = interned[PlistKey(text)] { return known }
            let start = arena.count
            arena.append(contentsOf: text.utf8)
            spans.append(start..<arena.count)
            interned[PlistKey(text)] = spans.count - 1
            return spans.count - 1
        }
        // The envelope's own strings first: `Nodes.Fixed` numbers them.
        for text in Nodes.fixedStrings { _ = intern(text) }
        // Class dictionaries in the order their objects are first written.
        var classes: [(name: Int, chain: [Int])] = []
        var byText: [String: Int] = [:]
        var classIndex: [UInt32: Int] = [:]
        for old in numbering.nodes where old > 0 && old < graph.nodes.storedCount {
            guard let c = storage.classOf(old), classIndex[c] == nil, let info = storage.classInfo[c] else { continue }
            let migration = graph.nodes.migration(ofClass: c)
            let name = migration?.name.archived ?? info.name.archived
            let chain = migration?.chain ?? info.chain
            let key = name + "\u{0}" + chain.joined(separator: "\u{0}")
            if let known = byText[key] {
                classIndex[c] = known
                continue
            }
            let ci = numbering.count + classes.count
            byText[key] = ci
            classIndex[c] = ci
            classes.append((intern(name), (chain.isEmpty ? [name] : chain).map(intern)))
        }
        for c in classIndex.keys {
            for keyRule in graph.nodes.migration(ofClass: c)?.rule?.keys ?? [] {
                if let to = keyRule.renameTo { _ = intern(to) }
            }
        }
        topKeys = graph.top.map { intern($0.key) }
        self.classes = classes
        self.classIndex = classIndex
        self.interned = interned
        self.arena = arena
        self.spans = spans
    }

    /// Writes the archive in a format (XML or binary keep its UIDs) to `out`.
    ///
    /// - Parameters:
    ///   - format: The format.
    ///   - options: Write options.
    ///   - out: Where the bytes go (a streaming sink writes as it goes).
    ///   - losses: What the format could not keep.
    package func write(as format: PlistFormat, options: WriteOptions, into out: ByteSink, losses: inout WriteLosses) throws {
        try storage.tree.withView { view in
            try arena.withUnsafeBytes { arenaBytes in
                var nodes = Nodes(output: self, view: view, arena: arenaBytes)
                try PropertyList.write(&nodes, as: format, options: options, into: out, losses: &losses)
            }
        }
    }

    /// The archive as nodes: the read tree's (below `base`), then the ones made.
    struct Nodes: PlistNodes {
        static var keysAreUnique: Bool { true }

        let output: GraphOutput
        let view: PlistTree.View
        let arena: UnsafeRawBufferPointer
        let storage: ArchiveStorage
        let tree: PlistTree
        let storedCount: Int
        // Where each kind of node made starts.
        let envelope: Int, top: Int, objects: Int, version: Int
        let strings: Int, entries: Int, classDictionaries: Int, chains: Int, uids: Int, lists: Int
        /// The object whose entries `kept` lists (its `$objects` position), -1 for none.
        var current = -1
        /// For each entry written (before `$class`): its entry in the tree, its key (a node), and
        /// the boxed number it refers to (a node index) or -1.
        var kept: [(entry: Int, key: Int, boxed: Int)] = []
        /// Each key's fate, by class index and key node (`keyChange`).
        var decisions: [UInt64: KeyDecision] = [:]

        /// The strings the envelope, `$null` and class dictionaries use, first in the arena.
        static let fixedStrings = ["$version", "$archiver", "$top", "$objects", "NSKeyedArchiver", "$null", "$class", "$classname", "$classes"]
        enum Fixed: Int { case version, archiver, top, objects, keyedArchiver, null, classKey, classname, classesKey }

        init(output: GraphOutput, view: PlistTree.View, arena: UnsafeRawBufferPointer) {
            self.output = output
            self.view = view
            self.arena = arena
            storage = output.storage
            tree = output.storage.tree
            storedCount = output.graph.nodes.storedCount
            let base = view.nodes.count
            envelope = base
            top = base + 1
            objects = base + 2
            version = base + 3
            strings = base + 4
            entries = strings + output.spans.count
            classDictionaries = entries + output.numbering.count
            chains = classDictionaries + output.classes.count
            uids = chains + output.classes.count
            lists = uids + output.numbering.count + output.classes.count
        }

        var rootNode: Int { envelope }

        /// Bounds from the read tree, with two passes over its nodes and no
        /// walk: every scalar written is a UID made here (one for each
        /// `$objects` entry, below `made`: references are written
        /// renumbered), a scalar of the read tree other than a UID, or one
        /// made here (a string of the arena, the version); every container
        /// is one of the read tree's or made here, and every reference one
        /// of the tree's links or one made here (`$class` and the
        /// envelope's, class dictionaries'). A tree UID in an inline
        /// container is written as it is, past the bound: the writer's
        /// tables grow then.
        var sizeBounds: PlistSizeBounds? {
            let made = output.numbering.count + output.classes.count
            let chainLinks = output.classes.reduce(0) { $0 + 4 + $1.chain.count }
            let treeScalars = view.nodes.count - view.count(where: (.array, .dictionary)) - view.count(where: (.uid, .uid))
            return PlistSizeBounds(scalars: treeScalars + output.spans.count + 1,
                                   containers: view.nodes.count + made + output.classes.count + 3,
                                   references: view.links.count + 2 * output.numbering.count + chainLinks + 2 * output.topKeys.count + made + 8,
                                   directUIDs: made)
        }

        private func fixedNode(_ f: Fixed) -> Int { strings + f.rawValue }

        private func uid(_ old: Int) throws -> Int {
            guard let index = output.numbering.index(of: old) else {
                throw PlistError(.archive, "reference to object \(old), which is not part of the graph", at: .archive(object: old, keyPath: ""))
            }
            return uids + index
        }

        mutating func item(_ node: Int) throws -> PlistItem {
            if node < envelope { return view.item(node) }
            switch node {
            case envelope: return .dictionary(count: 4)
            case top: return .dictionary(count: output.topKeys.count)
            case objects: return .array(count: output.numbering.count + output.classes.count)
            case version: return .integer(PlistInteger(Int64(100_000)))
            case strings..<entries:
                return .string(TextBytes(UnsafeRawBufferPointer(rebasing: arena[output.spans[node - strings]]), .utf8))
            case entries..<classDictionaries:
                try load(node - entries)
                return .dictionary(count: kept.count + 1)
            case classDictionaries..<chains: return .dictionary(count: 2)
            case chains..<uids: return .array(count: output.classes[node - chains].chain.count)
            case uids..<lists: return .uid(UInt64(node - uids))
            default: return .array(count: tree.count(of: node - lists))
            }
        }

        mutating func element(_ i: Int, of node: Int) throws -> Int {
            if node < envelope { return view.element(i, of: node) }
            switch node {
            case objects:
                let numbering = output.numbering
                guard i < numbering.count else { return classDictionaries + (i - numbering.count) }
                let old = numbering[i]
                if old == 0 { return fixedNode(.null) }
                if old >= storedCount { return output.graph.nodes.boxedNode(old - storedCount) }
                if storage.classOf(old) != nil { return entries + i }
                return Int(storage.objects[old])
            case chains..<uids:
                return strings + output.classes[node - chains].chain[i]
            default:
                // A field's list of references, renumbered.
                let list = node - lists
                return try uid(Int(tree.uid(at: tree.element(i, of: list)) ?? 0))
            }
        }

        mutating func key(_ i: Int, of node: Int) throws -> Int {
            if node < envelope { return view.key(i, of: node) }
            switch node {
            case envelope: return fixedNode([Fixed.version, .archiver, .top, .objects][i])
            case top: return strings + output.topKeys[i]
            case entries..<classDictionaries:
                try load(node - entries)
                return i < kept.count ? kept[i].key : fixedNode(.classKey)
            default: return fixedNode(i == 0 ? .classname : .classesKey)
            }
        }

        mutating func value(_ i: Int, of node: Int) throws -> Int {
            if node < envelope { return view.value(i, of: node) }
            switch node {
            case envelope: return [version, fixedNode(.keyedArchiver), top, objects][i]
            case top: return try uid(output.graph.top[i].object)
            case entries..<classDictionaries:
                let position = node - entries
                try load(position)
                guard i < kept.count else {
                    let old = output.numbering[position]
                    guard let c = storage.classOf(old), let ci = output.classIndex[c] else { return fixedNode(.null) }
                    return uids + ci
                }
                let entry = kept[i]
                if entry.boxed >= 0 { return try uid(entry.boxed) }
                let value = tree.entry(entry.entry, of: Int(storage.objects[output.numbering[position]])).value
                if let u = tree.uid(at: value) { return try uid(Int(u)) }
                if storage.isReferenceList(value) { return lists + value }
                return value
            default:
                let j = node - classDictionaries
                return i == 0 ? strings + output.classes[j].name : chains + j
            }
        }

        /// Lists the entries written for the object at `$objects` position
        /// `position`: its fields in order without `$class` and the removed
        /// ones, each with its key as written and its boxed number.
        private mutating func load(_ position: Int) throws {
            if position == current { return }
            current = position
            kept.removeAll(keepingCapacity: true)
            let old = output.numbering[position]
            let node = Int(storage.objects[old])
            let c = storage.classOf(old)
            let migration = c.flatMap { output.graph.nodes.migration(ofClass: $0) }
            var boxes = 0
            var box: ArchivedNodes.BoxStart?
            for e in 0..<tree.count(of: node) {
                let (key, value) = tree.entry(e, of: node)
                if storage.isClassKey(key) { continue }
                guard let migration, let c else {
                    kept.append((e, key, -1))
                    continue
                }
                let change = keyChange(of: key, class: c, migration)
                if change.remove { continue }
                let written = change.written
                var boxed = -1
                if change.boxesPrimitive, ClassMigration.isPrimitive(tree.kind(of: value)),
                   tree.uid(at: value) == nil, !storage.isReferenceList(value) {
                    let start = box ?? output.graph.nodes.boxStart(of: old)
                    box = start
                    boxed = start.index(boxes)
                    boxes += 1
                }
                kept.append((e, written, boxed))
            }
        }

        /// What the class's migration does to a key (a string node of the
        /// read tree), decided once per class and key node: the archive's
        /// objects of a class share their key strings.
        private mutating func keyChange(of key: Int, class c: UInt32, _ migration: ClassMigration) -> KeyDecision {
            let slot = UInt64(c) << 32 | UInt64(truncatingIfNeeded: key)
            if let known = decisions[slot] { return known }
            let change = migration.keyChange(tree.string(at: key) ?? "")
            var written = key
            if let to = change.renameTo, let s = output.interned[PlistKey(to)] { written = strings + s }
            let decision = KeyDecision(remove: change.remove, written: written, boxesPrimitive: change.boxesPrimitive)
            decisions[slot] = decision
            return decision
        }

        /// A key's fate in the output: removed, or written as a node
        /// (renamed: a string of the arena), its inline primitives boxed or not.
        struct KeyDecision {
            var remove: Bool
            var written: Int
            var boxesPrimitive: Bool
        }

        mutating func enter(_ node: Int, depth: Int) throws {}
        mutating func leave(_ node: Int) {}
    }
}
