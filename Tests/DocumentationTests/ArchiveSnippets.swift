import ArchivistArchive
import ArchivistCore
import Foundation
import XCTest

/// The code of "Inspecting and migrating keyed archives", "Decoding archives
/// with KeyedArchiveDecoder" and "Editing property lists and archives", run on the scenario archives of `Corpus/archives`
/// (written by Foundation's NSKeyedArchiver).
final class ArchiveSnippets: QuietTestCase {
    func corpus(_ name: String) -> [UInt8] {
        let url = ArticleSnippetTests.packageRoot.appendingPathComponent("Corpus/archives/\(name)")
        return [UInt8](FileManager.default.contents(atPath: url.path) ?? Data())
    }

    func testInspectCheckAndMigrate() throws {
        let bytes = corpus("scary-creature-v1.plist")
        let document = try PropertyList.read(bytes)
        let tree = document.tree
        let graph = try ObjectGraph(tree)
        print(try ArchiveDumper.render(graph))
        XCTAssertTrue(try ArchiveDumper.render(graph).contains("ScaryCreatures.ScaryCreatureData"))

        let policy = SecurePolicy(allowing: ["ScaryCreatures.ScaryCreatureData"])
        for error in try SecureCodingCheck.errors(in: tree, policy: policy) {
            print(error.formatted(path: "Data.plist"))
        }
        let before = try SecureCodingCheck.errors(in: tree, policy: policy)
        XCTAssertEqual(before.count, 1, "the inline Rating")
        XCTAssertTrue(before.first?.message.contains("Rating") ?? false, "\(before)")

        let rules = try MigrationRules(bytes: Array("""
            {
              "classes": {
                "ScaryCreatures.ScaryCreatureData": {
                  "renameTo": "ScaryCreatures2.ScaryCreatureData",
                  "keys": { "Rating": { "box": true } }
                }
              },
              "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]
            }
            """.utf8))
        let outcome = try Migrator(rules: rules).migrate(tree)
        for line in outcome.report.lines { print(line) }
        let migrated = try PropertyList.write(outcome.tree, as: .binary)

        let inCode = MigrationRules(
            classes: [
                .init(name: "ScaryCreatures.ScaryCreatureData",
                      renameTo: "ScaryCreatures2.ScaryCreatureData",
                      keys: [.init(key: "Rating", box: true)]),
            ],
            allowedClasses: ["ScaryCreatures2.ScaryCreatureData"])

        XCTAssertEqual(inCode, rules, "rules in code equal the file's")
        XCTAssertEqual(try PropertyList.write(Migrator(rules: inCode).migrate(document.tree).tree, as: .binary), migrated)
        XCTAssertEqual(outcome.report.lines.count, 2, "\(outcome.report.lines)")
        let after = try PropertyList.read(migrated).tree
        XCTAssertEqual(try SecureCodingCheck.errors(in: after, policy: SecurePolicy(rules: rules)), [])
        // Foundation reads the migrated archive: the rating is an NSNumber now.
        let plist = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(migrated), format: nil) as? [String: Any])
        let objects = try XCTUnwrap(plist["$objects"] as? [Any])
        XCTAssertTrue(objects.contains { ($0 as? NSNumber)?.doubleValue == 3.5 }, "\(objects)")

        var codegen = SwiftCodegen(rules: rules)
        try codegen.add(tree)
        print(codegen.secureCodingSource)
        print(codegen.allowedClassesSource)

        XCTAssertTrue(codegen.secureCodingSource.contains("final class ScaryCreatureData: NSObject, NSSecureCoding {"), codegen.secureCodingSource)
        XCTAssertTrue(codegen.secureCodingSource.contains(#"coder.decodeObject(of: NSNumber.self, forKey: "Rating")?.floatValue"#))
        XCTAssertTrue(codegen.allowedClassesSource.contains("{ [ScaryCreatureData.self] }"), codegen.allowedClassesSource)

        var upgrade = UpgradeCodegen(rules: rules)
        try upgrade.add(tree)
        let source = try upgrade.source()
        print(source)

        XCTAssertTrue(source.contains("final class ScaryCreatureDataVersion1: NSObject, NSSecureCoding {"), source)
        XCTAssertTrue(source.contains("func upgradeArchive(_ data: Data) throws -> Data {"), source)
    }

    struct CPUCore: Codable { var constant: Int; var coreID: String }
    struct CPU: Codable { var clock: Int; var constant: Int; var cores: [CPUCore] }
    struct Computer: Codable { var name: String; var cpu: CPU }

    func testDecodeIntoStructs() throws {
        let bytes = corpus("computer.plist")
        let rules = try MigrationRules(bytes: Array("""
            {
              "classes": {
                "MusicBox.Computer": { "keys": { "cpu_name": { "renameTo": "name" }, "cpu_coder": { "renameTo": "cpu" } } },
                "_TtCV8MusicBox3CPU8CPUCoder": { "renameTo": "MusicBox.CPU" }
              }
            }
            """.utf8))
        let computer = try KeyedArchiveDecoder(rules: rules).decode(Computer.self, from: bytes)
        print(computer.cpu.cores.count)

        XCTAssertEqual(computer.cpu.cores.map(\.coreID).count, 2)
        XCTAssertEqual(computer.cpu.cores[1].coreID, "C3D4")
        // The same struct decodes `convert --to codable-json`'s JSON with JSONDecoder.
        let json = try PropertyList.write(try CodableExport.value(PropertyList.read(bytes).tree, rules: rules), as: .json)
        let viaJSON = try JSONDecoder().decode(Computer.self, from: Data(json))
        XCTAssertEqual(viaJSON.name, computer.name)
        XCTAssertEqual(viaJSON.cpu.clock, computer.cpu.clock)
    }

    /// "Editing property lists and archives", by key path: scenario 3's
    /// preferences, a plain key and a field of the archive nested in them.
    func testEditByKeyPath() throws {
        let preferencesBytes = corpus("preferences-with-user.plist")
        let preferences = try PropertyList.read(preferencesBytes)
        var edited = try PlistEditor.apply(.set(.string("light")), at: PlistKeyPath("theme"), in: preferences.tree)
        edited = try PlistEditor.apply(.set(.string("ada@example.com")), at: PlistKeyPath("currentUser.root.email"),
                                       in: try PlistTree(edited))
        edited = try PlistEditor.apply(.remove, at: PlistKeyPath("launchCount"), in: try PlistTree(edited))
        let newBytes = try PropertyList.write(edited, as: preferences.format)

        XCTAssertEqual(preferences.format, .binary)
        XCTAssertEqual(Array(newBytes.prefix(8)), Array("bplist00".utf8), "the format is kept")
        // Foundation reads the result: the theme changed, launchCount is gone, and
        // the nested archive decodes with the new email beside the old name.
        let plist = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(newBytes), format: nil) as? [String: Any])
        XCTAssertEqual(plist["theme"] as? String, "light")
        XCTAssertNil(plist["launchCount"])
        let user = try XCTUnwrap(plist["currentUser"] as? Data)
        let archive = try XCTUnwrap(PropertyListSerialization.propertyList(from: user, format: nil) as? [String: Any])
        let strings = (archive["$objects"] as? [Any] ?? []).compactMap { $0 as? String }
        XCTAssertTrue(strings.contains("ada@example.com"), "\(strings)")
        XCTAssertTrue(strings.contains("Ada"), "\(strings)")
        guard case .node(let graph, let email) = try PlistKeyPath("currentUser.root.email").resolve(in: PropertyList.read(newBytes).tree) else {
            return XCTFail("no object at currentUser.root.email")
        }
        XCTAssertEqual(graph.nodes[email], .value(.string("ada@example.com")))
    }

    /// "Editing property lists and archives", in the object graph: scenario 1's
    /// document retitled, its rating boxed and its class renamed.
    func testEditTheObjectGraph() throws {
        let archiveBytes = corpus("scary-creature-v1.plist")
        let document = try PropertyList.read(archiveBytes)
        guard case .node(var graph, let root) = try PlistKeyPath("root").resolve(in: document.tree) else {
            throw PlistError(.archive, "the archive has no root object")
        }
        let title = graph.append(.value(.string("Scarier Bug")))
        try graph.setField("Title", to: .reference(title), inObject: root)
        graph.boxInlinePrimitive("Rating", inObject: root)
        graph.renameClass("ScaryCreatures.ScaryCreatureData", to: "ScaryCreatures2.ScaryCreatureData")
        let archived = try PropertyList.write(GraphWriter.archive(graph), as: .binary)

        // Foundation reads the archive: one object of the new class, the new title,
        // the rating an NSNumber, the old title left out.
        let plist = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(archived), format: nil) as? [String: Any])
        let objects = try XCTUnwrap(plist["$objects"] as? [Any])
        let strings = objects.compactMap { $0 as? String }
        XCTAssertTrue(strings.contains("Scarier Bug"), "\(objects)")
        XCTAssertFalse(strings.contains("Scary Bug"), "\(objects)")
        XCTAssertTrue(objects.contains { ($0 as? NSNumber)?.doubleValue == 3.5 }, "\(objects)")
        let classNames = objects.compactMap { ($0 as? [String: Any])?["$classname"] as? String }
        XCTAssertEqual(classNames, ["ScaryCreatures2.ScaryCreatureData"])
        let rules = MigrationRules(allowedClasses: ["ScaryCreatures2.ScaryCreatureData"])
        XCTAssertEqual(try SecureCodingCheck.errors(in: PropertyList.read(archived).tree, policy: SecurePolicy(rules: rules)), [])
    }
}
