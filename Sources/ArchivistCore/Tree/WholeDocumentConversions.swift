/// Counts conversions of whole documents to `PlistValue` (a tree's root
/// converted, an archive exported whole), so that tests can check that a
/// read-only path works on the tree and graph instead. Nothing is counted
/// unless a test binds a counter
/// (`WholeDocumentConversions.$current.withValue(counter)`).
package final class WholeDocumentConversions: Sendable {
    /// The counter of the current task, if a test set one.
    @TaskLocal package static var current: WholeDocumentConversions?

    private let counted = Locked(0)

    /// A counter at zero.
    package init() {}

    /// How many whole documents were converted.
    package var count: Int { counted.withLock { $0 } }

    /// Counts one whole-document conversion on the current task's counter, if any.
    @inline(__always) package static func note() {
        guard let counter = current else { return }
        counter.counted.withLock { $0 += 1 }
    }
}
