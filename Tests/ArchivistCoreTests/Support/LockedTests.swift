import Dispatch
import XCTest
@testable import ArchivistCore

/// `Locked`: one body at a time, and the value released with the lock.
final class LockedTests: XCTestCase {
    final class Token {
        let released: Locked<Int>
        init(_ released: Locked<Int>) { self.released = released }
        deinit { released.withLock { $0 += 1 } }
    }

    func testTheValueGoesWithTheLock() {
        let released = Locked(0)
        do {
            let locked = Locked([Token(released), Token(released)])
            locked.withLock { $0.append(Token(released)) }
            XCTAssertEqual(released.withLock { $0 }, 0)
        }
        XCTAssertEqual(released.withLock { $0 }, 3, "the tokens are released with the lock")
    }

    func testBodiesDoNotOverlap() {
        let counter = Locked((total: 0, inside: 0, most: 0))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 {
                counter.withLock { state in
                    state.inside += 1
                    state.most = max(state.most, state.inside)
                    state.total += 1
                    state.inside -= 1
                }
            }
        }
        let state = counter.withLock { $0 }
        XCTAssertEqual(state.total, 16_000)
        XCTAssertEqual(state.most, 1)
    }
}
