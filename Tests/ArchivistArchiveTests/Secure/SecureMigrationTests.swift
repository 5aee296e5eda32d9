import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// Version-1 archives written by Foundation's NSKeyedArchiver, migrated by
/// Archivist, decode in Foundation's secure NSKeyedUnarchiver into the
/// version-2 classes with equal values; unmigrated, they do not.
final class SecureMigrationTests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = try makeScratchFolder("archivist-secure").url
    }

    func archive(_ root: Any) throws -> PlistTree {
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        return try PropertyList.read([UInt8](data)).tree
    }

    func rules(_ json: String) throws -> MigrationRules {
        try MigrationRules(bytes: Array(json.utf8))
    }

    func save(_ value: PlistTree, _ name: String) throws -> URL {
        let url = work.appendingPathComponent(name)
        try Data(try PropertyList.write(value, as: .binary)).write(to: url)
        return url
    }

    // MARK: Scenario 1

    func testScaryCreatureMigratesAndDecodesSecurely() throws {
        let v1Name = NSStringFromClass(ScaryCreatureDataV1.self)
        let v1 = try archive(ScaryCreatureDataV1(title: "Scary Bug", rating: 3.5))
        let migrator = Migrator(rules: try rules("""
            {"classes": {"\(v1Name)": {"renameTo": "ScaryCreatures2.ScaryCreatureData", "keys": {"Rating": {"box": true}}}},
             "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]}
            """))
        let result = try migrator.migrate(v1)
        XCTAssertEqual(result.report.lines, [
            "box inline Rating of \(v1Name) into an NSNumber (1 object)",
            "rename class \(v1Name) -> ScaryCreatures2.ScaryCreatureData (1 object)",
        ])
        let data = Data(try PropertyList.write(result.tree, as: .binary))
        let decoded = try SecureDecoding.decode(data, names: ["ScaryCreatures2.ScaryCreatureData": "ScaryCreatureData"]) as? ScaryCreatureDataV2
        XCTAssertEqual(decoded?.title, "Scary Bug")
        XCTAssertEqual(decoded?.rating, 3.5)
        XCTAssertTrue(SecureCodingCheck.violations(in: try ObjectGraph(result.tree), policy: migrator.policy).isEmpty)

        // The same decoder refuses the version-1 archive, even with its class
        // mapped to version 2: "Object 3.5 is not a reference".
        let unmigrated = try save(v1, "v1.plist")
        let mapped = try SecureDecoding.decodeInChild(unmigrated, names: [v1Name: "ScaryCreatureData"])
        XCTAssertNil(mapped.decoded, mapped.output)
        XCTAssertTrue(mapped.output.contains("is not a reference"), mapped.output)
        // Unmapped, its class is not allowed (Foundation on Linux may trap here).
        let unmapped = try SecureDecoding.decodeInChild(unmigrated, names: [:])
        XCTAssertNil(unmapped.decoded, unmapped.output)
        // The child harness does decode the migrated file, so the refusals above
        // are the archive's doing.
        let migrated = try SecureDecoding.decodeInChild(try save(result.tree, "v2.plist"),
                                                        names: ["ScaryCreatures2.ScaryCreatureData": "ScaryCreatureData"])
        XCTAssertEqual(migrated.decoded, "ScaryCreatureData(title: Scary Bug, rating: 3.5)", migrated.output)
    }

    // MARK: Every kind of field

    func testEveryKindOfFieldMigrates() throws {
        let owner = OwnerV1(name: "Ada", age: 36)
        let created = Date(timeIntervalSinceReferenceDate: 600_000_000.25)
        let inventory = InventoryV1(label: "Shelf", count: 12, price: 9.75, weight: 1.5, active: true, created: created,
                                    blob: Data([0, 1, 254, 255]), tags: ["a", "b", "c"], stock: ["bolts": 40, "nuts": 7], owner: owner)
        let v1 = try archive(inventory)
        let rules = try rules("""
            {"classes": {
               "\(NSStringFromClass(InventoryV1.self))": {"renameTo": "Shop.Inventory",
                  "keys": {"label": {"renameTo": "name"}, "legacyNote": {"remove": true}}},
               "\(NSStringFromClass(OwnerV1.self))": {"renameTo": "Shop.Person"}},
             "allowedClasses": ["Shop.Inventory", "Shop.Person"]}
            """)
        let result = try Migrator(rules: rules).migrate(v1)
        let graph = try ObjectGraph(result.tree)
        let people = graph.nodes.indices.filter { graph.object($0)?.className.archived == "Shop.Person" }
        XCTAssertEqual(people.count, 1, "the shared owner stays one object")
        let data = Data(try PropertyList.write(result.tree, as: .xml))
        let decoded = try SecureDecoding.decode(data, names: ["Shop.Inventory": "Inventory", "Shop.Person": "Person"]) as? InventoryV2
        let v2 = try XCTUnwrap(decoded)
        XCTAssertEqual(v2.name, "Shelf")
        XCTAssertEqual(v2.count, 12)
        XCTAssertEqual(v2.price, 9.75)
        XCTAssertEqual(v2.weight, 1.5)
        XCTAssertEqual(v2.active, true)
        XCTAssertEqual(v2.created, created)
        XCTAssertEqual(v2.blob, Data([0, 1, 254, 255]))
        XCTAssertEqual(v2.tags, ["a", "b", "c"])
        XCTAssertEqual(v2.stock, ["bolts": 40, "nuts": 7])
        XCTAssertEqual(v2.owner.name, "Ada")
        XCTAssertEqual(v2.owner.age, 36)
        XCTAssertTrue(v2.owner === v2.coOwner, "shared references stay shared")
        // Unmigrated, the secure decoder refuses it.
        let refused = try SecureDecoding.decodeInChild(try save(v1, "inventory-v1.plist"),
                                                       names: [NSStringFromClass(InventoryV1.self): "Inventory",
                                                               NSStringFromClass(OwnerV1.self): "Person"])
        XCTAssertNil(refused.decoded, refused.output)
    }

    // MARK: Cycles

    func testCyclesSurviveMigration() throws {
        let root = NodeV1(label: "root", level: 0)
        for name in ["left", "right"] {
            let child = NodeV1(label: name, level: 1)
            child.parent = root
            root.children.append(child)
        }
        let v1 = try archive(root)
        let nodeName = NSStringFromClass(NodeV1.self)
        let result = try Migrator(rules: try rules(#"{"classes": {"\#(nodeName)": {"renameTo": "Tree.Node"}}, "allowedClasses": ["Tree.Node"]}"#)).migrate(v1)
        let graph = try ObjectGraph(result.tree)
        guard let top = graph.top.first?.object else { return XCTFail("no root") }
        // Each child still points back at the root object.
        let children = graph.edges(of: top).filter { graph.object($0)?.className.archived == "Tree.Node" }
        let arrays = graph.edges(of: top).filter { graph.object($0)?.className.archived == "NSArray" }
        let childNodes = arrays.flatMap { graph.edges(of: $0) }
        XCTAssertTrue(children.isEmpty)
        XCTAssertEqual(childNodes.count, 2)
        for child in childNodes {
            guard case .reference(let parent)? = graph.object(child)?["parent"] else { return XCTFail("parent lost") }
            XCTAssertEqual(parent, top)
        }
        let data = Data(try PropertyList.write(result.tree, as: .binary))
        let decoded = try SecureDecoding.decode(data, names: ["Tree.Node": "Node"]) as? NodeV2
        XCTAssertEqual(decoded?.description, "Node(root, 0, parent: -, [Node(left, 1, parent: root, []), Node(right, 1, parent: root, [])])")
    }

    // MARK: Refusals

    func testResultThatWouldNotDecodeIsRefused() throws {
        let v1Name = NSStringFromClass(ScaryCreatureDataV1.self)
        let v1 = try archive(ScaryCreatureDataV1(title: "Bug", rating: 2))
        // Renamed but not allowed, and Rating explicitly left inline while the
        // new code reads it as an object.
        let migrator = Migrator(rules: try rules(#"{"classes": {"\#(v1Name)": {"renameTo": "New.Creature"}}, "boxPrimitives": false}"#))
        XCTAssertThrowsError(try migrator.migrate(v1)) { error in
            guard let refused = error as? MigrationRefused else { return XCTFail("\(error)") }
            XCTAssertEqual(refused.errors.map(\.description), [
                "$objects[1] (root): error: class New.Creature is not allowed by a secure decoder; add it to the allowed classes",
            ])
        }
        let strict = Migrator(rules: try rules(#"{"classes": {"\#(v1Name)": {"keys": {"Rating": {"box": false}}}}, "allowedClasses": ["\#(v1Name)"]}"#))
        // box: false means the new code reads Rating with decodeFloat: accepted.
        XCTAssertNoThrow(try strict.migrate(v1))
        let forgetful = Migrator(rules: try rules(#"{"boxPrimitives": false, "allowedClasses": ["\#(v1Name)"]}"#))
        XCTAssertNoThrow(try forgetful.migrate(v1), "boxPrimitives false accepts inline primitives")
        let policy = SecurePolicy(allowing: [v1Name])
        let violations = SecureCodingCheck.violations(in: try ObjectGraph(v1), policy: policy)
        XCTAssertEqual(violations.map(\.error.description), [
            "$objects[1] (root.Rating): error: Rating of \(v1Name) holds the real 2.0 (float) inline, which decodeObject(of:forKey:) cannot read; box it into an NSNumber",
        ])
    }
}
