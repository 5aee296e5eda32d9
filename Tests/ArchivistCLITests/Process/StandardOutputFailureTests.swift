import ArchivistCore
import Foundation
import XCTest

/// A failed write to standard output is an error, reported once: exit 1 (2 for
/// `diff`) with `error: cannot write standard output: REASON`, never 0. The
/// failure comes from stand-ins: a pipe without a reader (EPIPE; SIGPIPE is
/// ignored) and a private `/dev/full`, never the host's devices.
extension CLITests {
    /// Every command that prints results, with what it needs.
    func commandsThatPrint() throws -> [[String]] {
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        make("a.json", #"{"v": 1}"#)
        make("b.json", #"{"v": 2}"#)
        for i in 0..<40 { make("many/\(i).plist", #"{"v": \#(i)}"#) }
        let store = try makeStore("Employees.sqlite")
        return [
            ["get", "a.json", "v"], ["lint", "a.json"], ["lint", "many"], ["info", "Data.plist"], ["classes", "Data.plist"],
            ["schema", "Data.plist"], ["diff", "a.json", "b.json"], ["migrate", "Data.plist", "--rules", "rules.json", "--dry-run"],
            ["lint", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT"], ["dump", "Data.plist"],
            ["dump", "--json", "Data.plist"], ["info", "--json", "a.json"],
        ]
    }

    func testAClosedPipeOnStandardOutputFailsOnce() throws {
        for args in try commandsThatPrint() {
            let r = try runWithClosedStandardOutput(args)
            XCTAssertEqual(r.status, args[0] == "diff" ? 2 : 1, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "error: cannot write standard output: Broken pipe\n", "\(args)")
        }
    }

    func testAFullDeviceOnStandardOutputFailsOnce() throws {
        for args in try commandsThatPrint() {
            let r = try runWithPrivateDevices(args, standardOutput: "/dev/full")
            XCTAssertEqual(r.status, args[0] == "diff" ? 2 : 1, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "error: cannot write standard output: No space left on device\n", "\(args)")
        }
        // The stand-in /dev/null still takes output: a run that succeeds stays 0.
        XCTAssertEqual(try runWithPrivateDevices(["lint", "a.json"], standardOutput: "/dev/null").status, 0)
    }
}
