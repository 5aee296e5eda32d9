import ArchivistTestSupport
import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// Rules files and allowlists naming thousands of classes are checked in
/// linear work (each class was compared with every rule: 8,000 classes took
/// seconds, 32,000 minutes).
final class LinearRulesTests: XCTestCase {
    /// The indexes answer as a scan with `ClassName.matches` does, mangled and
    /// readable spellings alike.
    func testClassIndexesAgreeWithMatches() {
        let names = ["_TtC8MusicBox8Computer", "Plain", "MusicBox.Computer", "_TtCV8MusicBox3CPU8CPUCoder",
                     "MusicBox.CPU.CPUCoder", "_TtC8MusicBox8Computr", "Plain", "NSObject", "_Tt"]
        let index = ClassNameIndex(names)
        var archived = ArchivedClassIndex()
        for (i, name) in names.enumerated() { archived.insert(ClassName(archived: name), at: i) }
        for name in names + ["Other", "MusicBox.CPU"] {
            let c = ClassName(archived: name)
            XCTAssertEqual(index.first(matching: c), names.firstIndex { c.matches($0) }, name)
            XCTAssertEqual(index.contains(c), names.contains { c.matches($0) }, name)
            XCTAssertEqual(archived.positions(matching: name), names.indices.filter { ClassName(archived: names[$0]).matches(name) }, name)
            XCTAssertEqual(archived.contains(name), names.contains { ClassName(archived: $0).matches(name) }, name)
        }
    }

    /// Reading rules for 3,000 classes, checking them against an archive of
    /// those classes, and finding each class's rule and allowance demangles a
    /// bounded number of names per class (a scan demangled millions).
    func testThousandsOfClassesTakeLinearWork() throws {
        let n = 3_000
        var classes: [(String, PlistValue)] = []
        for i in 0..<n { classes.append(("Mod.C\(i)", .dictionary(PlistDictionary([("renameTo", .string("New.C\(i)"))])))) }
        let rulesValue = PlistValue.dictionary(PlistDictionary([
            ("classes", .dictionary(PlistDictionary(classes))),
            ("allowedClasses", .array((0..<n).map { .string("New.C\($0)") })),
        ]))
        let archive = Self.archive(classes: (0..<n).map { "Mod.C\($0)" })
        let counter = WorkCounter()
        try WorkCounter.$current.withValue(counter) {
            let rules = try MigrationRules(value: rulesValue)
            var census = RulesCensus()
            census.add(try PlistTree(archive))
            XCTAssertEqual(census.classNames.count, n + 2)
            XCTAssertEqual(census.problems(of: rules), [])
            let policy = SecurePolicy(rules: rules)
            for i in 0..<n {
                XCTAssertEqual(rules.rule(for: ClassName(archived: "Mod.C\(i)"))?.renameTo, "New.C\(i)")
                XCTAssertTrue(policy.allows(ClassName(archived: "New.C\(i)"), chain: ["New.C\(i)", "NSObject"]))
                XCTAssertFalse(policy.allows(ClassName(archived: "Mod.C\(i)"), chain: ["Mod.C\(i)", "NSObject"]))
            }
        }
        XCTAssertLessThanOrEqual(counter.count(of: .demangle), 40 * n)
    }

    /// Key rules are found by archived or new name as a scan finds them (the
    /// first in file order), and a rename clash among thousands of keys is
    /// still found, naming the first key it clashes with.
    func testKeyRulesAreFoundByName() throws {
        let n = 5_000
        var keys: [(String, PlistValue)] = []
        for i in 0..<n { keys.append(("k\(i)", .dictionary(PlistDictionary([("renameTo", .string("n\(i)"))])))) }
        keys.append(("kept", .dictionary(PlistDictionary([("box", .bool(true))]))))
        keys.append(("n7", .dictionary(PlistDictionary([("remove", .bool(true))]))))
        func rules(_ keys: [(String, PlistValue)]) throws -> MigrationRules {
            let classBody = PlistValue.dictionary(PlistDictionary([("keys", .dictionary(PlistDictionary(keys)))]))
            let classes = PlistValue.dictionary(PlistDictionary([("A", classBody)]))
            return try MigrationRules(value: .dictionary(PlistDictionary([("classes", classes)])))
        }
        let rule = try XCTUnwrap(try rules(keys).classes.first)
        for name in ["k0", "n0", "k4999", "n4999", "kept", "n7", "k7", "absent"] {
            XCTAssertEqual(rule.key(name), rule.keys.first { $0.matches(name) }, name)
            XCTAssertEqual(rule.key(archivedAs: name), rule.keys.first { $0.key == name }, name)
        }
        XCTAssertEqual(rule.key("n7")?.key, "k7", "the rename comes first in the file")
        XCTAssertThrowsError(try rules(keys + [("last", .dictionary(PlistDictionary([("renameTo", .string("kept"))])))])) { error in
            XCTAssertEqual((error as? PlistError)?.message, #"classes.A.keys.last.renameTo: "kept" is also the name of key "kept" after migration"#)
        }
        XCTAssertThrowsError(try rules(keys + [("last", .dictionary(PlistDictionary([("renameTo", .string("n4000"))])))])) { error in
            XCTAssertEqual((error as? PlistError)?.message, #"classes.A.keys.last.renameTo: "n4000" is also the name of key "k4000" after migration"#)
        }
        XCTAssertNoThrow(try rules(keys + [("last", .dictionary(PlistDictionary([("renameTo", .string("n7x"))])))]))
    }

    /// Near misses of many names share one budget of comparisons: past it,
    /// names get no hint rather than costing more.
    func testNearMissesShareABoundedBudget() {
        let candidates = (0..<5_000).map { "Module.Class\($0)" }
        var finder = NearMiss.Finder(candidates, budget: 100_000)
        XCTAssertEqual(finder.best(for: "module.class7"), "Module.Class7", "same letters are found without comparing")
        var hints = 0
        for i in 0..<5_000 where finder.best(for: "Module.Clas\(i)x") != nil { hints += 1 }
        XCTAssertGreaterThanOrEqual(finder.cellsLeft, 0)
        XCTAssertLessThan(hints, 5_000)
        XCTAssertEqual(NearMiss.Finder(candidates).cellsLeft, NearMiss.Finder.defaultBudget)
    }

    /// An archive whose root object has one field per class, each holding an
    /// object of that class.
    static func archive(classes names: [String]) -> PlistValue {
        let n = names.count
        var objects: [PlistValue] = []
        var rootFields: [(String, PlistValue)] = [("$class", .uid(UInt64(2 + 2 * n)))]
        for i in 0..<n { rootFields.append(("f\(i)", .uid(UInt64(2 + i)))) }
        objects.append(.dictionary(PlistDictionary(rootFields)))
        for i in 0..<n { objects.append(.dictionary(PlistDictionary([("$class", .uid(UInt64(2 + n + i)))]))) }
        objects += (names + ["Root"]).map { ArchiveBuilder.classEntry($0) }
        return ArchiveBuilder.archive(objects)
    }
}
