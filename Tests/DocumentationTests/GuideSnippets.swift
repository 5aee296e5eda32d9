import ArchivistArchive
import ArchivistCore
import Foundation
import XCTest

/// The Swift of the guide's library page (`docs/guide/library.md`), run on
/// the bundled corpus.
final class GuideSnippets: QuietTestCase {
    func corpus(_ path: String) -> [UInt8] {
        let url = ArticleSnippetTests.packageRoot.appendingPathComponent("Corpus/\(path)")
        return [UInt8](FileManager.default.contents(atPath: url.path) ?? Data())
    }

    func testLibraryPage() throws {
        let bytes = corpus("foundation/info-plist.bplist")
        let document = try PropertyList.read(bytes)                  // any format, detected from the content
        let tree = document.tree                                 // the compact tree every reader builds
        print(tree.rootNode["CFBundleIdentifier"]?.stringValue ?? "") // typed navigation, nil where the file differs
        let xml = try PropertyList.write(tree, as: .xml)             // Foundation's XML, byte for byte
        var settings = tree.value                                    // the editable form, for changes
        if case .dictionary(var entries) = settings {
            entries["CFBundleVersion"] = .string("43")
            settings = .dictionary(entries)
        }
        let json = try PropertyList.write(settings, as: .json)

        XCTAssertEqual(xml, [UInt8](try PropertyListSerialization.data(
            fromPropertyList: try PropertyListSerialization.propertyList(from: Data(bytes), format: nil),
            format: .xml, options: 0)))
        let fromJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        XCTAssertEqual(fromJSON["CFBundleVersion"] as? String, "43")
        XCTAssertEqual(fromJSON["CFBundleIdentifier"] as? String, "org.example.Archivist")

        let archiveBytes = corpus("archives/computer.plist")
        let archive = try PropertyList.read(archiveBytes).tree
        let graph = try ObjectGraph(archive)                         // objects, classes, fields
        print(try ArchiveDumper.render(graph))                       // what `archivist dump` prints
        XCTAssertTrue(try ArchiveDumper.render(graph).contains("MusicBox.Computer"))
    }

    struct Computer: Codable {
        struct CPU: Codable {
            var clock: Int
            var cores: [Core]
        }
        struct Core: Codable {
            var coreID: String
        }
        var name: String
        var cpu: CPU
    }

    struct Profile: Codable {
        var name: String
        var age: Int
    }

    func testCodegenPage() throws {
        let rulesJSON = String(decoding: corpus("rules/music-box.json"), as: UTF8.self)
        let archiveData = Data(corpus("archives/computer.plist"))
        let rules = try MigrationRules(bytes: Array(rulesJSON.utf8))
        let computer = try KeyedArchiveDecoder(rules: rules).decode(Computer.self, from: archiveData)
        XCTAssertEqual(computer.name, "Mac")
        XCTAssertEqual(computer.cpu.clock, 3200)
        XCTAssertEqual(computer.cpu.cores.map(\.coreID), ["A1B2", "C3D4"])

        let profile = Profile(name: "Ada", age: 36)
        var encoder = KeyedArchiveEncoder()
        encoder.classNames = ["Profile": "MyApp.Profile"]
        let bytes = try encoder.encode(profile, as: .binary)   // NSKeyedUnarchiver.unarchivedObject(ofClasses:from:) reads it
        let top = try PropertyList.read(bytes).tree.rootNode
        XCTAssertEqual(top["$archiver"]?.stringValue, "NSKeyedArchiver")
        let graph = try ObjectGraph(PropertyList.read(bytes).tree)
        XCTAssertTrue(try ArchiveDumper.render(graph).contains("MyApp.Profile"))
    }
}
