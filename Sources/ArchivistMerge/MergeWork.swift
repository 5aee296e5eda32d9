/// Counts the steps of a merge (values visited, compared, fingerprinted and
/// matched), so that a test can check that a merge stays linear in its input
/// without timing it; and stops a merge that would exceed its budget.
package struct MergeWork: Sendable {
    /// Steps done so far.
    package private(set) var steps = 0

    @inline(__always) mutating func add(_ n: Int = 1) {
        steps &+= n
    }
}
