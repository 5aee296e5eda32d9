import ArchivistCore
import Foundation
import XCTest

/// `lint --format json|github` and `--require-format`.
extension CLITests {
    func testLintReportFormats() throws {
        make("good.plist", "<plist><dict><key>a</key><true/></dict></plist>")
        make("bad.json", "{\n \"a\": 1,\n \"a\": 2\n}")
        let github = try run(["lint", "--format", "github", "good.plist", "bad.json"])
        XCTAssertEqual(github.status, 1)
        XCTAssertEqual(github.stdout, "::error file=bad.json,line=3,col=2::duplicate key \"a\"; the last value is kept (see 2:2)\n")
        let json = try run(["lint", "--format", "json", "good.plist", "bad.json"])
        XCTAssertEqual(json.status, 1)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(report.count, 2)
        XCTAssertEqual(report[0]["path"] as? String, "good.plist")
        XCTAssertEqual(report[0]["valid"] as? Bool, true)
        let problems = try XCTUnwrap(report[1]["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.first?["line"] as? Int, 3)
        XCTAssertEqual(problems.first?["column"] as? Int, 2)

        make("deep.json", "[[[[1]]]]")
        XCTAssertEqual(try run(["lint", "--max-depth", "3", "deep.json"]).stdout, "deep.json:1:4: error: containers nested deeper than 3 levels\n")
        XCTAssertEqual(try run(["lint", "--max-depth", "10", "deep.json"]).stdout, "deep.json: OK\n")
        XCTAssertEqual(try run(["convert", "deep.json", "--to", "xml", "--max-depth", "2"]).status, 1)
        XCTAssertEqual(try run(["lint", "--max-depth", "0", "deep.json"]).status, 64)

        let policy = try run(["lint", "--require-format", "xml", "good.plist", corpus("foundation/info-plist.bplist")])
        XCTAssertEqual(policy.status, 1)
        XCTAssertEqual(policy.stdout, "good.plist: OK\n\(corpus("foundation/info-plist.bplist")): error: the file is binary; this check requires xml\n")
        let archive = try run(["lint", "--format", "github", "--secure", corpus("archives/scary-creature-v1.plist")])
        XCTAssertTrue(archive.stdout.contains("::$objects[1] (root): class ScaryCreatures.ScaryCreatureData is not allowed"), archive.stdout)
    }
}
