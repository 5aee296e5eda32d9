import Foundation
import XCTest

/// Under an address-space limit (`ulimit -v`), `set` and `diff` of an input
/// whose work would not fit exit with an error (1; 2 for `diff`, which could
/// not compare) naming the limit, instead of dying by SIGABRT when an
/// allocation is refused; a small file still works under the same limit.
extension CLITests {
    func testSetAndDiffRefuseAnInputTheAddressSpaceLimitCannotHold() throws {
        let items = (0..<240_000).map { "\"" + String(repeating: "x", count: 100) + "\($0)\"" }
        make("big.json", #"{"items": ["# + items.joined(separator: ",") + "]}")
        make("big2.json", #"{"items": ["# + items.joined(separator: ",") + "]}")
        make("small.json", #"{"a": 1}"#)
        func limited(_ args: [String]) throws -> Result {
            let command = "ulimit -v 250000 && exec \"$0\" \"$@\""
            return try run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", command, Self.productsDirectory.appendingPathComponent("archivist").path] + args)
        }
        let message = "big.json: error: cannot read big.json: its "
        let set = try limited(["set", "big.json", "items.0", "y", "--type", "string", "-o", "out.json"])
        XCTAssertEqual(set.status, 1, set.stderr)
        XCTAssertTrue(set.stderr.hasPrefix(message) && set.stderr.contains("more than the address-space limit (ulimit -v) leaves"), set.stderr)
        let diff = try limited(["diff", "big.json", "big2.json"])
        XCTAssertEqual(diff.status, 2, diff.stderr)
        XCTAssertTrue(diff.stderr.hasPrefix(message), diff.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("out.json").path))
        let small = try limited(["set", "small.json", "a", "2", "--type", "integer"])
        XCTAssertEqual(small.status, 0, small.stderr)
    }
}
