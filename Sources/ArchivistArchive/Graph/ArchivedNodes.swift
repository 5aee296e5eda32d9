import ArchivistCore

/// The nodes of an object graph, indexed as `$objects` is. A graph read from
/// an archive makes each node from the archive's compact tree when it is read;
/// nodes set or appended by edits are stored as given.
public struct ArchivedNodes: RandomAccessCollection, MutableCollection, Sendable {
    /// The archive the nodes come from, when they come from one.
    let storage: ArchiveStorage?
    private var baseCount: Int
    /// Nodes replaced by edits.
    private var edited: [Int: ArchivedNode] = [:]
    /// Nodes added after the archive's.
    private var appended: [ArchivedNode] = []

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
    public var endIndex: Int { baseCount + appended.count }

    /// Node `index`: as an edit set it, or made from the archive's tree.
    ///
    /// - Parameter index: A valid index of the collection.
    public subscript(index: Int) -> ArchivedNode {
        get {
            if index >= 0, index < baseCount, let storage { return edited[index] ?? storage.node(index) }
            return appended[index - baseCount]
        }
        set {
            if index >= 0, index < baseCount {
                edited[index] = newValue
            } else {
                appended[index - baseCount] = newValue
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
        guard index >= 0, index < baseCount, edited[index] == nil else { return nil }
        return storage
    }
}
