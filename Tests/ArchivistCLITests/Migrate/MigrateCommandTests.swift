import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest

/// `archivist migrate` and `archivist lint --secure` on the built binary, with
/// Foundation's secure NSKeyedUnarchiver deciding whether results decode.
extension CLITests {
    /// Decodes a file with the secure decoder in a child process (the test
    /// binary's `SecureDecodeChild`), returning its `DECODED ...` text.
    func secureDecode(_ name: String, names: [String: String]) throws -> String? {
        let output = try ProcessRunner.runTestChild("ArchivistArchiveTests.SecureDecodeChild/testDecodeFileFromEnvironment", environment: [
            "ARCHIVIST_DECODE_FILE": work.appendingPathComponent(name).path,
            "ARCHIVIST_DECODE_NAMES": names.map { "\($0.key)=\($0.value)" }.joined(separator: ";"),
        ]).stdout
        return output.split(separator: "\n").first { $0.hasPrefix("DECODED ") }.map { String($0.dropFirst(8)) }
    }

    func copyCorpus(_ path: String, to name: String) throws {
        let url = work.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus(path), toPath: url.path)
    }

    /// Scenario 1 end to end: lint --secure flags version 1, migrate fixes it in
    /// place with a backup, lint passes it, and the secure decoder reads it.
    func testScenarioOneFromTheCommandLine() throws {
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        try copyCorpus("archives/scary-creature-v1.plist", to: "1.scarycreature/Data.plist")
        let original = try XCTUnwrap(contents("1.scarycreature/Data.plist"))
        let names = ["ScaryCreatures2.ScaryCreatureData": "ScaryCreatureData"]
        XCTAssertNil(try secureDecode("1.scarycreature/Data.plist", names: names), "version 1 does not decode securely")

        let flagged = try run(["lint", "--secure", "--rules", "rules.json", "1.scarycreature/Data.plist"])
        XCTAssertEqual(flagged.status, 1)
        XCTAssertEqual(flagged.stdout, """
            1.scarycreature/Data.plist: $objects[1] (root): error: class ScaryCreatures.ScaryCreatureData is not allowed by a secure decoder; add it to the allowed classes
            1.scarycreature/Data.plist: $objects[1] (root.Rating): error: Rating of ScaryCreatures.ScaryCreatureData holds the real 3.5 (float) inline, which decodeObject(of:forKey:) cannot read; box it into an NSNumber

            """)

        let dry = try run(["migrate", "1.scarycreature/Data.plist", "--rules", "rules.json", "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, """
            1.scarycreature/Data.plist: would change:
              box inline Rating of ScaryCreatures.ScaryCreatureData into an NSNumber (1 object)
              rename class ScaryCreatures.ScaryCreatureData -> ScaryCreatures2.ScaryCreatureData (1 object)

            """)
        XCTAssertEqual(contents("1.scarycreature/Data.plist"), original, "a dry run writes nothing")
        XCTAssertEqual(try listing("1.scarycreature"), ["Data.plist"])

        let migrated = try run(["migrate", "1.scarycreature/Data.plist", "--rules", "rules.json", "--in-place", "--backup", ".v1"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertEqual(migrated.stdout.split(separator: "\n").first, "1.scarycreature/Data.plist -> 1.scarycreature/Data.plist:")
        XCTAssertEqual(contents("1.scarycreature/Data.plist.v1"), original)
        let result = try XCTUnwrap(contents("1.scarycreature/Data.plist"))
        XCTAssertEqual(result.prefix(8), Data("bplist00".utf8), "the input's format is kept")

        let clean = try run(["lint", "--secure", "--rules", "rules.json", "1.scarycreature/Data.plist"])
        XCTAssertEqual(clean.status, 0, clean.stdout)
        XCTAssertEqual(clean.stdout, "1.scarycreature/Data.plist: OK\n")
        XCTAssertEqual(try secureDecode("1.scarycreature/Data.plist", names: names), "ScaryCreatureData(title: Scary Bug, rating: 3.5)")

        // --allow is the quick form of an allowlist; it still wants Rating boxed.
        let allowed = try run(["lint", "--secure", "--allow", "ScaryCreatures.ScaryCreatureData,Other", "1.scarycreature/Data.plist.v1"])
        XCTAssertEqual(allowed.status, 1)
        XCTAssertEqual(allowed.stdout.split(separator: "\n").count, 1, allowed.stdout)
        XCTAssertTrue(allowed.stdout.contains("(root.Rating): error: Rating of"), allowed.stdout)
        // Without --secure, lint checks structure only.
        XCTAssertEqual(try run(["lint", "1.scarycreature/Data.plist.v1"]).stdout, "1.scarycreature/Data.plist.v1: OK\n")
    }

    /// A result a secure decoder would refuse is not written; the errors name
    /// the class, object and key.
    func testMigrateRefusesResultsThatWouldNotDecode() throws {
        make("rules.json", #"{"classes": {"ScaryCreatures.ScaryCreatureData": {"renameTo": "ScaryCreatures2.ScaryCreatureData"}}}"#)
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        let r = try run(["migrate", "Data.plist", "--rules", "rules.json", "-o", "out.plist"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, """
            Data.plist: $objects[1] (root): error: class ScaryCreatures2.ScaryCreatureData is not allowed by a secure decoder; add it to the allowed classes
            Data.plist: error: not written: a secure decoder would still refuse the result

            """)
        XCTAssertEqual(try listing(), ["Data.plist", "rules.json"])
    }

    /// A rules file naming a class that occurs in no input, or a malformed
    /// one, stops the run before anything is written.
    func testRulesMistakesStopTheRun() throws {
        make("typo.json", #"{"classes": {"ScaryCreatures.ScaryCreatureDta": {"renameTo": "X"}}, "allowedClasses": ["X"]}"#)
        make("bad.json", #"{"classes": {"A": {"keys": {"k": {"bx": true}}}}}"#)
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        let typo = try run(["migrate", "Data.plist", "--rules", "typo.json", "--output-dir", "out"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertEqual(typo.stderr, "typo.json: error: classes.\"ScaryCreatures.ScaryCreatureDta\": class ScaryCreatures.ScaryCreatureDta occurs in none of the inputs (did you mean ScaryCreatures.ScaryCreatureData?)\n")
        let bad = try run(["migrate", "Data.plist", "--rules", "bad.json", "--output-dir", "out"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, #"bad.json: error: classes.A.keys.k.bx: unknown field "bx"; expected renameTo, box, remove or required"# + "\n")
        XCTAssertEqual(try listing(), ["Data.plist", "bad.json", "typo.json"])
        XCTAssertEqual(try run(["migrate", "Data.plist", "--rules", "bad.json", "--backup", ".b"]).status, 64, "--backup needs --in-place")
        XCTAssertEqual(try run(["lint", "--allow", "X", "Data.plist"]).status, 64, "--allow needs --secure")
    }

    /// Scenario 3: the archive nested in a preferences file is migrated where it
    /// is; the outer file keeps its other keys, and its format unless --to.
    func testMigrateNestedArchiveInPreferences() throws {
        make("rules.json", #"{"classes": {"Prefs.User": {"renameTo": "Accounts.User"}}, "allowedClasses": ["Accounts.User"]}"#)
        try copyCorpus("archives/preferences-with-user.plist", to: "prefs.plist")
        let r = try run(["migrate", "prefs.plist", "--rules", "rules.json", "--output-dir", "out", "--to", "xml"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            prefs.plist -> out/prefs.plist:
              in currentUser: box inline age of Prefs.User into an NSNumber (1 object)
              in currentUser: rename class Prefs.User -> Accounts.User (1 object)

            """)
        let out = try XCTUnwrap(contents("out/prefs.plist"))
        XCTAssertEqual(out.prefix(5), Data("<?xml".utf8))
        let dump = try run(["dump", "out/prefs.plist"])
        XCTAssertTrue(dump.stdout.contains("root = Accounts.User {"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("\"launchCount\" => 12"), dump.stdout)
        let lint = try run(["lint", "--secure", "--rules", "rules.json", "prefs.plist", "out/prefs.plist"])
        XCTAssertEqual(lint.status, 1)
        XCTAssertEqual(lint.stdout.split(separator: "\n").map { String($0.prefix(40)) }, [
            "prefs.plist: $objects[1] (currentUser.ro",
            "prefs.plist: $objects[1] (currentUser.ro",
            "out/prefs.plist: OK",
        ])
        // A plain plist holds no archive: an error, nothing written.
        let plain = try run(["migrate", corpus("foundation/info-plist.bplist"), "--rules", make("empty.json", "{}"), "-o", "x.plist"])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.stderr.hasSuffix("error: not a keyed archive, and holds none in its data values\n"), plain.stderr)
        XCTAssertNil(contents("x.plist"))
    }
}
