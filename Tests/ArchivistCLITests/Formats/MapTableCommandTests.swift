import ArchivistCore
import Foundation
import XCTest

/// NSMapTable shown as its entries. swift-corelibs-foundation cannot archive
/// an NSMapTable, so the archives are written by hand in the form macOS's
/// Foundation writes (`-[NSConcreteMapTable encodeWithCoder:]`): key options
/// in `$0`, value options in `$1`, each entry's key and value in turn from
/// `$2`, a `$null` after the last, and `NS.count`.
extension CLITests {
    /// A keyed archive whose root is an NSMapTable of `fields` (its `$class`
    /// added); `strings` follow it in `$objects` from index 2.
    static func mapTableArchive(_ fields: [(String, PlistValue)], strings: [String]) throws -> Data {
        let classIndex = UInt64(2 + strings.count)
        var objects: [PlistValue] = [.string("$null"), .dictionary(PlistDictionary(fields + [("$class", .uid(classIndex))]))]
        objects += strings.map { .string($0) }
        objects.append(.dictionary(PlistDictionary([("$classname", .string("NSMapTable")),
                                                    ("$classes", .array([.string("NSMapTable"), .string("NSObject")]))])))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .int(100000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        return Data(try PropertyList.write(archive, as: .binary))
    }

    /// Strong keys and values: "alpha" => "one", "beta" => "two".
    static let strongTable: [(String, PlistValue)] = [
        ("$0", .int(0)), ("$1", .int(0)), ("$2", .uid(2)), ("$3", .uid(3)), ("$4", .uid(4)), ("$5", .uid(5)), ("$6", .uid(0)), ("NS.count", .int(2)),
    ]

    func testMapTableShowsItsEntries() throws {
        let strings = ["alpha", "one", "beta", "two"]
        try Self.mapTableArchive(Self.strongTable, strings: strings).write(to: work.appendingPathComponent("table.plist"))
        // Foundation reads the archive as a property list (it is one).
        XCTAssertNotNil(try PropertyListSerialization.propertyList(from: try XCTUnwrap(contents("table.plist")), options: [], format: nil))
        let dump = try run(["dump", "table.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("root = NSMapTable {\n    \"alpha\" => \"one\"\n    \"beta\" => \"two\"\n  }\n"), dump.stdout)
        XCTAssertFalse(dump.stdout.contains("$0"), dump.stdout)
        let json = try run(["dump", "--json", "table.plist"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let root = ((try JSONSerialization.jsonObject(with: json.output) as? [String: Any])?["top"] as? [String: Any])?["root"] as? [String: Any]
        XCTAssertEqual(root?["class"] as? String, "NSMapTable")
        XCTAssertEqual(root?["entries"] as? [String: String], ["alpha": "one", "beta": "two"])
        let get = try run(["get", "table.plist", "root.beta"])
        XCTAssertEqual(get.stdout, "two\n", get.stderr)
        XCTAssertEqual(try run(["lint", "table.plist"]).stdout, "table.plist: OK\n")
    }

    /// Weak values archived conditionally are `$null` when nothing else holds
    /// them: Foundation's decoder leaves that entry out, and so does the view.
    /// An archive without `NS.count` (older systems) reads the same way.
    func testMapTableLeavesOutWeakEntriesAndReadsOlderArchives() throws {
        let weak: [(String, PlistValue)] = [
            ("$0", .int(0)), ("$1", .int(5)), ("$2", .uid(2)), ("$3", .uid(0)), ("$4", .uid(3)), ("$5", .uid(4)), ("$6", .uid(0)), ("NS.count", .int(2)),
        ]
        try Self.mapTableArchive(weak, strings: ["gone", "kept", "value"]).write(to: work.appendingPathComponent("weak.plist"))
        let dump = try run(["dump", "weak.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("root = NSMapTable {\n    \"kept\" => \"value\"\n  }\n"), dump.stdout)
        XCTAssertFalse(dump.stdout.contains("gone"), dump.stdout)

        let older = Array(Self.strongTable.dropLast())
        try Self.mapTableArchive(older, strings: ["alpha", "one", "beta", "two"]).write(to: work.appendingPathComponent("older.plist"))
        let olderDump = try run(["dump", "older.plist"])
        XCTAssertTrue(olderDump.stdout.contains("root = NSMapTable {\n    \"alpha\" => \"one\"\n    \"beta\" => \"two\"\n  }\n"), olderDump.stdout)
    }

    /// Any other shape stays a generic object, every field shown.
    func testMapTableOfAnotherShapeKeepsItsFields() throws {
        let shapes: [(name: String, fields: [(String, PlistValue)])] = [
            ("count.plist", Self.strongTable.dropLast() + [("NS.count", .int(3))]),
            ("unended.plist", Self.strongTable.filter { $0.0 != "$6" }),
            ("extra.plist", Self.strongTable + [("NS.extra", .int(1))]),
            ("options.plist", [("$0", .string("x"))] + Self.strongTable.dropFirst()),
        ]
        for shape in shapes {
            try Self.mapTableArchive(shape.fields, strings: ["alpha", "one", "beta", "two"]).write(to: work.appendingPathComponent(shape.name))
            let dump = try run(["dump", shape.name])
            XCTAssertEqual(dump.status, 0, "\(shape.name): \(dump.stderr)")
            XCTAssertTrue(dump.stdout.contains("root = NSMapTable {\n    $0 = "), "\(shape.name): \(dump.stdout)")
            XCTAssertTrue(dump.stdout.contains("\n    $2 = \"alpha\"\n"), "\(shape.name): \(dump.stdout)")
        }
    }
}
