import ArchivistCore

/// `$objects` of a validated archive: each entry a node of the archive's
/// compact tree (nothing is copied; `value` makes an editable copy).
public struct ArchiveObjects: RandomAccessCollection, Sendable {
    let storage: ArchiveStorage

    /// 0, the index of `$null`.
    public var startIndex: Int { 0 }
    /// The number of entries of `$objects`.
    public var endIndex: Int { storage.objects.count }

    /// Entry `index`, a node of the archive's tree.
    ///
    /// - Parameter index: A valid index of `$objects`.
    public subscript(index: Int) -> PlistNode {
        PlistNode(unchecked: storage.tree, Int(storage.objects[index]))
    }
}
