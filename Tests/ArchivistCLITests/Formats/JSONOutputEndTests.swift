import Foundation
import XCTest

/// Every JSON document a command prints ends with one line break, as
/// `jq` and `JSONSerialization` expect a file to (an empty line after it
/// was one more line for a script to skip).
extension CLITests {
    func testJSONOutputsEndWithOneLineBreak() throws {
        let file = make("x.plist", #"{"a" = 1; "b" = (1, 2);}"#)
        let other = make("y.plist", #"{"a" = 2;}"#)
        for arguments in [["info", "--json", file], ["lint", "--format", "json", file], ["diff", "--json", file, other],
                          ["diff", "--json", file, file], ["dump", "--json", file]] {
            let result = try run(arguments)
            XCTAssertTrue(result.stdout.hasSuffix("\n"), "\(arguments): \(result.stdout)")
            XCTAssertFalse(result.stdout.hasSuffix("\n\n"), "\(arguments): \(result.stdout)")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)), "\(arguments)")
        }
    }
}
