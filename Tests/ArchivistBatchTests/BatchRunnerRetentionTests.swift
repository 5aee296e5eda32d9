import ArchivistCore
import XCTest
@testable import ArchivistBatch

/// A batch holds only the outcomes under way: each is handed to the report
/// in item order and then dropped, so a batch of any length keeps its
/// memory flat (the summary keeps counts, not outcomes).
final class BatchRunnerRetentionTests: XCTestCase {
    /// An outcome that counts how many of its kind are alive.
    final class Counted: @unchecked Sendable {
        static let alive = Locked(0)
        static let most = Locked(0)
        let payload = [UInt8](repeating: 0, count: 4_096)

        init() {
            let now = Self.alive.withLock { count -> Int in
                count += 1
                return count
            }
            Self.most.withLock { $0 = max($0, now) }
        }

        deinit { Self.alive.withLock { $0 -= 1 } }
    }

    func testReportedOutcomesAreNotKept() {
        for jobs in [1, 4] {
            Counted.most.withLock { $0 = 0 }
            let reported = Locked(0)
            let ran = BatchRunner<Counted>(count: 5_000, jobs: jobs).run({ _ in Counted() }, report: { index, _ in
                reported.withLock {
                    XCTAssertEqual($0, index, "in item order")
                    $0 += 1
                }
            })
            XCTAssertEqual(ran, 5_000)
            XCTAssertEqual(reported.withLock { $0 }, 5_000)
            XCTAssertEqual(Counted.alive.withLock { $0 }, 0, "nothing kept after the run")
            // Only outcomes done before an earlier one is reported wait: a
            // few per job at most, never the batch.
            XCTAssertLessThanOrEqual(Counted.most.withLock { $0 }, 33 * jobs, "jobs \(jobs)")
        }
    }
}
