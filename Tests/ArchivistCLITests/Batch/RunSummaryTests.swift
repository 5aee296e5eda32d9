import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// What runs say about themselves: summaries that add up, archives kept in
/// formats that hold them, and messages that tell cases apart.
extension CLITests {
    /// A second in-place run changes nothing, and says it wrote nothing.
    func testUnchangedFilesAreNotCountedAsWritten() throws {
        for name in ["a", "b", "c"] {
            let data = try PropertyListSerialization.data(fromPropertyList: ["name": name, "count": 3], format: .xml, options: 0)
            try data.write(to: work.appendingPathComponent("in/\(name).plist").creatingFolder())
        }
        let first = try run(["convert", "in", "--to", "binary", "--in-place"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.hasPrefix("3 converted, 0 unchanged, 0 skipped, 0 failed; "), first.stderr)
        XCTAssertFalse(first.stderr.contains(" 0 B written"), first.stderr)
        let second = try run(["convert", "in", "--to", "binary", "--in-place"])
        XCTAssertTrue(second.stderr.hasPrefix("0 converted, 3 unchanged, 0 skipped, 0 failed; "), second.stderr)
        XCTAssertTrue(second.stderr.contains(" read, 0 B written in "), second.stderr)
    }

    /// A dry run of an archive that needs nothing says so once.
    func testDryRunWithNothingToChange() throws {
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        XCTAssertEqual(try run(["migrate", "Data.plist", "--rules", "rules.json", "--in-place"]).status, 0)
        let dry = try run(["migrate", "Data.plist", "--rules", "rules.json", "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, "Data.plist: nothing to change\n")
    }

    /// JSON and OpenStep cannot hold an archive's UIDs: migrate refuses them
    /// before writing and names the formats that can.
    func testMigrateRefusesFormatsThatCannotHoldAnArchive() throws {
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        for format in ["json", "openstep"] {
            let r = try run(["migrate", "Data.plist", "--rules", "rules.json", "--to", format, "-o", "out.\(format)"])
            XCTAssertEqual(r.status, 64, format)
            XCTAssertTrue(r.stderr.contains("--to \(format) cannot hold a keyed archive (its UIDs would not survive); write xml or binary."), r.stderr)
        }
        XCTAssertEqual(try listing(), ["Data.plist", "rules.json"], "nothing written")
        // What JSON would have made of it: the UIDs read back as dictionaries, not an archive.
        let json = try run(["convert", "Data.plist", "--to", "json", "-o", "Data.json"])
        XCTAssertEqual(json.status, 0)
        let lint = try run(["lint", "Data.json"])
        XCTAssertEqual(lint.status, 1)
        XCTAssertTrue(lint.stdout.contains("is a dictionary, not a UID"), lint.stdout)
        // xml works, and Foundation's unarchiver reads the result.
        let xml = try run(["migrate", "Data.plist", "--rules", "rules.json", "--to", "xml", "-o", "Data-v2.plist"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(try secureDecode("Data-v2.plist", names: ["ScaryCreatures2.ScaryCreatureData": "ScaryCreatureData"]),
                       "ScaryCreatureData(title: Scary Bug, rating: 3.5)")
        // convert --to openstep of an archive suggests only the formats that keep it.
        let openStep = try run(["convert", "Data.plist", "--to", "openstep"])
        XCTAssertEqual(openStep.status, 1)
        XCTAssertTrue(openStep.stderr.hasSuffix("(OpenStep holds only strings, data, arrays and dictionaries; the tree holds UIDs (a keyed archive), which only xml1 and binary1 keep: write one of those instead)\n"), openStep.stderr)
    }

    /// `dump --row` tells a NULL (or non-blob) value from a row that does not exist.
    func testDumpTellsNullRowsFromMissingOnes() throws {
        let store = try makeStore("Employees.sqlite")
        let null = try run(["dump", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--row", "4"])
        XCTAssertEqual(null.status, 1)
        XCTAssertEqual(null.stderr, "Employees.sqlite: error: row 4 of ZEMPLOYEEENTITY.ZCONTACT is NULL (no value, so nothing to read)\n")
        let missing = try run(["dump", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--row", "9"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "Employees.sqlite: error: ZEMPLOYEEENTITY has no row 9\n")
    }

    /// An inline 32-bit real is labelled once: `3.5 (inline float)`.
    func testDumpLabelsAnInlineFloatOnce() throws {
        let dump = try run(["dump", corpus("archives/scary-creature-v1.plist")])
        XCTAssertTrue(dump.stdout.contains("    Rating = 3.5 (inline float)\n"), dump.stdout)
        XCTAssertFalse(dump.stdout.contains("(float) (inline"), dump.stdout)
    }

    /// A class path is quoted the same way in every rules message.
    func testRulesPathsAreQuotedAlike() throws {
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        make("shape.json", #"{"classes": {"ScaryCreatures.ScaryCreatureData": {"keys": {"Rating": {"bx": true}}}}}"#)
        make("missing.json", #"{"classes": {"ScaryCreatures.Other": {"renameTo": "X"}}}"#)
        let shape = try run(["migrate", "Data.plist", "--rules", "shape.json", "--dry-run"])
        XCTAssertTrue(shape.stderr.hasPrefix(#"shape.json: error: classes."ScaryCreatures.ScaryCreatureData".keys.Rating.bx: "#), shape.stderr)
        let missing = try run(["migrate", "Data.plist", "--rules", "missing.json", "--dry-run"])
        XCTAssertTrue(missing.stderr.hasPrefix(#"missing.json: error: classes."ScaryCreatures.Other": class ScaryCreatures.Other occurs"#), missing.stderr)
    }
}

extension URL {
    /// The URL, after creating the folder it is in.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
