@testable import ArchivistCore
import XCTest

/// `KeyPathText`: key paths in messages cut to 24 steps, their first 8 and
/// last 16, as the guide (safety.md, Limits) promises.
final class KeyPathTextTests: XCTestCase {
    func testLongPathsKeepTheirStartAndEnd() {
        let steps = (0..<30).map { "s\($0)" }
        let cut = KeyPathText.shown(steps.joined(separator: "."))
        XCTAssertEqual(cut, steps[..<8].joined(separator: ".") + ".…." + steps[14...].joined(separator: "."))
        XCTAssertEqual(KeyPathText.shown(steps[..<24].joined(separator: ".")), steps[..<24].joined(separator: "."), "24 steps stay whole")
        // Indexes in brackets, as the writers name places, are steps too.
        let brackets = String(repeating: "[0]", count: 300)
        XCTAssertEqual(KeyPathText.shown(brackets), String(repeating: "[0]", count: 8) + ".…" + String(repeating: "[0]", count: 16))
        XCTAssertEqual(KeyPathText.shown("items[2].name"), "items[2].name")
        // An escaped dot is inside a step, not between two.
        let escaped = Array(repeating: #"a\.b"#, count: 24).joined(separator: ".")
        XCTAssertEqual(KeyPathText.shown(escaped), escaped)
    }

    func testMessagesCutEachLongPathAndNothingElse() {
        let long = Array(repeating: "a", count: 100).joined(separator: ".")
        let message = "\(long) refers to object 9. Done."
        XCTAssertEqual(KeyPathText.shorteningPaths(in: message),
                       Array(repeating: "a", count: 8).joined(separator: ".") + ".…." + Array(repeating: "a", count: 16).joined(separator: ".") + " refers to object 9. Done.")
        XCTAssertEqual(KeyPathText.shorteningPaths(in: "a.b c.d"), "a.b c.d")
    }
}
