/// Lets a one-shot process (the `archivist` command) skip freeing its largest
/// tree: freeing a million-node tree node by node costs a sixth of reading it,
/// and the operating system takes the memory back at exit anyway (as compilers
/// do with their syntax trees). Off unless the process turns it on; libraries
/// and tests free everything as usual.
package enum ProcessLifetime {
    /// What is kept: one value of each kind, the largest seen.
    package enum Kind: Int { case document = 0, derived = 1 }

    private struct State {
        var enabled = false
        var kept: [Any?] = [nil, nil]
        var keptSize = [0, 0]
    }

    /// Batches read on several threads at once.
    private static let state = Locked(State())

    /// From now on, the largest document read (and the largest value derived
    /// from one, such as an archive's object graph) stay in memory until exit.
    package static func keepLargestTreeUntilExit() {
        state.withLock { $0.enabled = true }
    }

    /// Keeps `value` alive until exit when it is the largest of its kind seen so far.
    package static func keep(_ value: Any, size: Int, as kind: Kind = .document) {
        state.withLock { state in
            guard state.enabled, size >= state.keptSize[kind.rawValue] else { return }
            state.kept[kind.rawValue] = value
            state.keptSize[kind.rawValue] = size
        }
    }
}
