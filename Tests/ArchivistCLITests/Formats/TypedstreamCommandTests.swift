import ArchivistTestSupport
import Foundation
import XCTest

/// NSArchiver typedstreams through the built binary: the real iMessage
/// store's `attributedBody` column, and a stream made byte by byte as a file
/// and inside `<data>`.
extension CLITests {
    /// `@` NSArray of an NSString "a" and an NSNumber 7 (as TypedstreamReaderTests makes it).
    static let typedstreamArray: [UInt8] = {
        func new(_ s: String) -> [UInt8] { [0x84, UInt8(s.utf8.count)] + Array(s.utf8) }
        return [4, 11] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
            + new("@") + [0x84, 0x84] + new("NSArray") + [0x00, 0x84] + new("NSObject") + [0x00, 0x85]
            + new("i") + [0x02]
            + [0x92, 0x84, 0x84] + new("NSString") + [0x01, 0x94] + new("+") + [0x01, UInt8(ascii: "a"), 0x86]
            + [0x92, 0x84, 0x84] + new("NSNumber") + [0x00, 0x84] + new("NSValue") + [0x00, 0x94]
            + new("*") + [0x84, 0x95] + [0x95, 0x07, 0x86]
            + [0x86]
    }()

    private var chatDB: String {
        get throws {
            let path = TestPaths.realWorld.appendingPathComponent("plaso/test_data/sqlite/imessage_chat.db").path
            guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("no ../shared/real-world") }
            return path
        }
    }

    func testDumpShowsTheTextOfEveryIMessage() throws {
        let db = try chatDB
        let r = try run(["dump", "--sqlite", db, "--table", "message", "--column", "attributedBody"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout.components(separatedBy: "\n").filter { $0.hasPrefix(db + ": message.attributedBody row ") }.count, 10)
        XCTAssertFalse(r.stdout.contains("UID("), r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("NSArchiver typedstream, ") }.count, 10)
        for text in [#"root = NSMutableAttributedString "Hey Kenneth, it's Eireanne! I was wondering"#,
                     #"root = NSMutableAttributedString "Yes, did you get it?" attributes NSDictionary @3 {"#,
                     #""__kIMMessagePartAttributeName" => 0"#,
                     #"get it hopefully get a wee deal " attributes NSDictionary"#,
                     // Several runs: each run's text with its dictionary, the
                     // product code's with its link, the last run's shared
                     // with the first.
                     #"Would really appreciate it! " runs ["#,
                     #"    "128874" NSDictionary @9 {"#,
                     #""__kIMLinkAttributeName" => URL "tel:128874""#,
                     #"Would really appreciate it! " -> @3"#] {
            XCTAssertTrue(r.stdout.contains(text), text)
        }
    }

    func testJSONClassesAndGetReadIMessageBodies() throws {
        let db = try chatDB
        let json = try run(["dump", "--json", "--sqlite", db, "--table", "message", "--column", "attributedBody", "--row", "9"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        let root = ((rows.first?["value"] as? [String: Any])?["top"] as? [String: Any])?["root"] as? [String: Any]
        XCTAssertEqual(root?["class"] as? String, "NSMutableAttributedString")
        XCTAssertEqual(root?["string"] as? String, "Yes, did you get it?")
        XCTAssertEqual((rows.first?["value"] as? [String: Any])?["archiver"] as? String, "NSArchiver")

        let classes = try run(["classes", "--sqlite", db, "--table", "message", "--column", "attributedBody"])
        XCTAssertEqual(classes.status, 0, classes.stderr)
        XCTAssertTrue(classes.stdout.hasPrefix("10\tNSMutableAttributedString\tFoundation\tNSMutableAttributedString < NSAttributedString < NSObject\n"), classes.stdout)
    }

    func testATypedstreamFileDumpsAndAnswersGet() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("a.typedstream").path, contents: Data(Self.typedstreamArray)))
        let dump = try run(["dump", "a.typedstream"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertEqual(dump.stdout, "NSArchiver typedstream, 5 entries in $objects, 1 object\n{\n  root = NSArray [\n    \"a\"\n    7\n  ]\n}\n")
        let get = try run(["get", "a.typedstream", "root.1"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertEqual(get.stdout, "7\n")
        let classes = try run(["classes", "a.typedstream"])
        XCTAssertEqual(classes.status, 0, classes.stderr)
        XCTAssertTrue(classes.stdout.contains("NSArray"), classes.stdout)
        // Converting is refused with what it is: a typedstream is read only.
        let convert = try run(["convert", "--to", "xml", "a.typedstream", "-o", "-"])
        XCTAssertNotEqual(convert.status, 0)
        XCTAssertTrue(convert.stderr.contains("NSArchiver typedstream"), convert.stderr)
    }

    func testATypedstreamInDataIsShownDecoded() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["body": Data(Self.typedstreamArray)], format: .binary, options: 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("Holder.plist").path, contents: data))
        let r = try run(["dump", "Holder.plist"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("holding an NSArchiver typedstream"), r.stdout)
        XCTAssertTrue(r.stdout.contains("root = NSArray ["), r.stdout)
        let get = try run(["get", "Holder.plist", "body.root.0"])
        XCTAssertEqual(get.stdout, "a\n", get.stderr)
    }

    /// `info`, `diff` and `lint` read a typedstream as the keyed archive it
    /// holds; a truncated one is an error naming where it ends.
    func testInfoDiffAndLintReadTypedstreams() throws {
        let bytes = Self.typedstreamArray
        // The same stream with the NSNumber 8 for 7 (its value is the third byte from the end).
        var other = bytes
        other[other.count - 3] = 8
        for (name, content) in [("a.typedstream", bytes), ("b.typedstream", other), ("cut.typedstream", Array(bytes.dropLast(6)))] {
            XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent(name).path, contents: Data(content)))
        }
        let info = try run(["info", "a.typedstream"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual(info.stdout, """
            a.typedstream
              format: typedstream, 104 bytes
              values: 20, depth: 5
              NSArchiver typedstream, top keys: root, 1 objects in 5 entries
                class NSArray: 1 (Foundation)
              secure coding: none in a typedstream (NSUnarchiver reads it, no secure decoder); lint --secure checks its objects as a keyed archive's: they pass with no allowlist

            """)
        let json = try run(["info", "--json", "a.typedstream"])
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])?.first)
        XCTAssertEqual(report["format"] as? String, "typedstream")
        XCTAssertNil(report["trailer"])
        XCTAssertEqual((report["archive"] as? [String: Any])?["archiver"] as? String, "NSArchiver")

        let same = try run(["diff", "a.typedstream", "a.typedstream"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(same.stdout, "")
        let diff = try run(["diff", "a.typedstream", "b.typedstream"])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertEqual(diff.stdout, "~ root.1: integer 7 -> integer 8\n")

        let lint = try run(["lint", "a.typedstream", "cut.typedstream"])
        XCTAssertEqual(lint.status, 1)
        XCTAssertEqual(lint.stdout, "a.typedstream: OK\ncut.typedstream: offset 98: error: typedstream: 1 bytes wanted, 0 left\n")
        let format = try run(["lint", "--require-format", "xml", "a.typedstream"])
        XCTAssertEqual(format.status, 1)
        XCTAssertEqual(format.stdout, "a.typedstream: error: the file is an NSArchiver typedstream; this check requires xml\n")
    }

    func testLintChecksEveryIMessageBody() throws {
        let db = try chatDB
        let r = try run(["lint", "--sqlite", db, "--table", "message", "--column", "attributedBody"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, (1...10).map { "\(db): message.attributedBody row \($0): OK\n" }.joined())
        let info = try run(["info", "--sqlite", db, "--table", "message", "--column", "attributedBody", "--row", "9"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("\n  format: typedstream, "), info.stdout)
        XCTAssertTrue(info.stdout.contains("\n    class NSMutableAttributedString: 1 (Foundation)\n"), info.stdout)
    }
}
