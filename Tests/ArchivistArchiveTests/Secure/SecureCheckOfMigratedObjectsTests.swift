import ArchivistTestSupport
import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// The secure-coding check reads an object a class migration lies over from
/// the archive's tree, with the migration's renames, removals and boxes, and
/// finds what it finds in the object the migration makes.
final class SecureCheckOfMigratedObjectsTests: XCTestCase {
    /// An archive of two custom classes (one renamed, keys renamed, removed,
    /// boxed and left inline) checked against policies that refuse a class,
    /// a renamed class, and inline keys by their old and new names.
    func testMigratedObjectsGiveTheViolationsOfTheObjectsMade() throws {
        // $objects: $null, App.Item (UID 1), App.Owner (UID 2), then 40 items and their owners.
        var objects: [PlistValue] = [ArchiveBuilder.classEntry("App.Item"), ArchiveBuilder.classEntry("App.Owner")]
        let n = 40
        for i in 0..<n {
            objects.append(ArchiveBuilder.object([
                ("count", .int(Int64(i))), ("ratio", .real(PlistReal(Double(i) / 4))), ("flag", .bool(i % 2 == 0)),
                ("legacy", .int(7)), ("title", .string("item \(i)")),
                ("owner", .uid(UInt64(3 + n + i))),
                ("next", .uid(UInt64(i + 1 < n ? 4 + i : 3))),
            ], classAt: 1))
        }
        for i in 0..<n {
            objects.append(ArchiveBuilder.object([("age", .int(Int64(20 + i))), ("name", .string("owner \(i)"))], classAt: 2))
        }
        let tree = try PlistTree(ArchiveBuilder.archive(objects, top: [("root", .uid(3))]))
        let rules = try MigrationRules(bytes: Array("""
            {"boxPrimitives": true,
             "classes": {"App.Item": {"renameTo": "App.Item2",
                                      "keys": {"count": {"renameTo": "total", "box": false}, "legacy": {"remove": true},
                                               "flag": {"box": false}}},
                         "App.Owner": {"keys": {"age": {"box": false}}}},
             "allowedClasses": ["App.Item2", "App.Owner"]}
            """.utf8))
        let policies = [
            SecurePolicy(rules: rules),
            SecurePolicy(allowing: ["App.Item"]),
            SecurePolicy(allowing: ["App.Item2"]),
            SecurePolicy(allowing: ["App.Item2", "App.Owner"]),
        ]
        var lazy = try ObjectGraph(tree)
        guard let storage = lazy.nodes.storage else { return XCTFail("no storage") }
        for (c, info) in storage.classInfo {
            if let migration = ClassMigration(info.name, chain: info.chain, rules: rules) {
                XCTAssertTrue(lazy.nodes.migrate(class: c, migration, sharingBoxes: false))
            }
        }
        var boxed = 0
        for index in lazy.nodes.indices { boxed += lazy.nodes.box(object: index) }
        XCTAssertEqual(boxed, n)  // ratio of each item (count and flag stay inline), age never
        // The same objects, each made and stored as an edit: checked as objects.
        var made = lazy
        for index in made.nodes.indices where index < storage.objects.count {
            if case .object = made.nodes[index] { made.nodes[index] = made.nodes[index] }
        }
        XCTAssertNil(made.nodes.migratedObject(3))
        XCTAssertNotNil(lazy.nodes.migratedObject(3))
        var total = 0
        for policy in policies {
            let fromTree = SecureCodingCheck.violations(in: lazy, policy: policy)
            let fromObjects = SecureCodingCheck.violations(in: made, policy: policy)
            XCTAssertEqual(fromTree.map(\.error.message), fromObjects.map(\.error.message))
            XCTAssertEqual(fromTree.map(\.error.location), fromObjects.map(\.error.location))
            total += fromTree.count
        }
        XCTAssertGreaterThan(total, 4 * n)
        // The rules' own policy takes what they leave inline; another names
        // the renamed keys, never a removed or boxed one.
        XCTAssertTrue(SecureCodingCheck.violations(in: lazy, policy: policies[0]).isEmpty)
        let messages = SecureCodingCheck.violations(in: lazy, policy: policies[2]).map(\.error.message)
        XCTAssertEqual(messages.filter { $0.hasPrefix("total of App.Item2 holds") }.count, n)
        XCTAssertEqual(messages.filter { $0.hasPrefix("flag of App.Item2 holds") }.count, n)
        XCTAssertFalse(messages.contains { $0.contains("legacy") || $0.contains("ratio") || $0.hasPrefix("count") })
    }
}
