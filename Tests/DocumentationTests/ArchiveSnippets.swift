import ArchivistArchive
import ArchivistCore
import Foundation
import XCTest

/// The code of "Inspecting and migrating keyed archives" and "Decoding archives
/// with KeyedArchiveDecoder", run on the scenario archives of `Corpus/archives`
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
}
