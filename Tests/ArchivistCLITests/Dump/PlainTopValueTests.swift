import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// Archives whose `$top` holds plain values beside UIDs, as NSKeyedArchiver
/// writes for a top-level `encodeBool(_:forKey:)` or `encodeInteger(_:forKey:)`
/// (compiled nibs, CKRecords, window restoration data): every command reads
/// them and shows the values; Foundation writes them and reads the results.
extension CLITests {
    /// An archive made by Foundation: a bool, an integer and an object in `$top`.
    private func plainTopArchive(flag: Bool = true, count: Int = 5, name: String = "top.plist", rootKey: String = "root") throws -> String {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(flag, forKey: "IB.flag")
        archiver.encode(count, forKey: "count")
        archiver.encode(NSArray(array: [NSString(string: "a"), NSString(string: "b")]), forKey: rootKey)
        archiver.finishEncoding()
        try archiver.encodedData.write(to: work.appendingPathComponent(name))
        return name
    }

    /// Foundation's reading of an archive's plain `$top` values and root.
    private func plainTopReads(_ name: String) throws -> (flag: Bool, count: Int, root: [String]?) {
        let data = try XCTUnwrap(contents(name))
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        let root = unarchiver.decodeObject(forKey: "root") as? [String]
        return (unarchiver.decodeBool(forKey: "IB.flag"), unarchiver.decodeInteger(forKey: "count"), root)
    }

    func testPlainTopFoundationWrites() throws {
        let file = try plainTopArchive()
        let top = try XCTUnwrap(PropertyList.read([UInt8](try XCTUnwrap(contents(file)))).tree.value.dictionaryValue?["$top"]?.dictionaryValue)
        XCTAssertEqual(top["IB.flag"], .bool(true))
        XCTAssertEqual(top["count"], .int(5))
        let read = try plainTopReads(file)
        XCTAssertEqual(read.flag, true)
        XCTAssertEqual(read.count, 5)
        XCTAssertEqual(read.root, ["a", "b"])
    }

    func testPlainTopEveryView() throws {
        let file = try plainTopArchive()
        let lint = try run(["lint", file])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout, "\(file): OK\n")

        let dump = try run(["dump", file])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("\n  IB.flag = true (inline bool)\n"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("\n  count = 5 (inline integer)\n"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("root = NSArray [\n    \"a\"\n    \"b\"\n  ]"), dump.stdout)

        let json = try run(["dump", "--json", file])
        XCTAssertEqual(json.status, 0, json.stderr)
        let view = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        let top = try XCTUnwrap(view["top"] as? [String: Any])
        XCTAssertEqual(top["IB.flag"] as? [String: Bool], ["inline": true])
        XCTAssertEqual(top["count"] as? [String: Int], ["inline": 5])
        XCTAssertEqual((top["root"] as? [String: Any])?["items"] as? [String], ["a", "b"])

        let dot = try run(["dump", "--format", "dot", file])
        XCTAssertEqual(dot.status, 0, dot.stderr)
        XCTAssertTrue(dot.stdout.contains("count = 5 (inline integer)"), dot.stdout)
        XCTAssertTrue(dot.stdout.contains("IB.flag = true (inline bool)"), dot.stdout)

        let classes = try run(["classes", file])
        XCTAssertEqual(classes.status, 0, classes.stderr)
        XCTAssertTrue(classes.stdout.contains("NSArray"), classes.stdout)

        let info = try run(["info", file])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("top keys: "), info.stdout)
        for key in ["IB.flag", "count", "root"] { XCTAssertTrue(info.stdout.contains(key), info.stdout) }

