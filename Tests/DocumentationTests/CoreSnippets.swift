import ArchivistCore
import Foundation
import XCTest

/// The code of "Reading and writing property lists", run on the bundled corpus.
final class CoreSnippets: QuietTestCase {
    let bytes: [UInt8] = {
        let url = ArticleSnippetTests.packageRoot.appendingPathComponent("Corpus/foundation/info-plist.bplist")
        return [UInt8](FileManager.default.contents(atPath: url.path) ?? Data())
    }()

    func testReadInspectAndWrite() throws {
        let document = try PropertyList.read(bytes)
        print(document.format)                      // binary
        for warning in document.diagnostics {
            print(warning.formatted(path: "Info.plist", severity: "warning"))
        }
        XCTAssertEqual(document.format, .binary)

        guard let identifier = document.tree.rootNode["CFBundleIdentifier"]?.stringValue else {
            throw PlistError(.invalidValue, "no bundle identifier")
        }
        print(identifier)                           // org.example.Archivist
        XCTAssertEqual(identifier, "org.example.Archivist")

        var settings = PlistDictionary()
        settings["CFBundleIdentifier"] = .string(identifier)
        settings["LaunchCount"] = .int(12)
        settings["Ratio"] = .double(0.75)
        let xml = try PropertyList.write(.dictionary(settings), as: .xml)
        let json = try PropertyList.write(.dictionary(settings), as: .json, options: WriteOptions(pretty: true))

        // Foundation reads both back to the same values.
        for written in [xml, json] {
            let back = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try PropertyList.write(try PropertyList.read(written).tree.value, as: .json))) as? [String: Any])
            XCTAssertEqual(back["CFBundleIdentifier"] as? String, "org.example.Archivist")
            XCTAssertEqual(back["LaunchCount"] as? Int, 12)
            XCTAssertEqual(back["Ratio"] as? Double, 0.75)
        }
        let foundation = try PropertyListSerialization.propertyList(from: Data(xml), format: nil) as? [String: Any]
        XCTAssertEqual(foundation?["LaunchCount"] as? Int, 12)
    }

    func testCompactTree() throws {
        let tree = try PropertyList.read(bytes).tree
        let top = tree.rootNode
        print(top["CFBundleIdentifier"]?.stringValue ?? "")        // org.example.Archivist
        print(top["CFBundleURLTypes"]?[0]?["CFBundleURLSchemes"]?[0]?.stringValue ?? "")   // archivist
        for (key, value) in top.entries where value.kind == .string {
            print(key, value.stringValue ?? "")
        }
        let json = try PropertyList.write(tree, as: .json)

        XCTAssertEqual(top["CFBundleIdentifier"]?.stringValue, "org.example.Archivist")
        XCTAssertEqual(top["CFBundleURLTypes"]?[0]?["CFBundleURLSchemes"]?[0]?.stringValue, "archivist")
        // Foundation reads the JSON to what it reads from the binary file.
        let fromJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let fromFile = try XCTUnwrap(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        XCTAssertEqual(fromJSON["CFBundleIdentifier"] as? String, fromFile["CFBundleIdentifier"] as? String)
        XCTAssertEqual(Set(fromJSON.keys), Set(fromFile.keys))
    }

    func testErrorsSayWhere() throws {
        do {
            _ = try PropertyList.read(Array("<plist><dict><key>a</key></dict></plist>".utf8))
        } catch let error as PlistError {
            print(error.formatted(path: "Broken.plist"))
            // Broken.plist:1:41: error: key "a" has no value
        }
        XCTAssertThrowsError(try PropertyList.read(Array("<plist><dict><key>a</key></dict></plist>".utf8))) { error in
            let said = (error as? PlistError)?.formatted(path: "Broken.plist") ?? "\(error)"
            XCTAssertEqual(said, "Broken.plist:1:41: error: key \"a\" has no value")
        }

        var limits = Limits()
        limits.maxDepth = 64
        limits.maxInputSize = 1 << 20
        let small = try PropertyList.read(bytes, options: ReadOptions(limits: limits))
        XCTAssertEqual(small.format, .binary)

        limits.maxInputSize = 16
        XCTAssertThrowsError(try PropertyList.read(bytes, options: ReadOptions(limits: limits)))
    }
}
