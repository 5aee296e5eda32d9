import ArchivistCore

/// Counts steps of work done by the current task, so that tests can check
/// that an algorithm stays linear without timing it. Nothing is counted
/// unless a test binds a counter (`WorkCounter.$current.withValue(counter)`).
package final class WorkCounter: Sendable {
    /// What is counted.
    package enum Step: Sendable {
        /// A class name demangled (every class-name comparison needs one).
        case demangle
        /// A pair of values compared by a diff.
        case diffStep
        /// An object visited by the secure-coding check.
        case secureObjectVisit
    }

    /// The counter of the current task, if a test set one.
    @TaskLocal package static var current: WorkCounter?

    private let counts = Locked([Step: Int]())

    /// A counter at zero.
    package init() {}

    /// How many steps of a kind were counted.
    package func count(of step: Step) -> Int {
        counts.withLock { $0[step] ?? 0 }
    }

    /// Counts one step on the current task's counter, if any.
    @inline(__always) static func note(_ step: Step) {
        guard let counter = current else { return }
        counter.counts.withLock { $0[step, default: 0] += 1 }
    }

    /// Counts `n` steps at once (a loop counts locally, then notes its total).
    static func note(_ step: Step, times n: Int) {
        guard n > 0, let counter = current else { return }
        counter.counts.withLock { $0[step, default: 0] += n }
    }
}
