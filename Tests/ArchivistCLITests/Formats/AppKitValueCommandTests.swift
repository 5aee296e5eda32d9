import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// AppKit's value classes (NSColor, NSFont, named images, NSHashTable) shown
/// as values by `dump`, `dump --json`, `get` and `--to codable-json`. The
/// archive is built by hand in the form AppKit writes (Foundation on Linux has
/// no AppKit); the forms are those of the real nibs in `../shared/real-world/sparkle`.
extension CLITests {
    /// `$top.root`: a dictionary of a component colour, a catalog colour (its
    /// fallback the first colour), a font, a named image and a weak hash table of the font.
    private func appKitArchive() throws -> String {
        let entries: [(String, Int)] = [("rgb", 7), ("catalog", 8), ("font", 9), ("image", 10), ("table", 11)]
        var objects: [PlistValue] = [.string("$null")]
        func cls(_ n: UInt64) -> (String, PlistValue) { ("$class", .uid(n)) }
        objects.append(.dictionary(PlistDictionary([cls(12), ("NS.keys", .array((2...6).map { .uid($0) })), ("NS.objects", .array(entries.map { .uid(UInt64($0.1)) }))])))
        for (key, _) in entries { objects.append(.string(key)) }
        objects += [
            .dictionary(PlistDictionary([cls(13), ("NSColorSpace", .int(1)), ("NSRGB", .data(Array("0.2 0.4 0.6\0".utf8)))])),
            .dictionary(PlistDictionary([cls(13), ("NSCatalogName", .string("System")), ("NSColorName", .string("controlColor")), ("NSColorSpace", .int(6)), ("NSColor", .uid(7))])),
            .dictionary(PlistDictionary([cls(14), ("NSName", .string("LucidaGrande")), ("NSSize", .double(13)), ("NSfFlags", .int(1044))])),
            .dictionary(PlistDictionary([cls(15), ("NSClassName", .string("NSImage")), ("NSResourceName", .string("NSSwitch"))])),
            .dictionary(PlistDictionary([cls(16), ("$0", .int(5)), ("$1", .uid(9)), ("$2", .uid(0))])),
        ]
        for name in ["NSDictionary", "NSColor", "NSFont", "NSCustomResource", "NSHashTable"] {
            objects.append(.dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))])))
        }
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .int(100000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        try Data(try PropertyList.write(archive, as: .binary)).write(to: work.appendingPathComponent("appkit.nib"))
        return "appkit.nib"
    }

    func testAppKitValuesInEveryView() throws {
        let file = try appKitArchive()
        let dump = try run(["dump", file])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        for line in [#""rgb" => NSColor(calibratedRGB 0.2 0.4 0.6 1)"#, #""catalog" => NSColor(catalog System/controlColor)"#,
                     #""font" => NSFont("LucidaGrande" 13) @9"#, #""image" => NSImage(named "NSSwitch")"#,
                     "\"table\" => NSHashTable [\n      -> @9\n    ]"] {
            XCTAssertTrue(dump.stdout.contains(line), "\(line)\n\(dump.stdout)")
        }
        XCTAssertFalse(dump.stdout.contains("NSRGB"), dump.stdout)

        let json = try run(["dump", "--json", file])
        XCTAssertEqual(json.status, 0, json.stderr)
        let view = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        let root = try XCTUnwrap(((view["top"] as? [String: Any])?["root"] as? [String: Any])?["entries"] as? [String: Any])
        let rgb = try XCTUnwrap(root["rgb"] as? [String: Any])
        XCTAssertEqual(rgb["value"] as? String, "NSColor(calibratedRGB 0.2 0.4 0.6 1)")
        XCTAssertEqual((rgb["color"] as? [String: Any])?["space"] as? String, "calibratedRGB")
        XCTAssertEqual((rgb["color"] as? [String: Any])?["components"] as? [Double], [0.2, 0.4, 0.6, 1])
        XCTAssertEqual(((root["font"] as? [String: Any])?["font"] as? [String: Any])?["size"] as? Double, 13)
        XCTAssertEqual(((root["catalog"] as? [String: Any])?["color"] as? [String: String]), ["catalog": "System", "name": "controlColor"])

        let get = try run(["get", file, "root.catalog"])
        XCTAssertEqual(get.stdout, "NSColor(catalog System/controlColor)\n", get.stderr)
        let field = try run(["get", file, "root.catalog.NSColorName"])
        XCTAssertEqual(field.stdout, "controlColor\n", field.stderr)
        let member = try run(["get", file, "root.table.0"])
        XCTAssertEqual(member.stdout, "NSFont(\"LucidaGrande\" 13)\n", member.stderr)

        let codable = try run(["convert", file, "--to", "codable-json"])
        XCTAssertEqual(codable.status, 0, codable.stderr)
        let tree = try XCTUnwrap(try JSONSerialization.jsonObject(with: codable.output) as? [String: Any])
        XCTAssertEqual(tree["image"] as? String, "NSImage(named \"NSSwitch\")")
        XCTAssertEqual(tree["table"] as? [String], ["NSFont(\"LucidaGrande\" 13)"])
    }

    /// A Terminal profile's colour, `NSWhite = <data 2 bytes>` ("0\0") with its
    /// predefined colour space named by `NSID` in `NSCustomColorSpace`, is a
    /// colour in `dump`, `dump --json` and `get`.
    func testPredefinedSpaceColourInEveryView() throws {
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .int(100000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([
                .string("$null"),
                .dictionary(PlistDictionary([("NSColorSpace", .int(3)), ("NSWhite", .data([0x30, 0])), ("NSCustomColorSpace", .uid(2)), ("$class", .uid(3))])),
                .dictionary(PlistDictionary([("NSID", .int(9)), ("$class", .uid(4))])),
                .dictionary(PlistDictionary([("$classname", .string("NSColor")), ("$classes", .array([.string("NSColor"), .string("NSObject")]))])),
                .dictionary(PlistDictionary([("$classname", .string("NSColorSpace")), ("$classes", .array([.string("NSColorSpace"), .string("NSObject")]))])),
            ])),
        ]))
        try Data(try PropertyList.write(archive, as: .binary)).write(to: work.appendingPathComponent("colour.plist"))
        let dump = try run(["dump", "colour.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("NSColor(calibratedWhite 0 1)"), dump.stdout)
        XCTAssertFalse(dump.stdout.contains("NSWhite"), dump.stdout)
        let json = try run(["dump", "--json", "colour.plist"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("calibratedWhite"), json.stdout)
    }

    /// `classes` labels each class with its framework from the class catalogue.
    func testClassesLabelsFrameworks() throws {
        let file = try appKitArchive()
        let classes = try run(["classes", file])
        XCTAssertEqual(classes.status, 0, classes.stderr)
        let labels = Dictionary(classes.stdout.split(separator: "\n").map { line -> (String, String) in
            let columns = line.split(separator: "\t").map(String.init)
            return (columns[1], columns[2])
        }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(labels["NSDictionary"], "Foundation")
        XCTAssertEqual(labels["NSHashTable"], "Foundation")
        XCTAssertEqual(labels["NSColor"], "AppKit")
        XCTAssertEqual(labels["NSFont"], "AppKit")
        XCTAssertEqual(labels["NSCustomResource"], "AppKit")
        let nib = TestPaths.realWorld.appendingPathComponent("sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: nib), "no ../shared/real-world")
        let real = try run(["classes", nib])
        XCTAssertEqual(real.status, 0, real.stderr)
        XCTAssertTrue(real.stdout.contains("\tNSColor\tAppKit\t"), real.stdout)
        XCTAssertTrue(real.stdout.contains("\tNSWindowTemplate\tApple\t"), real.stdout)
        XCTAssertTrue(real.stdout.contains("\tNSTextFieldCell\tAppKit\t"), real.stdout)
    }

    /// A real compiled nib: its colours, fonts and images read as values.
    func testAppKitValuesInARealNib() throws {
        let nib = TestPaths.realWorld.appendingPathComponent("sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: nib), "no ../shared/real-world")
        let dump = try run(["dump", nib])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        for text in ["NSColor(catalog System/controlColor)", "NSColor(calibratedWhite 0 0.80000001)", #"NSFont("LucidaGrande" 13)"#, #"NSImage(named "NSApplicationIcon")"#] {
            XCTAssertTrue(dump.stdout.contains(text), text)
        }
        XCTAssertFalse(dump.stdout.contains("NSWhite = <data"), dump.stdout)
    }

    /// NSIndexSet and NSIndexPath as Foundation writes them (and reads back after `set`).
    func testIndexesInEveryView() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        let set = NSMutableIndexSet(indexesIn: NSRange(location: 0, length: 3))
        set.add(in: NSRange(location: 10, length: 2))
        archiver.encode(set, forKey: "set")
        archiver.encode(NSIndexPath(indexes: [1, 2, 300], length: 3), forKey: "path")
        archiver.encode(NSIndexSet(index: 4), forKey: "one")
        archiver.finishEncoding()
        try archiver.encodedData.write(to: work.appendingPathComponent("indexes.plist"))
        let dump = try run(["dump", "indexes.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        for line in ["set = NSMutableIndexSet [0..<3, 10..<12]", "path = NSIndexPath [1, 2, 300]", "one = NSIndexSet [4..<5]"] {
            XCTAssertTrue(dump.stdout.contains(line), "\(line)\n\(dump.stdout)")
        }
        let json = try run(["dump", "--json", "indexes.plist"])
        let view = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        XCTAssertEqual(((view["top"] as? [String: Any])?["set"] as? [String: Any])?["indexes"] as? [[Int]], [[0, 3], [10, 12]])
        let codable = try run(["convert", "indexes.plist", "--to", "codable-json"])
        let tree = try XCTUnwrap(try JSONSerialization.jsonObject(with: codable.output) as? [String: Any])
        XCTAssertEqual(tree["path"] as? [Int], [1, 2, 300])
        // The fields stay reachable: set one, and Foundation reads the result.
        let edit = try run(["set", "indexes.plist", "one.NSLength", "3", "--type", "integer"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        XCTAssertEqual(try run(["get", "indexes.plist", "one"]).stdout, "NSIndexSet [4..<7]\n")
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try XCTUnwrap(contents("indexes.plist")))
        unarchiver.requiresSecureCoding = false
        XCTAssertEqual((unarchiver.decodeObject(forKey: "one") as? NSIndexSet).map { Array($0) }, [4, 5, 6])
    }

    /// Xcode's UserInterfaceState: its NSIndexPath and NSIndexSet read as indexes.
    func testIndexesInARealXcuserstate() throws {
        let file = TestPaths.realWorld.appendingPathComponent(
            "xcodeproj-tuist/Fixtures/iOS/Project.xcodeproj/project.xcworkspace/xcuserdata/pepicrft.xcuserdatad/UserInterfaceState.xcuserstate").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: file), "no ../shared/real-world")
        let dump = try run(["dump", file])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("NSIndexSet [0..<3]"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("NSIndexPath [0]"), dump.stdout)
    }
}
