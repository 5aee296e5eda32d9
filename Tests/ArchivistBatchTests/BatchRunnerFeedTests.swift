import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistBatch

/// A batch whose items are handed over while it runs, as a folder walk
/// finds them: work starts before the last item is found, outcomes are
/// reported in item order, and a stop ends the feed.
final class BatchRunnerFeedTests: XCTestCase {
    /// Waits up to five seconds for `condition`.
    private func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<5_000 {
            if condition() { return true }
            usleep(1_000)
        }
        return false
    }

    func testWorkStartsBeforeTheFeedEnds() throws {
        for jobs in [1, 2, 4] {
            let worked = Locked<[Int]>([])
            let reported = Locked<[Int]>([])
            var startedEarly = false
            let ran = try BatchRunner<Int>(jobs: jobs).run(feeding: { add in
                for item in 0..<200 {
                    try add(item)
                    // The feed goes on only once the first item is worked on
                    // (the first two on several jobs: jobs start with the second).
                    if item == 1 { startedEarly = eventually { worked.withLock { $0.contains(0) } } }
                }
            }, { item in
                worked.withLock { $0.append(item) }
                return item * 10
            }, report: { index, outcome in
                reported.withLock { $0.append(index) }
                XCTAssertEqual(outcome, index * 10)
            })
            XCTAssertTrue(startedEarly, "jobs \(jobs): the first item waited for the feed to end")
            XCTAssertEqual(ran, 200)
            XCTAssertEqual(reported.withLock { $0 }, Array(0..<200), "jobs \(jobs)")
            XCTAssertEqual(worked.withLock { $0 }.sorted(), Array(0..<200))
        }
    }

    /// A feed faster than the jobs waits for them: the items found and not
    /// yet taken stay within the runner's room, whatever the walk's size.
    func testAFeedWaitsForTheJobsPastItsRoom() throws {
        let runner = BatchRunner<Int>(jobs: 2)
        let room = runner.feedRoom
        let begun = Locked(0)
        var fed = 0, most = 0
        let ran = try runner.run(feeding: { add in
            for item in 0..<(3 * room) {
                try add(item)
                fed += 1
                most = max(most, fed - begun.withLock { $0 })
            }
        }, { item in
            begun.withLock { $0 += 1 }
            // Slower than the feed by far, on a loaded machine too.
            usleep(200)
            return item
        }, report: { index, outcome in
            // Each item worked once, as it was fed (no slot reused too soon).
            XCTAssertEqual(outcome, index)
        })
        XCTAssertEqual(ran, 3 * room)
        // Each job may hold one item taken and not yet begun.
        XCTAssertLessThanOrEqual(most, room + 2)
        XCTAssertGreaterThan(most, room / 2, "the feed ran ahead of the jobs")
    }

    func testARunOfOneItemStartsNoJobsAndGoesAlone() throws {
        for jobs in [1, 4] {
            let worked = Locked(0), alone = Locked<[String]>([])
            let thread = pthread_self()
            let ran = try BatchRunner<Int>(jobs: jobs).run(feeding: { add in try add("only") }, { _ in
                worked.withLock { $0 += 1 }
                XCTAssertNotEqual(pthread_equal(pthread_self(), thread), 0, "on the calling thread")
                return 1
            }, report: { _, _ in }, alone: { item in
                XCTAssertNotEqual(pthread_equal(pthread_self(), thread), 0)
                alone.withLock { $0.append(item) }
            })
            XCTAssertEqual(ran, 1)
            // One job works as items come (no `alone`); more jobs hand a lone item to `alone`.
            XCTAssertEqual(worked.withLock { $0 }, jobs == 1 ? 1 : 0, "jobs \(jobs)")
            XCTAssertEqual(alone.withLock { $0 }, jobs == 1 ? [] : ["only"], "jobs \(jobs)")
        }
        let none = try BatchRunner<Int>(jobs: 4).run(feeding: { (_: (Int) throws -> Void) in }, { $0 }, report: { _, _ in XCTFail("nothing to report") },
                                                     alone: { _ in XCTFail("no item") })
        XCTAssertEqual(none, 0)
    }

    func testAStopEndsTheFeed() throws {
        for jobs in [1, 3] {
            var fed = 0
            let runner = BatchRunner<Int>(jobs: jobs, stoppingAfter: { $0 == 5 })
            let ran = try runner.run(feeding: { add in
                for item in 0..<100_000 {
                    try add(item)
                    fed += 1
                }
            }, { $0 }, report: { _, _ in })
            XCTAssertTrue(runner.stoppedEarly, "jobs \(jobs)")
            XCTAssertLessThan(fed, 100_000, "jobs \(jobs): the feed went on after the stop")
            XCTAssertGreaterThanOrEqual(ran, 6)
            XCTAssertLessThan(ran, 100_000)
        }
    }

    func testAFeedsErrorEndsTheRunAfterTheItemsUnderWay() {
        struct Broken: Error {}
        for jobs in [1, 2] {
            let reported = Locked(0)
            XCTAssertThrowsError(try BatchRunner<Int>(jobs: jobs).run(feeding: { add in
                for item in 0..<50 { try add(item) }
                throw Broken()
            }, { $0 }, report: { _, _ in reported.withLock { $0 += 1 } })) { XCTAssertTrue($0 is Broken) }
            // The jobs took every item fed before the error, and are done.
            XCTAssertEqual(reported.withLock { $0 }, 50, "jobs \(jobs)")
        }
    }
}
