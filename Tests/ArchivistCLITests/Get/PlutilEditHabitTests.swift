import Foundation
import XCTest

/// Habits plutil users bring: `set` and `remove` change only what they edit
/// (the file's key order stays), and `get -n` prints no trailing newline.
extension CLITests {
    static let unsortedXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>Zeta</key>
        \t<string>z</string>
        \t<key>Alpha</key>
        \t<integer>1</integer>
        \t<key>Mid</key>
        \t<dict>
        \t\t<key>y</key>
        \t\t<true/>
        \t\t<key>b</key>
        \t\t<real>1.5</real>
        \t</dict>
        </dict>
        </plist>

        """

    /// The lines of `text` with the lines at `removed` (0-based) left out and
    /// `inserted` put in at `at`.
    private func lines(_ text: String, removing removed: Range<Int> = 0..<0, inserting inserted: [String] = [], at: Int = 0) -> String {
        var lines = text.components(separatedBy: "\n")
        lines.removeSubrange(removed)
        lines.insert(contentsOf: inserted, at: at)
        return lines.joined(separator: "\n")
    }

    func testSetAndRemoveKeepTheXMLFilesKeyOrder() throws {
        make("a.plist", Self.unsortedXML)
        // Replacing a value changes its line only.
        XCTAssertEqual(try run(["set", "a.plist", "Alpha", "2", "--type", "integer", "-o", "replaced.plist"]).status, 0)
        XCTAssertEqual(contents("replaced.plist").map { String(decoding: $0, as: UTF8.self) },
                       Self.unsortedXML.replacingOccurrences(of: "<integer>1</integer>", with: "<integer>2</integer>"))
        // A new key goes at the end of its dictionary.
        XCTAssertEqual(try run(["set", "a.plist", "Mid.New", "x", "--type", "string", "-o", "added.plist"]).status, 0)
        XCTAssertEqual(contents("added.plist").map { String(decoding: $0, as: UTF8.self) },
                       lines(Self.unsortedXML, inserting: ["\t\t<key>New</key>", "\t\t<string>x</string>"], at: 14))
        // Removing a key removes its lines only.
        XCTAssertEqual(try run(["remove", "a.plist", "Mid.y", "-o", "removed.plist"]).status, 0)
        XCTAssertEqual(contents("removed.plist").map { String(decoding: $0, as: UTF8.self) },
                       lines(Self.unsortedXML, removing: 10..<12))
        // In place, the same.
        XCTAssertEqual(try run(["remove", "a.plist", "Zeta"]).status, 0)
        XCTAssertEqual(contents("a.plist").map { String(decoding: $0, as: UTF8.self) }, lines(Self.unsortedXML, removing: 4..<6))
    }

    func testSetKeepsOpenStepAndBinaryKeyOrder() throws {
        make("a.strings", "{\n\tz = a;\n\tb = c;\n}\n")
        XCTAssertEqual(try run(["set", "a.strings", "q", "r", "--type", "string"]).status, 0)
        XCTAssertEqual(contents("a.strings").map { String(decoding: $0, as: UTF8.self) }, "{\n\tz = a;\n\tb = c;\n\tq = r;\n}\n")
        make("a.plist", Self.unsortedXML)
        XCTAssertEqual(try run(["convert", "a.plist", "--to", "binary", "--keep-key-order", "-o", "a.bplist"]).status, 0)
        XCTAssertEqual(try run(["set", "a.bplist", "Alpha", "2", "--type", "integer"]).status, 0)
        let back = try run(["convert", "a.bplist", "--to", "xml", "--keep-key-order"])
        XCTAssertEqual(back.stdout, Self.unsortedXML.replacingOccurrences(of: "<integer>1</integer>", with: "<integer>2</integer>"))
    }

    func testSetKeepsJSONLayout() throws {
        make("pretty.json", "{\n  \"z\": 1,\n  \"a\": [\n    true\n  ]\n}\n")
        XCTAssertEqual(try run(["set", "pretty.json", "b", "x", "--type", "string"]).status, 0)
        XCTAssertEqual(contents("pretty.json").map { String(decoding: $0, as: UTF8.self) },
                       "{\n  \"z\": 1,\n  \"a\": [\n    true\n  ],\n  \"b\": \"x\"\n}\n")
        make("compact.json", "{\"z\":1,\"a\":[true]}")
        XCTAssertEqual(try run(["remove", "compact.json", "a"]).status, 0)
        XCTAssertEqual(contents("compact.json").map { String(decoding: $0, as: UTF8.self) }, "{\"z\":1}")
    }

    func testGetNPrintsNoTrailingNewline() throws {
        make("a.plist", Self.unsortedXML)
        for (path, expected) in [("Zeta", "z"), ("Alpha", "1"), ("Mid.b", "1.5"), ("Mid.y", "true")] {
            let r = try run(["get", "a.plist", path, "-n"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, expected)
        }
        XCTAssertEqual(try run(["get", "a.plist", "Alpha", "--type", "-n"]).stdout, "integer")
        XCTAssertEqual(try run(["get", "a.plist", "Zeta"]).stdout, "z\n")
        // A container's text loses its last newline only.
        let json = try run(["get", "a.plist", "Mid", "--to", "json", "-n"])
        XCTAssertEqual(json.stdout, "{\n  \"y\": true,\n  \"b\": 1.5\n}")
    }
}
