import ArchivistCore

/// The nodes of an object graph, indexed as `$objects` is. A graph read from
/// an archive makes each node from the archive's compact tree when it is read;
/// nodes set or appended by edits are stored as given. A migration's edits
/// lie over the archive's nodes: one `ClassMigration` per class changed,
/// and each boxed primitive as the tree node it is read from (its index
/// follows the archive's), so a migrated graph holds no object per object.
public struct ArchivedNodes: RandomAccessCollection, MutableCollection, Sendable {
    /// The archive the nodes come from, when they come from one.
    let storage: ArchiveStorage?
    private var baseCount: Int
    /// Nodes replaced by edits.
    private var edited: [Int: ArchivedNode] = [:]
    /// Nodes added after the archive's (and the boxed ones).
    private var appended: [ArchivedNode] = []
    /// The migration of each class changed, by class index.
    private var migrations: [UInt32: ClassMigration] = [:]
    /// The tree node of each boxed primitive, in the order boxed: node
    /// `baseCount + k` is the number read from `boxed[k]`.
    private var boxed: [UInt32] = []
    /// The objects with boxed fields, ascending, and where their boxes start in `boxed`.
    private var boxingObjects: [UInt32] = []
    private var boxingStarts: [UInt32] = []
    /// Every boxed field refers to one node (a report that writes nothing needs no more).
    private var sharesBoxes = false

    /// The nodes of a validated archive.
    init(_ storage: ArchiveStorage) {
        self.storage = storage
        baseCount = storage.objects.count
    }

    /// Nodes as given.
    package init(_ nodes: [ArchivedNode]) {
        storage = nil
        baseCount = 0
        appended = nodes
    }

    /// 0, the index of `$null`.
    public var startIndex: Int { 0 }
    /// The number of nodes: the archive's, then those appended.
    public var endIndex: Int { baseCount + boxed.count + appended.count }

    /// Node `index`: as an edit set it, or made from the archive's tree.
    ///
    /// - Parameter index: A valid index of the collection.
    public subscript(index: Int) -> ArchivedNode {
        get {
            if index >= 0, index < baseCount + boxed.count, let storage {
                if let node = edited[index] { return node }
                if index >= baseCount { return .value(storage.tree.value(at: Int(boxed[index - baseCount]))) }
                if !migrations.isEmpty, let c = storage.classOf(index), let migration = migrations[c],
                   case .object(let o) = storage.node(index) {
                    var box: BoxStart?  // found at the first boxed field, once
                    return .object(migration.migrated(o) { k in
                        let start = box ?? boxStart(of: index)
                        box = start
                        return start.index(k)
                    })
                }
                return storage.node(index)
            }
            return appended[index - baseCount - boxed.count]
        }
        set {
            if index >= 0, index < baseCount + boxed.count {
                edited[index] = newValue
            } else {
                appended[index - baseCount - boxed.count] = newValue
            }
        }
    }

    /// Adds a node at the end.
    package mutating func append(_ node: ArchivedNode) {
        appended.append(node)
    }

    /// The node at an index, or nil outside the collection.
    subscript(safe index: Int) -> ArchivedNode? {
        index >= 0 && index < endIndex ? self[index] : nil
    }

    /// The archive storage behind a node that no edit replaced, for readers
    /// that can work on the compact tree directly.
    func unedited(_ index: Int) -> ArchiveStorage? {
        guard index >= 0, index < baseCount, edited[index] == nil, let storage else { return nil }
        if !migrations.isEmpty, let c = storage.classOf(index), migrations[c] != nil { return nil }
        return storage
    }

    /// The archive storage and class migration behind an object that a
    /// class migration lies over and no other edit replaced, for readers
    /// that read it from the compact tree with the migration's changes.
    func migratedObject(_ index: Int) -> (ArchiveStorage, ClassMigration)? {
        guard !migrations.isEmpty, index >= 0, index < baseCount, edited[index] == nil, let storage,
              let c = storage.classOf(index), let migration = migrations[c] else { return nil }
        return (storage, migration)
    }

    /// Entry `index` of the archive as read, whatever edits lie over it.
    func stored(_ index: Int) -> ArchivedNode? {
        guard index >= 0, index < baseCount, let storage else { return nil }
        return storage.node(index)
    }

    // MARK: - Migration

    /// Lays a migration over every object of class `c` (a class index of
    /// the archive); false when the graph was not read from an archive or
    /// nodes were appended already (boxed nodes come before them).
    mutating func migrate(class c: UInt32, _ migration: ClassMigration, sharingBoxes: Bool) -> Bool {
        guard storage != nil, appended.isEmpty else { return false }
        migrations[c] = migration
        sharesBoxes = sharingBoxes
        return true
    }

