import Foundation
import XCTest

/// ArgumentParser's usage errors go to standard error through the console
/// like every other message: what they quote of the command line has its
/// control characters escaped (an argument cannot clear the screen or forge
/// a line), their own lines and the usage keep their layout.
extension CLITests {
    func testUsageErrorsEscapeControlCharactersOfTheCommandLine() throws {
        let depth = try run(["dump", "x.plist", "--depth", "1\u{1b}[2J\nerror: forged"])
        XCTAssertEqual(depth.status, 64)
        let lines = depth.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.first, #"Error: The value '1\u{1b}[2J\nerror: forged' is invalid for '--depth <N>'"#)
        XCTAssertFalse(depth.stderr.contains("\u{1b}"))
        XCTAssertFalse(lines.contains { $0.hasPrefix("error: forged") })
        XCTAssertTrue(lines.contains("Usage: archivist dump [<options>] [<FILE> ...]"), depth.stderr)

        for to in ["--to", "--to="] {
            let args = to == "--to" ? ["convert", "x.plist", "--to", "ya\u{7}ml"] : ["convert", "x.plist", "--to=ya\u{7}ml"]
            let format = try run(args)
            XCTAssertEqual(format.status, 64)
            let text = format.stderr.split(separator: "\n").map(String.init)
            XCTAssertEqual(text.first, #"Error: The value 'ya\u{7}ml' is invalid for '--to <FORMAT>'. Please provide one of the following:"#)
            XCTAssertEqual(text.dropFirst().first, "  - xml", "the message's own lines stay lines")
            XCTAssertFalse(format.stderr.contains("\u{7}"))
        }
        // Help still goes to standard output, unchanged.
        let help = try run(["dump", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Show a property list"), help.stdout)
    }
}
