import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// The classes read into one line (nib connectors, names, CloudKit record
/// IDs) or captioned by one (cells, menu items), through the built binary:
/// `dump`, `dump --json`, `get` and `classes` on the real sparkle nibs and
/// iOS Notes' store, and a name Foundation archives.
extension CLITests {
    private func realFile(_ path: String) throws -> String {
        let file = TestPaths.realWorld.appendingPathComponent(path).path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: file), "no ../shared/real-world")
        return file
    }

    /// A nib's connectors are one line each in `dump`, with their targets'
    /// object numbers; `dump --json` gives their parts; `get` shows the line
    /// and still reaches the archived fields; `classes` labels them AppKit.
    func testNibConnectorsInEveryView() throws {
        let nib = try realFile("sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib")
        let dump = try run(["dump", nib])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        for line in ["NSNibOutletConnector @144 outlet delegate -> @2 (NSCustomObject) from @65 (NSWindowTemplate)\n",
                     "NSNibControlConnector @151 action installUpdate: -> @2 (NSCustomObject) from @110 (NSButton)\n",
                     "NSNibBindingConnector @183 binding value -> @2 (NSCustomObject) keyPath \"titleText\" from @87 (NSTextField)\n",
                     "keyPath \"showsReleaseNotes\" from @92 (NSTextField) options NSDictionary {\n",
                     "NSButtonCell @112 \"Install Update\" key \"\\r\" {\n", "NSTextFieldCell @94 \"Release Notes:\" {\n"] {
            XCTAssertTrue(dump.stdout.contains(line), "\(line)\n\(dump.stdout)")
        }
        // The cells' fields still follow their captions.
        XCTAssertTrue(dump.stdout.contains("    NSContents = \"Install Update\"\n"), dump.stdout)
        XCTAssertFalse(dump.stdout.contains("NSLabel = \"delegate\""), dump.stdout)

        let json = try run(["dump", "--json", nib])
        XCTAssertEqual(json.status, 0, json.stderr)
        let connectors = Self.objects(in: try JSONSerialization.jsonObject(with: json.output), key: "connector")
        // Each connector is shown once with its parts (later references are {"ref": N}): as many as `classes` counts.
        let counted = try run(["classes", nib]).stdout.split(separator: "\n").reduce(0) { sum, line in
            let columns = line.split(separator: "\t")
            return sum + (columns.count > 1 && columns[1].hasPrefix("NSNib") && columns[1].hasSuffix("Connector") ? Int(columns[0]) ?? 0 : 0)
        }
        XCTAssertEqual(connectors.count, counted)
        XCTAssertGreaterThan(counted, 10)
        let outlet = try XCTUnwrap(connectors.first { $0["label"] as? String == "delegate" })
        XCTAssertEqual(outlet["type"] as? String, "outlet")
        XCTAssertNotNil((outlet["destination"] as? [String: Any])?["ref"] ?? (outlet["destination"] as? [String: Any])?["id"], "\(outlet)")
        let cells = Self.objects(in: try JSONSerialization.jsonObject(with: json.output), key: "cell")
        XCTAssertTrue(cells.contains { $0["title"] as? String == "Install Update" }, "\(cells)")

        let get = try run(["get", nib, #"IB\.objectdata.NSConnections.4"#])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertTrue(get.stdout.hasPrefix("NSNibControlConnector "), get.stdout)
        XCTAssertTrue(get.stdout.contains(" -> "), get.stdout)
        let label = try run(["get", nib, #"IB\.objectdata.NSConnections.4.NSLabel"#])
        XCTAssertEqual(label.status, 0, label.stderr)
        XCTAssertTrue(get.stdout.contains("action \(label.stdout.dropLast()) -> "), "\(label.stdout)\n\(get.stdout)")
        let source = try run(["get", nib, #"IB\.objectdata.NSConnections.4.NSSource"#])
        XCTAssertEqual(source.status, 0, source.stderr)
        XCTAssertTrue(source.stdout.hasPrefix("NSButton"), source.stdout)

        let classes = try run(["classes", nib])
        XCTAssertEqual(classes.status, 0, classes.stderr)
        for name in ["NSNibOutletConnector", "NSNibControlConnector", "NSNibBindingConnector", "NSButtonCell", "NSTextFieldCell"] {
            XCTAssertTrue(classes.stdout.contains("\t\(name)\tAppKit\t"), "\(name)\n\(classes.stdout)")
        }
    }

    /// A menu's items are captioned by title, key equivalent, action and
    /// submenu; actions sent to the first responder say so.
    func testMenuItemsAndFirstResponderActions() throws {
        let nib = try realFile("sparkle/Test_Application/English.lproj/MainMenu.nib/keyedobjects.nib")
        let dump = try run(["dump", nib])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        for text in ["\"Minimize\" key ⌘ \"m\" {\n", "\"Paste and Match Style\" key ⌥⌘ \"V\" {\n",
                     "\"Window\" action submenuAction: submenu \"Window\" {\n", "\"\" separator disabled {\n",
                     "action print: -> first responder from ", "action orderFrontStandardAboutPanel: -> @2 (NSCustomObject) from "] {
            XCTAssertTrue(dump.stdout.contains(text), "\(text)\n\(dump.stdout)")
        }
        let classes = try run(["classes", nib])
        XCTAssertTrue(classes.stdout.contains("\tNSMenuItem\tAppKit\t"), classes.stdout)
        let json = try run(["dump", "--json", nib])
        let items = Self.objects(in: try JSONSerialization.jsonObject(with: json.output), key: "menuItem")
        XCTAssertTrue(items.contains { $0["title"] as? String == "Minimize" && $0["key"] as? String == "m" && $0["modifiers"] as? String == "⌘" }, "\(items)")
    }

    /// iOS Notes' CloudKit records: their record and zone IDs are one line
    /// each, labelled CloudKit, the shared zone shown once and numbered after.
    func testCloudKitRecordIDsInNoteStore() throws {
        let store = try realFile("plaso/test_data/ios/NoteStore.sqlite")
        let blobs = ["--sqlite", store, "--table", "ZICCLOUDSYNCINGOBJECT", "--column", "ZSERVERRECORDDATA"]
        let dump = try run(["dump"] + blobs)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("RecordID = CKRecordID \"TrashFolder-CloudKit\" zone CKRecordZoneID \"Notes\" owner \"__defaultOwner__\"\n"),
                      dump.stdout)
        XCTAssertTrue(dump.stdout.contains("CreatorUserRecordID = CKRecordID \"__defaultOwner__\" zone CKRecordZoneID @14 \"_defaultZone\" owner \"__defaultOwner__\"\n"),
                      dump.stdout)
        XCTAssertTrue(dump.stdout.contains("LastModifiedUserRecordID = CKRecordID \"__defaultOwner__\" zone @14 (CKRecordZoneID)\n"), dump.stdout)
        let classes = try run(["classes"] + blobs)
        XCTAssertEqual(classes.status, 0, classes.stderr)
        XCTAssertTrue(classes.stdout.contains("\tCKRecordID\tCloudKit\t"), classes.stdout)
        XCTAssertTrue(classes.stdout.contains("\tCKRecordZoneID\tCloudKit\t"), classes.stdout)
        let json = try run(["dump", "--json"] + blobs)
        XCTAssertEqual(json.status, 0, json.stderr)
        let ids = Self.objects(in: try JSONSerialization.jsonObject(with: json.output), key: "recordID")
        XCTAssertTrue(ids.contains { $0["recordName"] as? String == "TrashFolder-CloudKit" }, "\(ids.prefix(3))")
    }

    /// A person's name as Foundation archives it: one line in `dump`, its
    /// parts in `dump --json` and the Codable export, its fields under `get`.
    func testPersonNameComponentsInEveryView() throws {
        let name = NSPersonNameComponents()
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        let data = try NSKeyedArchiver.archivedData(withRootObject: name, requiringSecureCoding: false)
        try data.write(to: work.appendingPathComponent("name.plist"))
        let dump = try run(["dump", "name.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("root = NSPersonNameComponents given \"Ada\" family \"Lovelace\"\n"), dump.stdout)
        let get = try run(["get", "name.plist", "root.NS\\.familyName"])
        XCTAssertEqual(get.stdout, "Lovelace\n", get.stderr)
        let json = try run(["dump", "--json", "name.plist"])
        let parts = Self.objects(in: try JSONSerialization.jsonObject(with: json.output), key: "name")
        XCTAssertEqual(parts.first?["givenName"] as? String, "Ada", json.stdout)
        let codable = try run(["convert", "name.plist", "--to", "codable-json"])
        XCTAssertEqual(codable.status, 0, codable.stderr)
        let tree = try XCTUnwrap(try JSONSerialization.jsonObject(with: codable.output) as? [String: Any])
        XCTAssertEqual(tree["familyName"] as? String, "Lovelace", codable.stdout)
    }

    /// Every dictionary under `key` anywhere in a JSON value.
    static func objects(in value: Any, key: String) -> [[String: Any]] {
        var found: [[String: Any]] = []
        var stack: [Any] = [value]
        while let next = stack.popLast() {
            if let d = next as? [String: Any] {
                if let hit = d[key] as? [String: Any] { found.append(hit) }
                stack.append(contentsOf: d.values)
            } else if let a = next as? [Any] {
                stack.append(contentsOf: a)
            }
        }
        return found
    }
}
