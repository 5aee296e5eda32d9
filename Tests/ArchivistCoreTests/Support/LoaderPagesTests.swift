import Foundation
import XCTest
@testable import ArchivistCore

/// The relocation table's pages are handed back: the process's resident
/// memory drops by about what `LoaderPages.release()` reports, and the
/// program goes on running (nothing it runs reads the table).
final class LoaderPagesTests: XCTestCase {
    /// The kB of the process's resident memory (`/proc/self/smaps_rollup`).
    private func residentKiB() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Rss:") }),
              let kib = Int(line.dropFirst("Rss:".count).filter(\.isNumber)) else {
            throw XCTSkip("no Rss line in /proc/self/smaps_rollup")
        }
        return kib
    }

    func testRelocationPagesAreHandedBack() throws {
        #if os(Linux)
        // Read once first, so that the measurement's own allocations are made.
        _ = try residentKiB()
        let before = try residentKiB()
        let released = LoaderPages.release()
        let after = try residentKiB()
        guard released >= 256 * 1024 else {
            throw XCTSkip("this test binary's relocation table takes \(released) bytes of whole pages")
        }
        XCTAssertGreaterThanOrEqual(before - after, released / 1024 / 2, "released \(released) bytes: \(before) kB before, \(after) kB after")
        // A second call hands back the same pages, already gone.
        let again = try residentKiB()
        XCTAssertEqual(LoaderPages.release(), released)
        XCTAssertLessThanOrEqual(try residentKiB(), again + 64)
        // The program goes on: reading and writing still work.
        XCTAssertEqual(try PropertyList.read(Array("<plist><true/></plist>".utf8)).tree.value, .bool(true))
        #else
        XCTAssertEqual(LoaderPages.release(), 0)
        #endif
    }
}
