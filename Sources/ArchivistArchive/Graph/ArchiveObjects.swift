import ArchivistCore

/// `$objects` of a validated archive, each entry converted from the archive's
/// compact tree when read.
public struct ArchiveObjects: RandomAccessCollection, Sendable {
    let storage: ArchiveStorage

    /// 0, the index of `$null`.
    public var startIndex: Int { 0 }
    /// The number of entries of `$objects`.
    public var endIndex: Int { storage.objects.count }

    /// Entry `index` as a value.
    public subscript(index: Int) -> PlistValue {
        storage.tree.value(at: Int(storage.objects[index]))
    }
}
