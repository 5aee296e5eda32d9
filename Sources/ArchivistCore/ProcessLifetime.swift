/// Lets a one-shot process (the `archivist` command) skip freeing its largest
/// tree: freeing a million-node tree node by node costs a sixth of reading it,
/// and the operating system takes the memory back at exit anyway (as compilers
/// do with their syntax trees). Off unless the process turns it on; libraries
/// and tests free everything as usual.
package enum ProcessLifetime {
    /// What is kept: one value of each kind, the largest seen.
    package enum Kind: Int { case document = 0, derived = 1 }

    nonisolated(unsafe) private static var enabled = false
    nonisolated(unsafe) private static var kept: [Any?] = [nil, nil]
    nonisolated(unsafe) private static var keptSize = [0, 0]
    /// Batches read on several threads at once.
    private static let lock = PthreadLock()

    /// From now on, the largest document read (and the largest value derived
    /// from one, such as an archive's object graph) stay in memory until exit.
    package static func keepLargestTreeUntilExit() {
        lock.locked { enabled = true }
    }

    /// Keeps `value` alive until exit when it is the largest of its kind seen so far.
    package static func keep(_ value: Any, size: Int, as kind: Kind = .document) {
        lock.locked {
            guard enabled, size >= keptSize[kind.rawValue] else { return }
            kept[kind.rawValue] = value
            keptSize[kind.rawValue] = size
        }
    }
}