        let get = try run(["get", file, "count"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertEqual(get.stdout, "5\n")
        let flag = try run(["get", file, "IB\\.flag"])
        XCTAssertEqual(flag.status, 0, flag.stderr)
        XCTAssertEqual(flag.stdout, "true\n")

        let other = try plainTopArchive(count: 6, name: "other.plist")
        let diff = try run(["diff", file, other])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertTrue(diff.stdout.contains("count"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("5") && diff.stdout.contains("6"), diff.stdout)
        XCTAssertEqual(try run(["diff", file, try plainTopArchive(name: "same.plist")]).status, 0)
    }

    /// Migrated, set and converted archives keep the plain values where
    /// Foundation reads them.
    func testPlainTopMigrateSetCodable() throws {
        let file = try plainTopArchive()
        make("rules.json", #"{"classes": {}}"#)
        let migrated = try run(["migrate", file, "--rules", "rules.json", "-o", "migrated.plist"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let read = try plainTopReads("migrated.plist")
        XCTAssertEqual(read.flag, true)
        XCTAssertEqual(read.count, 5)
        XCTAssertEqual(read.root, ["a", "b"])

        let set = try run(["set", file, "count", "7", "--type", "integer", "-o", "set.plist"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(try plainTopReads("set.plist").count, 7)
        XCTAssertEqual(try plainTopReads("set.plist").root, ["a", "b"])

        // Without a root, as in a nib, the Codable export is every $top entry.
        let nib = try plainTopArchive(name: "nib.plist", rootKey: "IB.objectdata")
        let codable = try run(["convert", nib, "--to", "codable-json"])
        XCTAssertEqual(codable.status, 0, codable.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: codable.output) as? [String: Any], codable.stdout)
        XCTAssertEqual(object["IB.objectdata"] as? [String], ["a", "b"], codable.stdout)
        XCTAssertEqual(object["IB.flag"] as? Bool, true, codable.stdout)
        XCTAssertEqual(object["count"] as? Int, 5, codable.stdout)
        let schema = try run(["schema", nib])
        XCTAssertEqual(schema.status, 0, schema.stderr)
        XCTAssertTrue(schema.stdout.contains("count: Int"), schema.stdout)
        XCTAssertTrue(schema.stdout.contains("Bool"), schema.stdout)
        let codegen = try run(["codegen", nib, "--codable"])
        XCTAssertEqual(codegen.status, 0, codegen.stderr)
        for line in ["    var iBFlag: Bool\n", "    var count: Int\n", "        case iBFlag = \"IB.flag\"\n"] {
            XCTAssertTrue(codegen.stdout.contains(line), codegen.stdout)
        }
    }

    /// An archive with a plain `$top` nested in data is decoded, not shown as UIDs.
    func testPlainTopNestedInData() throws {
        let file = try plainTopArchive()
        let outer = try PropertyListSerialization.data(fromPropertyList: ["state": try XCTUnwrap(contents(file))], format: .xml, options: 0)
        try outer.write(to: work.appendingPathComponent("outer.plist"))
        let dump = try run(["dump", "outer.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("holding a keyed archive"), dump.stdout)
        XCTAssertFalse(dump.stdout.contains("UID("), dump.stdout)
    }
}

/// Real files (`../shared/real-world`, beside the clone as in CI) whose
/// archives hold plain `$top` values: Xcode window restoration data nested in
/// `.xcuserstate`, CloudKit `CKRecord`s in a Notes store.
extension CLITests {
    /// A file of `../shared/real-world`; skips the test when the folder is absent.
    private func realWorld(_ path: String) throws -> String {
        let url = TestPaths.realWorld.appendingPathComponent("\(path)")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: url.path), "no ../shared/real-world/\(path)")
        return url.path
    }

    /// Every valid keyed archive of the manifest lints, lists its classes and
    /// dumps with every nested archive decoded (no raw `UID(n)` left).
    func testPlainTopRealWorldArchives() throws {
        var checked = 0
        for row in try CorpusManifest.rowsOrSkip(at: TestPaths.realWorld) where row.valid && row.format.hasPrefix("keyed-archive") {
            let file = try realWorld(row.path)
            for command in ["lint", "classes", "info"] {
                let r = try run([command, file])
                XCTAssertEqual(r.status, 0, "\(command) \(row.path): \(r.stderr)")
            }
            let dump = try run(["dump", file])
            XCTAssertEqual(dump.status, 0, "\(row.path): \(dump.stderr)")
            XCTAssertFalse(dump.stdout.contains("UID("), row.path)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0)
        // Window restoration data nested in an .xcuserstate: its plain $top values shown.
        let state = try realWorld("xcodeproj-tuist/Fixtures/iOS/Project.xcodeproj/project.xcworkspace/xcuserdata/pepicrft.xcuserdatad/UserInterfaceState.xcuserstate")
        let dump = try run(["dump", state])
        XCTAssertTrue(dump.stdout.contains("holding a keyed archive {\n        NSWindowFrame = \"35 85 1400 834 0 0 1470 919 \"\n"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("\n        NSStyleMask = 32783 (inline integer)\n"), dump.stdout)
    }

    /// CloudKit records in a Notes store: every row dumps, lints and lists classes.
    func testPlainTopCloudKitStore() throws {
        let store = try realWorld("plaso/test_data/ios/NoteStore.sqlite")
        let where_ = ["--sqlite", store, "--table", "ZICCLOUDSYNCINGOBJECT", "--column", "ZSERVERRECORDDATA"]
        let dump = try run(["dump"] + where_)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("\n  HasUpdatedParentReference = false (inline bool)\n"), dump.stdout)
        XCTAssertEqual(try run(["dump", "--json"] + where_).status, 0)
        let lint = try run(["lint"] + where_)
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
        let classes = try run(["classes"] + where_)
        XCTAssertEqual(classes.status, 0, classes.stderr)
        XCTAssertTrue(classes.stdout.contains("CKRecordID"), classes.stdout)
    }
}
