import ArchivistCore
import Foundation
import XCTest

/// One check of a rules file against the inputs for every command that takes
/// `--rules`: a class that occurs nowhere stops the run (status 64), a key
/// rule no object has is a warning, both with near misses suggested.
extension CLITests {
    /// `lint --secure --rules` refuses the rules `migrate` refuses, on an
    /// archive that is otherwise clean (it passed before this check existed).
    func testLintChecksTheRulesAsMigrateDoes() throws {
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        XCTAssertEqual(try run(["migrate", "Data.plist", "--rules", "rules.json", "--in-place"]).status, 0)
        XCTAssertEqual(try run(["lint", "--secure", "--rules", "rules.json", "Data.plist"]).stdout, "Data.plist: OK\n")

        make("typo.json", #"{"classes": {"ScaryCreatures.ScaryCreatureDta": {"keys": {"Rating": {"box": true}}}}, "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]}"#)
        let expected = "typo.json: error: classes.\"ScaryCreatures.ScaryCreatureDta\": class ScaryCreatures.ScaryCreatureDta occurs in none of the inputs (did you mean ScaryCreatures2.ScaryCreatureData?)\n"
        let migrate = try run(["migrate", "Data.plist", "--rules", "typo.json", "--dry-run"])
        XCTAssertEqual(migrate.status, 64)
        XCTAssertEqual(migrate.stderr, expected)
        let lint = try run(["lint", "--secure", "--rules", "typo.json", "Data.plist"])
        XCTAssertEqual(lint.status, 64, "the same rules file is refused by lint")
        XCTAssertEqual(lint.stderr, expected)
        let store = try run(["lint", "--secure", "--rules", "typo.json", "-q", "Data.plist", "--format", "json"])
        XCTAssertEqual(store.status, 64, "whatever the output format")
        // Plain property lists (a hook's run on other files) give nothing to check the rules against.
        try copyCorpus("foundation/info-plist.bplist", to: "Info.plist")
        let plain = try run(["lint", "--secure", "--rules", "typo.json", "Info.plist"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(plain.stdout, "Info.plist: OK\n")
    }

    /// A key rule in the wrong case is warned about with the key the archives
    /// have; the run goes on (the rule only does nothing).
    func testKeyRulesThatMatchNothingAreWarnedAbout() throws {
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        make("rules.json", """
            {"classes": {"ScaryCreatures.ScaryCreatureData": {"renameTo": "ScaryCreatures2.ScaryCreatureData",
              "keys": {"rating": {"box": true}, "Titel": {"renameTo": "Name"}, "Unrelated": {"remove": true}}}},
             "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]}
            """)
        let warnings = """
            rules.json: warning: classes."ScaryCreatures.ScaryCreatureData".keys.rating: no ScaryCreatures.ScaryCreatureData object has a key "rating"; this rule does nothing (did you mean "Rating"?)
            rules.json: warning: classes."ScaryCreatures.ScaryCreatureData".keys.Titel: no ScaryCreatures.ScaryCreatureData object has a key "Titel"; this rule does nothing (did you mean "Title"?)
            rules.json: warning: classes."ScaryCreatures.ScaryCreatureData".keys.Unrelated: no ScaryCreatures.ScaryCreatureData object has a key "Unrelated"; this rule does nothing

            """
        let dry = try run(["migrate", "Data.plist", "--rules", "rules.json", "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stderr, warnings)
        let lint = try run(["lint", "--secure", "--rules", "rules.json", "Data.plist"])
        XCTAssertEqual(lint.status, 1, "version 1 is still refused by the secure check")
        XCTAssertEqual(lint.stderr, warnings)
        let codable = try run(["convert", "Data.plist", "--to", "codable-json", "--rules", "rules.json"])
        XCTAssertEqual(codable.stderr, warnings)

        // Once migrated, the renamed class and its keys still count as present.
        make("good.json", """
            {"classes": {"ScaryCreatures.ScaryCreatureData": {"renameTo": "ScaryCreatures2.ScaryCreatureData",
              "keys": {"Title": {"renameTo": "Name"}}}}, "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]}
            """)
        XCTAssertEqual(try run(["migrate", "Data.plist", "--rules", "good.json", "--in-place"]).stderr, "")
        let again = try run(["lint", "--secure", "--rules", "good.json", "Data.plist"])
        XCTAssertEqual(again.stderr, "")
        XCTAssertEqual(again.stdout, "Data.plist: OK\n")
    }
}
