import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// Rules files are written by hand: every mistake is an error naming its place.
final class MigrationRulesTests: XCTestCase {
    func parse(_ json: String) throws -> MigrationRules {
        try MigrationRules(bytes: Array(json.utf8))
    }

    func assertError(_ json: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(json), file: file, line: line) { error in
            XCTAssertEqual((error as? PlistError)?.message, message, file: file, line: line)
        }
    }

    func testTheIssueExample() throws {
        let rules = try parse("""
            {
              "classes": {
                "ScaryCreatures.ScaryCreatureData": {
                  "renameTo": "ScaryCreatures2.ScaryCreatureData",
                  "keys": { "Rating": { "box": true }, "Name": { "renameTo": "Title" }, "Obsolete": { "remove": true } }
                }
              },
              "boxPrimitives": true,
              "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]
            }
            """)
        XCTAssertEqual(rules.classes.count, 1)
        let rule = rules.classes[0]
        XCTAssertEqual(rule.renameTo, "ScaryCreatures2.ScaryCreatureData")
        XCTAssertEqual(rule.keys.map(\.key), ["Rating", "Name", "Obsolete"])
        XCTAssertEqual(rule.keys[0].box, true)
        XCTAssertEqual(rule.keys[1].renameTo, "Title")
        XCTAssertTrue(rule.keys[2].remove)
        XCTAssertTrue(rules.boxPrimitives)
        XCTAssertEqual(rules.allowedClasses, ["ScaryCreatures2.ScaryCreatureData"])
        // The rule matches the class before and after its rename.
        XCTAssertNotNil(rules.rule(for: ClassName(archived: "ScaryCreatures.ScaryCreatureData")))
        XCTAssertNotNil(rules.rule(for: ClassName(archived: "ScaryCreatures2.ScaryCreatureData")))
        XCTAssertNil(rules.rule(for: ClassName(archived: "Other")))
    }

    func testDefaultsAndMangledNames() throws {
        let rules = try parse(#"{"classes": {"MusicBox.CPU.CPUCoder": {"renameTo": "Hardware.CPUCoder"}}}"#)
        XCTAssertTrue(rules.boxPrimitives)
        XCTAssertEqual(rules.allowedClasses, [])
        XCTAssertNotNil(rules.rule(for: ClassName(archived: "_TtCV8MusicBox3CPU8CPUCoder")), "a readable name matches the mangled one")
        let mangled = try parse(#"{"classes": {"_TtCV8MusicBox3CPU8CPUCoder": {"renameTo": "X"}}}"#)
        XCTAssertNotNil(mangled.rule(for: ClassName(archived: "MusicBox.CPU.CPUCoder")))
        XCTAssertEqual(try parse("{}"), MigrationRules())
    }

    func testMistakesAreLocated() {
        assertError(#"{"clases": {}}"#, #"clases: unknown field "clases"; expected classes, boxPrimitives, allowedClasses or typeKey"#)
        assertError(#"{"classes": {"A": {"rename": "B"}}}"#, #"classes.A.rename: unknown field "rename"; expected renameTo, keys, unwrap or typeName"#)
        assertError(#"{"classes": {"A": {"keys": {"k": {"bx": true}}}}}"#, #"classes.A.keys.k.bx: unknown field "bx"; expected renameTo, box, remove or required"#)
        assertError(#"{"boxPrimitives": "yes"}"#, "boxPrimitives: is a string, not true or false")
        assertError(#"{"allowedClasses": "A"}"#, "allowedClasses: is a string, not an array of class names")
        assertError(#"{"allowedClasses": ["A", 3]}"#, "allowedClasses[1]: is an integer, not a name")
        assertError(#"{"classes": {"A": {"renameTo": ""}}}"#, "classes.A.renameTo: is empty")
        assertError(#"{"classes": {"A": {}}}"#, "classes.A: says nothing to do: give renameTo, keys, unwrap or typeName")
        assertError(#"{"classes": {"A": {"keys": {"k": {"remove": true, "box": true}}}}}"#, "classes.A.keys.k: remove cannot be combined with renameTo, box or required")
        assertError(#"{"classes": {"A": {"keys": {"a": {"renameTo": "c"}, "b": {"renameTo": "c"}}}}}"#,
                    #"classes.A.keys.b.renameTo: "c" is also the name of key "a" after migration"#)
        assertError(#"{"classes": {"MusicBox.CPU.CPUCoder": {"renameTo": "X"}, "_TtCV8MusicBox3CPU8CPUCoder": {"renameTo": "Y"}}}"#,
                    #"classes._TtCV8MusicBox3CPU8CPUCoder: names the same class as "MusicBox.CPU.CPUCoder""#)
        assertError("[1]", "is an array, not an object")
        XCTAssertThrowsError(try parse("{\"classes\": "), "broken JSON is a syntax error") { error in
            XCTAssertEqual((error as? PlistError)?.kind, .syntax)
        }
    }

    /// Near misses: the same letters in another case first, else the closest
    /// name within a small edit distance; nothing far off.
    func testNearMisses() {
        XCTAssertEqual(NearMiss.best(for: "rating", among: ["Title", "Rating"]), "Rating")
        XCTAssertEqual(NearMiss.best(for: "Titel", among: ["Title", "Rating"]), "Title")
        XCTAssertEqual(NearMiss.best(for: "MusicBox.Computr", among: ["NSObject", "MusicBox.Computer", "MusicBox.CPUCore"]), "MusicBox.Computer")
        XCTAssertNil(NearMiss.best(for: "Unrelated", among: ["Title", "Rating"]))
        XCTAssertNil(NearMiss.best(for: "a", among: ["bcd"]))
        XCTAssertNil(NearMiss.best(for: String(repeating: "x", count: 10_000), among: [String(repeating: "x", count: 9_999)]), "long names are not compared")
        XCTAssertEqual(NearMiss.distance(Array("kitten"), Array("sitting")), 3)
        XCTAssertEqual(NearMiss.distance([], Array("abc")), 3)
        XCTAssertEqual(NearMiss.distance(Array("Titel"), Array("Title")), 1, "a swap of neighbours is one edit")
    }

    /// The census of a real archive (written by NSKeyedArchiver): its classes
    /// and keys decide which rules are errors and which are warnings.
    func testRulesCheckedAgainstAnArchive() throws {
        let archive = try PropertyList.read([UInt8](try Data(contentsOf: CodableExportTests.corpus.appendingPathComponent("archives/scary-creature-v1.plist")))).tree.value
        var census = RulesCensus()
        census.add(try PlistTree(archive))
        XCTAssertEqual(census.classNames.map(\.archived), ["ScaryCreatures.ScaryCreatureData", "NSObject"])
        let rules = try parse("""
            {"classes": {"ScaryCreatures.ScaryCreatureData": {"keys": {"Rating": {"box": true}, "rating": {"remove": true}}},
                         "Scary.Other": {"renameTo": "X"}}}
            """)
        XCTAssertEqual(RulesCensus().problems(of: rules), [], "no archive, nothing to check against")
        XCTAssertEqual(census.problems(of: rules), [
            RulesProblem(severity: .warning, path: #"classes."ScaryCreatures.ScaryCreatureData".keys.rating"#,
                         message: #"no ScaryCreatures.ScaryCreatureData object has a key "rating"; this rule does nothing (did you mean "Rating"?)"#),
            RulesProblem(severity: .error, path: #"classes."Scary.Other""#, message: "class Scary.Other occurs in none of the inputs"),
        ])
    }
}
