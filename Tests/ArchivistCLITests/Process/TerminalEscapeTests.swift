import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// Names from a file (classes, fields, keys, file names) cannot reach the
/// terminal as control sequences or forge lines: every text output escapes C0,
/// DEL and C1 as `dump` escapes strings (`\n`, `\u{1b}`, `\u{9b}`).
extension CLITests {
    /// ESC [2J clears the screen; ESC ] 52 writes the clipboard; U+009B is CSI.
    static let clearScreen = "\u{1b}[2J"
    static let clipboard = "\u{1b}]52;c;QUJD\u{07}"

    /// An archive whose class name, field name and string hold escape
    /// sequences, a C1 CSI and a newline.
    func makeHostileArchive(_ name: String) throws -> String {
        let className = "Evil\(Self.clearScreen)\u{9b}2JClass"
        let classDict = PlistValue.dictionary(PlistDictionary([
            ("$classname", .string(className)), ("$classes", .array([.string(className), .string("NSObject")])),
        ]))
        let object = PlistValue.dictionary(PlistDictionary([
            ("$class", .uid(2)), ("na\(Self.clipboard)me\nforged: line", .string("x\u{1b}")), ("count", .int(1)),
        ]))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)), ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([.string("$null"), object, classDict])),
        ]))
        try Data(try PropertyList.write(archive, as: .binary)).write(to: work.appendingPathComponent(name))
        return name
    }

    /// Fails when `text` holds a control character other than a line feed
    /// (and a tab, when `tabs`).
    func assertNoControls(_ text: String, tabs: Bool = false, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let bad = text.unicodeScalars.filter { s in
            (s.value < 0x20 || (0x7F...0x9F).contains(s.value)) && s != "\n" && !(tabs && s == "\t")
        }
        XCTAssertTrue(bad.isEmpty, "\(what) holds \(bad.map { String($0.value, radix: 16) }): \(text.debugDescription)", file: file, line: line)
    }

    func testArchiveNamesAreEscapedInEveryTextOutput() throws {
        let archive = try makeHostileArchive("evil.plist")
        make("other.json", "{}")
        let shownClass = #"Evil\u{1b}[2J\u{9b}2JClass"#
        let shownField = #"na\u{1b}]52;c;QUJD\u{7}me\nforged: line"#
        let commands: [[String]] = [
            ["dump", archive], ["dump", "--stable", archive], ["dump", "--key-path", "root", archive],
            ["classes", archive], ["info", archive], ["lint", "--secure", archive],
            ["get", archive, "root.missing"], ["diff", archive, "other.json"], ["schema", archive],
        ]
        for args in commands {
            let r = try run(args)
            assertNoControls(r.stdout, tabs: args[0] == "classes", "\(args) standard output")
            assertNoControls(r.stderr, "\(args) standard error")
        }
        // Rule warnings name classes from the rules file: escaped too.
        make("rules.json", #"{"classes": {"Typo\u001b]52;c;QUJD\u0007\u009b": {"renameTo": "X"}}}"#)
        for command in [["lint", "--secure"], ["migrate", "--dry-run"]] {
            let rules = try run(command + ["--rules", "rules.json", archive])
            XCTAssertEqual(rules.status, 64, "the rules name a class no input has")
            assertNoControls(rules.stdout, "\(command) --rules")
            assertNoControls(rules.stderr, "\(command) --rules errors")
            XCTAssertTrue(rules.stderr.hasPrefix(#"rules.json: error: classes.Typo\u{1b}]52;c;QUJD\u{7}\u{9b}: class Typo"#), rules.stderr)
        }
        // In colour, the dump's own SGR sequences are the only escapes.
        let painted = try run(["dump", "--color", "always", archive])
        XCTAssertTrue(painted.stdout.contains("\u{1b}["), "coloured")
        let unpainted = painted.stdout.replacingOccurrences(of: "\u{1b}\\[[0-9;]*m", with: "", options: .regularExpression)
        assertNoControls(unpainted, "dump --color always")
        XCTAssertTrue(unpainted.contains("  root = \(shownClass) {\n"), unpainted)
        let dump = try run(["dump", archive])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("  root = \(shownClass) {\n"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("    \(shownField) = \"x\\u{1b}\" (inline)\n"), dump.stdout)
        XCTAssertEqual(try run(["classes", archive]).stdout, "1\t\(shownClass)\tcustom\t\(shownClass) < NSObject\n")
        let secure = try run(["lint", "--secure", archive])
        XCTAssertTrue(secure.stdout.hasPrefix("evil.plist: $objects[1] (root): error: class \(shownClass) is not allowed"), secure.stdout)
        let get = try run(["get", archive, "root.missing"])
        XCTAssertEqual(get.status, 1)
        XCTAssertTrue(get.stderr.contains("\(shownClass) has no field \"missing\" (fields: \(shownField), count)"), get.stderr)
        XCTAssertTrue(try run(["info", archive]).stdout.contains("    class \(shownClass): 1 (custom)\n"))
        XCTAssertEqual(try run(["diff", archive, "other.json"]).stdout, "- root: \(shownClass) object\n")
    }

    func testKeysAndStringsEscapeC1AndLineBreaks() throws {
        let keys = PlistValue.dictionary(PlistDictionary([
            ("k\(Self.clearScreen)", .string("v\(Self.clipboard)")), ("c1\u{9b}key", .string("val\u{9b}\u{7f}")), ("nl\nkey", .int(1)),
        ]))
        try Data(try PropertyList.write(keys, as: .binary)).write(to: work.appendingPathComponent("keys.plist"))
        make("empty.json", "{}")
        let dump = try run(["dump", "keys.plist"])
        XCTAssertEqual(dump.stdout, #"""
            {
              "k\u{1b}[2J" => "v\u{1b}]52;c;QUJD\u{7}"
              "c1\u{9b}key" => "val\u{9b}\u{7f}"
              "nl\nkey" => 1
            }

            """#)
        let diff = try run(["diff", "empty.json", "keys.plist"])
        XCTAssertEqual(diff.status, 1)
        XCTAssertEqual(diff.stdout, #"""
            + k\u{1b}[2J: string "v\u{1b}]52;c;QUJD\u{7}"
            + c1\u{9b}key: string "val\u{9b}\u{7f}"
            + nl\nkey: integer 1

            """#)
        let missing = try run(["get", "keys.plist", "no\u{1b}[2Jkey"])
        XCTAssertEqual(missing.status, 1)
        assertNoControls(missing.stderr, "get's error")
        // JSON stays JSON: its own escapes for C0, and valid JSON throughout.
        let json = try run(["dump", "--json", "keys.plist"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: json.output))
    }

    func testANewlineInAFileNameCannotForgeALine() throws {
        // Named .plist: a folder walk reads the property-list family.
        make("bad.plist: OK\nevil.plist", "{\"a\": ")
        make("fine\u{1b}[2J\u{9b}.plist", "{}")
        let quiet = try run(["lint", "-q", "."])
        XCTAssertEqual(quiet.status, 1)
        XCTAssertFalse(quiet.stdout.split(separator: "\n").contains("./bad.plist: OK"), quiet.stdout)
        XCTAssertEqual(quiet.stdout, "./bad.plist: OK\\nevil.plist:1:7: error: unexpected end of input, expected a value\n")
        let loud = try run(["lint", "fine\u{1b}[2J\u{9b}.plist"])
        XCTAssertEqual(loud.stdout, "fine\\u{1b}[2J\\u{9b}.plist: OK\n")
        let unreadable = try run(["dump", "missing\n\u{1b}[2J.plist"])
        XCTAssertEqual(unreadable.status, 1)
        XCTAssertTrue(unreadable.stderr.hasPrefix("missing\\n\\u{1b}[2J.plist: error: "), unreadable.stderr)
        XCTAssertEqual(unreadable.stderr.filter { $0 == "\n" }.count, 1, unreadable.stderr)
    }
}

extension CLITests {
    func testTableAndColumnNamesFromAStoreAreEscaped() throws {
        let db = try SQLiteDatabase.create(path: work.appendingPathComponent("s.sqlite").path)
        try db.execute("CREATE TABLE \"t\u{1b}[2Jx\" (id INTEGER PRIMARY KEY, \"c\u{9b}\" BLOB)")
        let insert = try db.prepare("INSERT INTO \"t\u{1b}[2Jx\" VALUES (?, ?)")
        for (row, bytes) in [(1, try PropertyList.write(.dictionary(PlistDictionary([("a", .int(1))])), as: .binary)), (2, Array("bplist00 broken".utf8))] {
            insert.reset()
            try insert.bind(1, int: Int64(row))
            try insert.bind(2, blob: bytes)
            _ = try insert.step()
        }
        let scan = try run(["lint", "--sqlite", "s.sqlite"])
        XCTAssertEqual(scan.status, 0, scan.stderr)
        assertNoControls(scan.stdout, "lint --sqlite")
        XCTAssertTrue(scan.stdout.hasPrefix(#"s.sqlite: t\u{1b}[2Jx.c\u{9b}: 2 blobs, 1 property list"#), scan.stdout)
        let rows = try run(["lint", "--sqlite", "s.sqlite", "--table", "t\u{1b}[2Jx", "--column", "c\u{9b}"])
        XCTAssertEqual(rows.status, 1)
        assertNoControls(rows.stdout, "lint --sqlite --table")
        assertNoControls(rows.stderr, "lint --sqlite --table errors")
        XCTAssertTrue(rows.stdout.hasPrefix(#"s.sqlite: t\u{1b}[2Jx.c\u{9b} row 1: OK"# + "\n"), rows.stdout)
        XCTAssertTrue(rows.stdout.contains(#"s.sqlite: t\u{1b}[2Jx.c\u{9b} row 2: offset 0: error: "#), rows.stdout)
    }
}
