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
///
/// The items are either counted before the run (`init(count:jobs:)`), or
/// handed over while it runs (`init(jobs:)` and `run(feeding:_:report:alone:)`),
/// as a folder walk finds them.
package final class BatchRunner<Outcome: Sendable>: Sendable {
    /// What the jobs share: the items there are so far and whether more
    /// will come, the next item to take, the outcomes done but not yet
    /// reported (those that finished before an earlier one), and how far
    /// they have been reported. A reported outcome is not kept, so a batch
    /// of any length holds only the outcomes under way.
    private struct Progress {
        var count: Int
        var complete: Bool
        var next = 0
        /// Slot `index % window` holds item `index`'s outcome until it is
        /// reported: no item is taken `window` or more past the first
        /// unreported one, so no two waiting outcomes share a slot.
        var waiting: [Outcome?]
        var reported = 0
        var stop = false
        var stoppedEarly = false
    }

    private let state: Locked<Progress>
    let jobs: Int
    let stops: @Sendable (Outcome) -> Bool

    /// True when the run stopped early (fail-fast or interrupt).
    package var stoppedEarly: Bool { state.withLock { $0.stoppedEarly } }

    /// A runner for `count` items.
    package init(count: Int, jobs: Int, stoppingAfter stops: @escaping @Sendable (Outcome) -> Bool = { _ in false }) {
        self.jobs = max(1, min(jobs, max(count, 1)))
        self.stops = stops
        self.state = Locked(Progress(count: count, complete: true, waiting: Array(repeating: nil, count: Self.window(jobs: self.jobs))))
    }

    /// A runner for items handed over as they are found (`run(feeding:_:report:alone:)`).
    package init(jobs: Int, stoppingAfter stops: @escaping @Sendable (Outcome) -> Bool = { _ in false }) {
        self.jobs = max(1, jobs)
        self.stops = stops
        self.state = Locked(Progress(count: 0, complete: false, waiting: Array(repeating: nil, count: Self.window(jobs: self.jobs))))
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

    /// Runs `work` for each item `feed` hands to `add`, while `feed` is
    /// still finding the others: the jobs start on other threads when the
    /// second item comes (a run of one item starts none), and take items
    /// as they come, in order. Outcomes go to `report` in item order, as
    /// `run(_:report:)` hands them. Once the run is stopped (`stops`, an
    /// interrupt), `add` throws and ends the feed. With one job, each item
    /// is worked on as it is added, on the calling thread.
    ///
    /// - Parameters:
    ///   - feed: Finds the items, in order, handing each to `add`.
    ///   - work: The outcome of an item.
    ///   - report: Takes each outcome with its item's index, in order.
    ///   - alone: Given the item of a run of one, on the calling thread, in
    ///     place of `work` and `report` (for work whose output can stream
    ///     when nothing else runs); nil: `work` and `report` take it.
    /// - Returns: The number of items that ran.
    /// - Throws: What `feed` throws (not the end of the feed of a stopped run).
    @discardableResult
    package func run<Item: Sendable>(feeding feed: (_ add: (Item) throws -> Void) throws -> Void,
                                     _ work: @escaping @Sendable (Item) -> Outcome,
                                     report: @escaping @Sendable (Int, Outcome) -> Void,
                                     alone: ((Item) -> Void)? = nil) throws -> Int {
        // The items found and not yet taken, item `i` in slot `i % room`:
        // a feed more than `room` items ahead of the jobs waits for them, so
        // a walk of any size holds no more than this many items. The ring
        // grows to its room as items come (a run of one file keeps one).
        let room = feedRoom
        let items = Locked<[Item]>([])
        let body: @Sendable (Int) -> Void = { [self] _ in
            // The item taken, copied out while its index is claimed (so the
            // feed cannot have put a later item in its slot yet).
            var picked: [Item] = []
            while let index = self.take(copying: { index in
                let item = items.withLock { $0[index % room] }
                if picked.isEmpty { picked.append(item) } else { picked[0] = item }
            }) {
                let outcome = work(picked[0])
                self.finish(index, outcome, report: report)
            }
        }
        let jobsDone = DispatchGroup()
        var started = false
        // No more items: the jobs end when they have taken the last.
        func endFeed() {
            state.withLock { $0.complete = true }
            if started { jobsDone.wait() }
        }
        do {
            var count = 0
            try feed { item in
                while true {
                    guard !stopping else { throw Stopped() }
                    // Slot `count % room` holds item `count - room` until a
                    // job takes that index (and copies the item out).
                    if state.withLock({ count - $0.next < room }) { break }
                    usleep(200)
                }
                items.withLock { slots in
                    if slots.count < room {
                        slots.append(item)
                    } else {
                        slots[count % room] = item
                    }
                }
                count += 1
                state.withLock { $0.count = count }
                if jobs == 1 {
                    body(0)
                    return
                }
                if count == 2, !started {
                    started = true
                    DispatchQueue.global().async(group: jobsDone) {
                        DispatchQueue.concurrentPerform(iterations: self.jobs, execute: body)
                    }
                }
            }
        } catch is Stopped {
            state.withLock { $0.stoppedEarly = true }
        } catch {
            endFeed()
            throw error
        }
        endFeed()
        // One item (or one job): the calling thread works on what is left.
        if !started {
            // The lone item is taken and counted as reported in the same
            // look at the state that finds it alone.
            let lone = jobs > 1 && alone != nil && state.withLock { state in
                guard state.count == 1, state.next == 0, !state.stop else { return false }
                state.next = 1
                state.reported = 1
                return true
            }
            if lone, let alone {
                alone(items.withLock { $0[0] })
            } else {
                body(0)
            }
        }
        return state.withLock { $0.reported }
    }

    /// How many items a feed may be ahead of the jobs (see `run(feeding:_:report:alone:)`).
    package var feedRoom: Int { max(1_024, 4 * window) }

    /// Thrown to a feed once the run stops.
    private struct Stopped: Error {}

    /// True once the run is to start no more items.
    private var stopping: Bool { BatchInterrupt.isRequested || state.withLock { $0.stop } }

    /// How many items past the first unreported one a job may take: the
    /// outcomes waiting for an earlier, slower item stay this few.
    var window: Int { Self.window(jobs: jobs) }

    private static func window(jobs: Int) -> Int { 32 * jobs }

    /// The next item to work on (handed to `copy` before any other job can
    /// take the next); nil when there is none and none will come (or the
    /// run stopped). Waits for a slower earlier item (`window`) and, while
    /// the items are being found, for the next one.
    private func take(copying copy: (Int) -> Void = { _ in }) -> Int? {
        while true {
            let taken: Int?? = state.withLock { state in
                if state.stop || BatchInterrupt.isRequested {
                    if state.next < state.count || !state.complete { state.stoppedEarly = true }
                    return .some(nil)
                }
                guard state.next < state.count else {
                    // On one job the feed is this thread: nothing more now.
                    return state.complete || jobs == 1 ? .some(nil) : nil
                }
                // Too far ahead of an item under way: wait for it.
                guard state.next - state.reported < window else { return nil }
                defer { state.next += 1 }
                copy(state.next)
                return .some(state.next)
            }
            if let taken { return taken }
            usleep(200)
        }
    }

    private func finish(_ index: Int, _ outcome: Outcome, report: (Int, Outcome) -> Void) {
        state.withLock { state in
            if stops(outcome) { state.stop = true }
            let size = state.waiting.count
            state.waiting[index % size] = outcome
            while state.reported < state.count, let done = state.waiting[state.reported % size] {
                state.waiting[state.reported % size] = nil
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
