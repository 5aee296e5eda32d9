import ArchivistCore
import Foundation
import XCTest

/// Numbers that do not fit their type: `lint` and `convert` warn about JSON
/// integers beyond 64 bits, `set` refuses values it would store changed.
extension CLITests {
    func testIntegersBeyond64BitsAreWarnedAbout() throws {
        make("big.json", "{\n  \"big\": 123456789012345678901234567890,\n  \"n\": 1\n}")
        let warning = "big.json:2:10: warning: integer 123456789012345678901234567890 does not fit in 64 bits; Apple's parsers read it as the real 1.2345678901234568e+29"
        let lint = try run(["lint", "big.json"])
        XCTAssertEqual(lint.status, 0, "a warning leaves the file valid")
        XCTAssertEqual(lint.stdout, "\(warning)\nbig.json: OK\n")
        XCTAssertEqual(try run(["lint", "--quiet", "big.json"]).stdout, "\(warning)\n")
        let github = try run(["lint", "--format", "github", "big.json"])
        XCTAssertEqual(github.status, 0)
        XCTAssertEqual(github.stdout, "::warning file=big.json,line=2,col=10::integer 123456789012345678901234567890 does not fit in 64 bits; Apple's parsers read it as the real 1.2345678901234568e+29\n")
        let json = try run(["lint", "--format", "json", "big.json"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(report.first?["valid"] as? Bool, true)
        let problem = try XCTUnwrap((report.first?["problems"] as? [[String: Any]])?.first)
        XCTAssertEqual(problem["severity"] as? String, "warning")
        XCTAssertEqual(problem["line"] as? Int, 2)
        // An error beside it still makes the file invalid.
        make("both.json", "{\"a\": 18446744073709551616, \"a\": 1}")
        let both = try run(["lint", "both.json"])
        XCTAssertEqual(both.status, 1)
        XCTAssertEqual(both.stdout.split(separator: "\n").map { $0.contains(": warning: ") }, [true, false], both.stdout)

        let convert = try run(["convert", "big.json", "--to", "xml"])
        XCTAssertEqual(convert.status, 0)
        XCTAssertEqual(convert.stderr, "\(warning)\n")
        XCTAssertTrue(convert.stdout.contains("<real>1.2345678901234568e+29</real>"), convert.stdout)
    }

    func testSetRefusesNumbersThatDoNotFit() throws {
        make("p.plist", "<plist><dict/></plist>")
        let original = try Data(contentsOf: work.appendingPathComponent("p.plist"))
        let refusals: [([String], String)] = [
            (["r", "1e999", "--type", "real"], "error: 1e999 is beyond the range of a 64-bit real (largest 1.7976931348623157e+308)\n"),
            (["r", "--type", "real", "--", "-1e400"], "error: -1e400 is beyond the range of a 64-bit real (largest 1.7976931348623157e+308)\n"),
            (["r", "1e-400", "--type", "real"], "error: 1e-400 is too small for a 64-bit real (it would be 0; smallest 5e-324)\n"),
            (["i", "18446744073709551616", "--type", "integer"],
             "error: 18446744073709551616 does not fit in a 64-bit integer (-9223372036854775808 to 18446744073709551615)\n"),
            (["i", "--type", "integer", "--", "-9223372036854775809"],
             "error: -9223372036854775809 does not fit in a 64-bit integer (-9223372036854775808 to 18446744073709551615)\n"),
            (["j", "{\"big\": 123456789012345678901234567890}", "--type", "json"],
             "error: integer 123456789012345678901234567890 does not fit in 64 bits; Apple's parsers read it as the real 1.2345678901234568e+29\n"),
        ]
        for (args, message) in refusals {
            let result = try run(["set", "p.plist"] + args)
            XCTAssertNotEqual(result.status, 0, "\(args)")
            XCTAssertEqual(result.stderr, message, "\(args)")
            XCTAssertEqual(try Data(contentsOf: work.appendingPathComponent("p.plist")), original, "a refused value leaves the file as it was")
        }
        // What fits is stored, infinities when asked for by name.
        for (key, value, type) in [("r", "1.7976931348623157e308", "real"), ("inf", "-infinity", "real"), ("z", "0.0", "real"),
                                   ("i", "18446744073709551615", "integer"), ("n", "-9223372036854775808", "integer")] {
            XCTAssertEqual(try run(["set", "p.plist", key, "--type", type, "--", value]).status, 0, value)
        }
        let dict = try XCTUnwrap(try PropertyListSerialization.propertyList(from: Data(contentsOf: work.appendingPathComponent("p.plist")), format: nil) as? [String: Any])
        XCTAssertEqual((dict["r"] as? NSNumber)?.doubleValue, .greatestFiniteMagnitude)
        XCTAssertEqual((dict["inf"] as? NSNumber)?.doubleValue, -.infinity)
        XCTAssertEqual((dict["i"] as? NSNumber)?.uint64Value, .max)
        XCTAssertEqual((dict["n"] as? NSNumber)?.int64Value, .min)
    }
}
