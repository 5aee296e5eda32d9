import ArchivistCore
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happened to one item of a batch.
package struct BatchOutcome: Sendable {
    /// The four results a batch reports.
    package enum Status: String, Sendable {
        case converted, unchanged, skipped, failed
    }

    /// The item.
    package var item: BatchItem
    /// What happened.
    package var status: Status
    /// Where its result went, when one was written or found unchanged.
    package var destination: String?
    /// Why it failed or was skipped.
    package var errors: [PlistError] = []
    /// Lines to print on standard error (warnings, errors), in order.
    package var stderrLines: [String] = []
    /// Lines to print on standard output (per-file summaries), in order.
    package var stdoutLines: [String] = []
    /// Bytes read and written.
    package var bytesIn = 0, bytesOut = 0

    /// An outcome.
    package init(item: BatchItem, status: Status, destination: String? = nil) {
        self.item = item
        self.status = status
        self.destination = destination
    }
}

/// Set by SIGINT; a batch finishes the items under way and starts no more.
package enum BatchInterrupt {
    /// The signal that asked for a stop, 0 until one did.
    nonisolated(unsafe) static var requested: sig_atomic_t = 0

    /// Catches Ctrl-C (SIGINT) and SIGTERM: the first asks the batch to stop
    /// after the items under way (whose writes are atomic anyway); a second
    /// ends the process at once with status 128 + the signal (130 for Ctrl-C),
    /// leaving at most the temporary files of the items under way.
    package static func install() {
        let handler: @convention(c) (Int32) -> Void = { signal in
            if BatchInterrupt.requested != 0 { _exit(128 + signal) }
            BatchInterrupt.requested = signal
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }

    /// True once a stop was asked for.
    package static var isRequested: Bool { requested != 0 }

    /// The exit status of a batch stopped by a signal, as shells report a
    /// process killed by it: 128 + the signal (130 for Ctrl-C); nil when no
    /// stop was asked for.
    package static var exitStatus: Int32? { requested == 0 ? nil : 128 + requested }
}

/// Runs a batch's items on `jobs` threads. Items are taken in order; their
/// outcomes are handed to `report` in item order as soon as every earlier one
/// is done, so what is printed does not depend on the number of jobs. An
/// outcome for which `stops` is true (a failure under --fail-fast) ends the
/// run: items not yet taken are not started.
package final class BatchRunner<Outcome: Sendable>: Sendable {
    /// What the jobs share: the next item to take, the outcomes done but
    /// not yet reported (those that finished before an earlier one), and how
    /// far they have been reported. A reported outcome is not kept, so a
    /// batch of any length holds only the outcomes under way.
    private struct Progress {
        var next = 0
        var waiting: [Int: Outcome] = [:]
        var reported = 0
        var stop = false
        var stoppedEarly = false
    }

    private let state: Locked<Progress>
    let count: Int
    let jobs: Int
    let stops: @Sendable (Outcome) -> Bool

    /// True when the run stopped early (fail-fast or interrupt).
    package var stoppedEarly: Bool { state.withLock { $0.stoppedEarly } }

    /// A runner for `count` items.
    package init(count: Int, jobs: Int, stoppingAfter stops: @escaping @Sendable (Outcome) -> Bool = { _ in false }) {
        self.count = count
        self.jobs = max(1, min(jobs, max(count, 1)))
        self.stops = stops
        self.state = Locked(Progress())
    }

    /// Runs `work` for every item (until stopped), hands each outcome to
    /// `report` in item order, and returns the number of items that ran (the
    /// first ones: items are taken in order).
    @discardableResult
    package func run(_ work: @escaping @Sendable (Int) -> Outcome, report: @escaping @Sendable (Int, Outcome) -> Void) -> Int {
        let body: @Sendable (Int) -> Void = { [self] _ in
            while let index = self.take() {
                let outcome = work(index)
                self.finish(index, outcome, report: report)
            }
        }
        if jobs == 1 {
            body(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: jobs, execute: body)
        }
        return state.withLock { $0.reported }
    }

    /// How many items past the first unreported one a job may take: the
    /// outcomes waiting for an earlier, slower item stay this few.
    var window: Int { 32 * jobs }

    private func take() -> Int? {
        while true {
            let taken: Int?? = state.withLock { state in
                if state.stop || BatchInterrupt.isRequested {
                    if state.next < count { state.stoppedEarly = true }
                    return .some(nil)
                }
                guard state.next < count else { return .some(nil) }
                // Too far ahead of an item under way: wait for it.
                guard state.next - state.reported < window else { return nil }
                defer { state.next += 1 }
                return .some(state.next)
            }
            if let taken { return taken }
            usleep(200)
        }
    }

    private func finish(_ index: Int, _ outcome: Outcome, report: (Int, Outcome) -> Void) {
        state.withLock { state in
            if stops(outcome) { state.stop = true }
            state.waiting[index] = outcome
            while state.reported < count, let done = state.waiting.removeValue(forKey: state.reported) {
                report(state.reported, done)
                state.reported += 1
            }
        }
    }
}

extension BatchRunner where Outcome == BatchOutcome {
    /// A runner of a conversion batch; with `failFast` the first failure stops it.
    package convenience init(count: Int, jobs: Int, failFast: Bool) {
        self.init(count: count, jobs: jobs, stoppingAfter: { failFast && $0.status == .failed })
    }
}