    /// Boxes the fields of object `index` that its class's migration boxes:
    /// called once per object, in ascending order, before any node is
    /// appended. Returns how many fields it boxed.
    @discardableResult
    mutating func box(object index: Int) -> Int {
        guard appended.isEmpty, let storage, let c = storage.classOf(index), let migration = migrations[c] else { return 0 }
        let tree = storage.tree
        let node = Int(storage.objects[index])
        let start = boxed.count
        var count = 0
        for i in 0..<tree.count(of: node) {
            let (key, value) = tree.entry(i, of: node)
            if storage.isClassKey(key) { continue }
            let reference = tree.uid(at: value) != nil || storage.isReferenceList(value)
            guard migration.boxes(tree.string(at: key) ?? "", valueKind: tree.kind(of: value), isReference: reference) else { continue }
            count += 1
            if sharesBoxes {
                if boxed.isEmpty { boxed.append(UInt32(truncatingIfNeeded: value)) }
            } else {
                boxed.append(UInt32(truncatingIfNeeded: value))
            }
        }
        if count > 0, !sharesBoxes {
            boxingObjects.append(UInt32(truncatingIfNeeded: index))
            boxingStarts.append(UInt32(truncatingIfNeeded: start))
        }
        return count
    }

    /// The `$objects` indices an object a class migration lies over refers
    /// to, in field order (boxed numbers included), read from the tree
    /// without making the object; false for any other node.
    func migratedEdges(of index: Int, into out: inout [Int]) -> Bool {
        guard let (storage, migration) = migratedObject(index) else { return false }
        let tree = storage.tree
        let node = Int(storage.objects[index])
        var boxes = 0
        var box: BoxStart?
        for i in 0..<tree.count(of: node) {
            let (key, value) = tree.entry(i, of: node)
            if storage.isClassKey(key) { continue }
            let name = tree.string(at: key) ?? ""
            if migration.rule?.key(archivedAs: name)?.remove == true { continue }
            if let u = tree.uid(at: value) {
                out.append(Int(u))
            } else if storage.isReferenceList(value) {
                for j in 0..<tree.count(of: value) { out.append(Int(tree.uid(at: tree.element(j, of: value)) ?? 0)) }
            } else if migration.boxes(name, valueKind: tree.kind(of: value), isReference: false) {
                let start = box ?? boxStart(of: index)
                box = start
                out.append(start.index(boxes))
                boxes += 1
            }
        }
        return true
    }

    /// True when every edit is a class migration or a boxed number (no node
    /// set or appended otherwise): then the graph is written from its tree.
    var onlyMigrated: Bool { storage != nil && edited.isEmpty && appended.isEmpty }

    /// True when every node is the archive's as read: no edit, migration or box.
    var isAsRead: Bool { onlyMigrated && migrations.isEmpty && boxed.isEmpty }

    /// The number of entries of the archive read.
    var storedCount: Int { baseCount }

    /// The migration laid over the objects of class `c`.
    func migration(ofClass c: UInt32) -> ClassMigration? { migrations[c] }

    /// The tree node a boxed number (node `baseCount + k`) is read from.
    func boxedNode(_ k: Int) -> Int { Int(boxed[k]) }

    /// The index of the k-th boxed field of object `index`.
    func boxIndex(of index: Int, _ k: Int) -> Int {
        boxStart(of: index).index(k)
    }

    /// Where object `index`'s boxed numbers are: found once per object
    /// (a binary search), then `index(k)` for its k-th boxed field.
    func boxStart(of index: Int) -> BoxStart {
        if sharesBoxes { return BoxStart(start: baseCount, each: false) }
        var lo = 0, hi = boxingObjects.count
        let target = UInt32(truncatingIfNeeded: index)
        while lo < hi {
            let mid = (lo + hi) / 2
            if boxingObjects[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        guard lo < boxingObjects.count, boxingObjects[lo] == target else { return BoxStart(start: baseCount, each: false) }
        return BoxStart(start: baseCount + Int(boxingStarts[lo]), each: true)
    }

    /// The first boxed number of an object, and whether each boxed field
    /// has its own (otherwise all share the one placeholder, a dry run's).
    struct BoxStart {
        let start: Int
        let each: Bool

        func index(_ k: Int) -> Int { each ? start + k : start }
    }
}
