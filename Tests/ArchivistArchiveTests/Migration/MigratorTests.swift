import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// The migration rules applied to graphs: nested archives, class chains,
/// clashes, framework classes, and inputs that hold no archive.
final class MigratorTests: XCTestCase {
    static let archives = TestPaths.archives

    func corpus(_ name: String) throws -> PlistTree {
        try PropertyList.read([UInt8](try Data(contentsOf: Self.archives.appendingPathComponent(name)))).tree
    }

    func migrator(_ json: String) throws -> Migrator {
        Migrator(rules: try MigrationRules(bytes: Array(json.utf8)))
    }

    /// Scenario 3: the archive inside the preferences file is migrated where it
    /// is, in its own format; the rest of the file stays as it was.
    func testNestedArchiveMigratedInPlace() throws {
        let prefs = try corpus("preferences-with-user.plist")
        let m = try migrator(#"{"classes": {"Prefs.User": {"renameTo": "Accounts.User"}}, "allowedClasses": ["Accounts.User"]}"#)
        XCTAssertTrue(m.classNames(in: prefs).contains { $0.archived == "Prefs.User" })
        let result = try m.migrate(prefs)
        XCTAssertEqual(result.report.archives, ["currentUser"])
        XCTAssertEqual(result.report.lines, [
            "in currentUser: box inline age of Prefs.User into an NSNumber (1 object)",
            "in currentUser: rename class Prefs.User -> Accounts.User (1 object)",
        ])
        guard case .dictionary(let before) = prefs.value, case .dictionary(let after) = result.tree.value else { return XCTFail() }
        XCTAssertEqual(before.map(\.0), after.map(\.0), "same keys in the same order")
        for (key, value) in before where key != "currentUser" { XCTAssertEqual(after[key], value, key) }
        guard case .data(let inner)? = after["currentUser"] else { return XCTFail("currentUser is no longer data") }
        XCTAssertTrue(inner.starts(with: Array("bplist00".utf8)), "the nested archive keeps its binary format")
        let graph = try ObjectGraph(try PropertyList.read(inner).tree)
        guard let user = graph.top.first.flatMap({ graph.object($0.object) }) else { return XCTFail() }
        XCTAssertEqual(user.className.archived, "Accounts.User")
        guard case .reference(let age)? = user["age"], case .value(.integer(let n)) = graph.nodes[age] else { return XCTFail("age not boxed") }
        XCTAssertEqual(n, PlistInteger(Int64(36)))
        // Migrating again finds nothing to do and leaves the tree alone.
        let again = try m.migrate(result.tree)
        XCTAssertTrue(again.report.isEmpty)
        XCTAssertEqual(again.tree.value, result.tree.value)
    }

    /// Shared references and the conditional back-reference of cycle.plist survive.
    func testSharedObjectsAndCyclesKept() throws {
        let tree = try corpus("cycle.plist")
        let before = try ObjectGraph(tree)
        let m = try migrator(#"{"classes": {"Tree.Node": {"renameTo": "Forest.Node", "keys": {"label": {"renameTo": "name"}}}}, "allowedClasses": ["Forest.Node"]}"#)
        let after = try ObjectGraph(try m.migrate(tree).tree)
        XCTAssertEqual(before.nodes.filter { if case .object = $0 { return true } else { return false } }.count,
                       after.nodes.filter { if case .object = $0 { return true } else { return false } }.count)
        let text = try ArchiveDumper.render(after)
        XCTAssertTrue(text.contains("root = Forest.Node @1"), text)
        XCTAssertTrue(text.contains("parent = -> @1"), text)
        XCTAssertTrue(text.contains("name = \"child\""), text)
        XCTAssertFalse(text.contains("label ="), text)
    }

    /// A renamed superclass is renamed in the chains of its subclasses too.
    func testClassChainsFollowRenames() throws {
        func cls(_ name: String, _ chain: [String]) -> PlistValue {
            .dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array(chain.map { .string($0) }))]))
        }
        let tree = try PlistTree(.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([
                .string("$null"),
                .dictionary(PlistDictionary([("n", .int(1)), ("$class", .uid(2))])),
                cls("App.Dog", ["App.Dog", "App.Animal", "NSObject"]),
            ])),
        ])))
        let m = try migrator(#"{"classes": {"App.Animal": {"renameTo": "Zoo.Animal"}}, "allowedClasses": ["Zoo.Animal"]}"#)
        XCTAssertTrue(m.classNames(in: tree).contains { $0.archived == "App.Animal" }, "chain classes count as present")
        let graph = try ObjectGraph(try m.migrate(tree).tree)
        XCTAssertEqual(graph.object(1)?.className.archived, "App.Dog")
        XCTAssertEqual(graph.object(1)?.classChain, ["App.Dog", "Zoo.Animal", "NSObject"])
        // Allowed through its superclass, as Foundation checks it.
        XCTAssertTrue(SecureCodingCheck.violations(in: graph, policy: m.policy).isEmpty)
    }

    func testRenameOntoAnExistingKeyIsAnError() throws {
        let m = try migrator(#"{"classes": {"Prefs.User": {"keys": {"name": {"renameTo": "email"}}}}, "allowedClasses": ["Prefs.User"]}"#)
        let prefs = try corpus("preferences-with-user.plist")
        XCTAssertThrowsError(try m.migrate(prefs)) { error in
            XCTAssertEqual((error as? PlistError)?.message, "the rules give Prefs.User two fields named email")
            guard case .archive(let object, let keyPath)? = (error as? PlistError)?.location else { return XCTFail("\(error)") }
            XCTAssertEqual(object, 1)
            XCTAssertEqual(keyPath, "currentUser.root.email")
        }
    }

    /// Foundation's own objects keep their inline fields (NSDate's NS.time).
    func testFrameworkObjectsAreLeftAlone() throws {
        let values = try corpus("foundation-classes.plist")
        let result = try migrator("{}").migrate(values)
        XCTAssertTrue(result.report.isEmpty, "\(result.report.lines)")
        XCTAssertTrue(SecurePolicy.isFrameworkClass(ClassName(archived: "UIColor")))
        XCTAssertTrue(SecurePolicy.isFrameworkClass(ClassName(archived: "NSValue")))
        XCTAssertFalse(SecurePolicy.isFrameworkClass(ClassName(archived: "NSfoo")))
        XCTAssertFalse(SecurePolicy.isFrameworkClass(ClassName(archived: "Prefs.User")))
    }

    func testInputWithoutArchivesIsAnError() throws {
        let plain = PlistValue.dictionary(PlistDictionary([("a", .int(1)), ("d", .data(Array("not a plist".utf8)))]))
        XCTAssertThrowsError(try migrator("{}").migrate(try PlistTree(plain))) { error in
            XCTAssertEqual((error as? PlistError)?.message, "not a keyed archive, and holds none in its data values")
            XCTAssertEqual((error as? PlistError)?.kind, .noArchive)
        }
    }

    func testBrokenNestedArchiveIsLocated() throws {
        let broken = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(9))]))), ("$objects", .array([.string("$null")])),
        ]))
        let outer = PlistValue.dictionary(PlistDictionary([("inner", .data(try PropertyList.write(broken, as: .binary)))]))
        XCTAssertThrowsError(try migrator("{}").migrate(try PlistTree(outer))) { error in
            guard case .archive(_, let keyPath)? = (error as? PlistError)?.location else { return XCTFail("\(error)") }
            XCTAssertTrue(keyPath.hasPrefix("inner.$top"), keyPath)
        }
    }

    /// A plain plist holding archives in data: only the data value that
    /// changed is replaced; every other node of the tree is the node read
    /// (nothing converted), so the untouched parts are byte-identical once
    /// written and read back, the archive the rules do not touch included.
    func testUntouchedPartsOfAPlistHoldingArchivesStayAsRead() throws {
        let user = try PropertyList.write(try corpus("preferences-with-user.plist"), as: .binary)
        let userArchive = try PropertyList.read(user).tree.rootNode["currentUser"]?.dataValue
        let other = try PropertyList.write(try corpus("cycle.plist"), as: .xml)
        let outer = PlistValue.dictionary(PlistDictionary([
            ("title", .string("settings")), ("user", .data(try XCTUnwrap(userArchive))), ("count", .int(3)),
            ("other", .data(other)), ("list", .array([.real(PlistReal(2.5)), .data(Array("not a plist".utf8)), .date(PlistDate(secondsSinceReferenceDate: 5))])),
        ]))
        let input = try PropertyList.read(try PropertyList.write(outer, as: .binary)).tree
        let m = try migrator(#"{"classes": {"Prefs.User": {"renameTo": "Accounts.User"}}, "allowedClasses": ["Accounts.User", "Tree.Node"]}"#)
        let result = try m.migrate(input)
        XCTAssertEqual(result.report.archives, ["user", "other"])
        XCTAssertEqual(result.tree.nodeCount, input.nodeCount, "no node added or rebuilt")
        let back = try PropertyList.read(try PropertyList.write(result.tree, as: .binary)).tree
        let before = input.rootNode, after = back.rootNode
        XCTAssertEqual(after.entries.map(\.key), before.entries.map(\.key), "same keys in the same order")
        for key in ["title", "count", "other", "list"] {
            XCTAssertEqual(after[key]?.value, before[key]?.value, key)
        }
        XCTAssertEqual(after["other"]?.dataValue, other, "the archive nothing changed in keeps its bytes")
        let migratedUser = try XCTUnwrap(after["user"]?.dataValue)
        XCTAssertNotEqual(migratedUser, userArchive)
        XCTAssertTrue(migratedUser.starts(with: Array("bplist00".utf8)), "written back in its own format")
        let graph = try ObjectGraph(try PropertyList.read(migratedUser).tree)
        XCTAssertEqual(graph.top.first.flatMap { graph.object($0.object) }?.className.archived, "Accounts.User")
    }

    /// An archive migrated at the top is written straight into a tree that
    /// holds every object of the input, only the renamed class changed.
    func testMigratedArchiveKeepsEveryObject() throws {
        let input = try corpus("cycle.plist")
        let m = try migrator(#"{"classes": {"Tree.Node": {"renameTo": "Forest.Node"}}, "allowedClasses": ["Forest.Node"]}"#)
        let result = try m.migrate(input)
        XCTAssertTrue(KeyedArchive.looksLikeArchive(result.tree))
        let before = try ObjectGraph(input), after = try ObjectGraph(result.tree)
        XCTAssertEqual(after.objectCount, before.objectCount)
        XCTAssertEqual(after.classCensus().map(\.name.archived).sorted(),
                       before.classCensus().map { $0.name.archived == "Tree.Node" ? "Forest.Node" : $0.name.archived }.sorted())
        XCTAssertEqual(try PlistDiff(input, result.tree).lines.filter { !$0.contains("class Tree.Node -> Forest.Node") }, [])
    }
}
