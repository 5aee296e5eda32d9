import ArchivistCore
import Foundation
import XCTest

/// A view grows with its input, not with its sharing: a long value a binary
/// plist or an archive shares is shown once, labelled, and referred to after
/// (`-> @N` in text, `{"$ref": "#/POINTER"}` in JSON); what is still
/// repeated (short values, an export's strings) is bounded by 16 times the
/// input (at least 4 MiB), refused before it is made.
extension CLITests {
    /// 20,000 uses of one 2,000-byte string (40 MB when repeated) show as
    /// references: the views stay within a few dozen times the file.
    func testASharedLongStringIsShownOnceAndReferredToAfter() throws {
        let long = String(repeating: "x", count: 2_000)
        let value = PlistValue.dictionary(PlistDictionary([
            ("many", .array(Array(repeating: .string(long), count: 20_000))),
            ("other", .dictionary(PlistDictionary([("again", .string(long)), ("short", .string("short")), ("same", .string("short"))]))),
        ]))
        let bytes = try PropertyList.write(value, as: .binary)
        XCTAssertLessThan(bytes.count, 70_000, "the binary writer stores the string once")
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("shared.plist").path, contents: Data(bytes)))

        let text = try run(["dump", "shared.plist"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertLessThan(text.output.count, 40 * bytes.count)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[2], "    0 => @1 \"" + long + "\"")
        XCTAssertEqual(lines[3], "    1 => -> @1")
        XCTAssertEqual(lines.filter { $0.hasSuffix("=> -> @1") }.count, 20_000)
        XCTAssertTrue(lines.contains("    \"short\" => \"short\""), "a short value is shown at each use")
        XCTAssertTrue(lines.contains("    \"same\" => \"short\""))
        let stable = try run(["dump", "--stable", "shared.plist"]).stdout.split(separator: "\n")
        XCTAssertEqual(stable[3], "    1 => -> @1", "labels count in order of appearance")
        XCTAssertEqual(stable.suffix(6), ["  \"other\" => {", "    \"again\" => -> @1", "    \"same\" => \"short\"", "    \"short\" => \"short\"", "  }", "}"])

        let json = try run(["dump", "--json", "shared.plist"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertLessThan(json.output.count, 40 * bytes.count)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: json.output) as? [String: Any])
        let many = try XCTUnwrap(parsed["many"] as? [Any])
        XCTAssertEqual(many.first as? String, long)
        XCTAssertEqual(many.last as? [String: String], ["$ref": "#/many/0"])
        XCTAssertEqual((parsed["other"] as? [String: Any])?["again"] as? [String: String], ["$ref": "#/many/0"])
        XCTAssertEqual((parsed["other"] as? [String: Any])?["same"] as? String, "short")
        // Each reference's pointer leads to the value (RFC 6901).
        XCTAssertEqual(Self.resolve("#/many/0", in: parsed) as? String, long)

        // A file without sharing shows as before: no labels, no references.
        let plain = try PropertyList.write(.array([.string(long), .string(long + "y")]), as: .binary)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("plain.plist").path, contents: Data(plain)))
        XCTAssertFalse(try run(["dump", "plain.plist"]).stdout.contains("@"))
        XCTAssertFalse(try run(["dump", "--json", "plain.plist"]).stdout.contains("$ref"))
    }

    /// An archive's long string referred to from 3,000 places: `dump` shows
    /// it once (`-> @2` after); `get`, `diff` and `convert --to codable-json`,
    /// which write it at each place, refuse before they pass 16 times the
    /// file (at least 4 MiB), where they used to make 1 GiB first.
    func testAnArchivesSharedStringIsBoundedByTheInput() throws {
        let long = String(repeating: "long text ", count: 2_000)
        let nsArray = PlistValue.dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))]))
        let array = PlistValue.dictionary(PlistDictionary([("NS.objects", .array(Array(repeating: .uid(2), count: 3_000))), ("$class", .uid(3))]))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([.string("$null"), array, .string(long), nsArray])),
        ]))
        let bytes = try PropertyList.write(archive, as: .binary)
        XCTAssertLessThan(bytes.count, 30_000)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("strings.plist").path, contents: Data(bytes)))

        let text = try run(["dump", "strings.plist"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[3], "    @2 \"" + long + "\"")
        XCTAssertEqual(lines[4], "    -> @2")
        XCTAssertLessThan(text.output.count, 3 * bytes.count)
        let stable = try run(["dump", "--stable", "strings.plist"])
        XCTAssertEqual(stable.status, 0, stable.stderr)
        XCTAssertEqual(stable.stdout.split(separator: "\n")[4], "    -> @1", "a stable dump numbers labels in order")

        let message = "error: the JSON would repeat more than 4194304 bytes of shared strings and data (shared objects are written at every reference)\n"
        // `get` shows the array as dump does: the string once, referred to after.
        let get = try run(["get", "strings.plist", "root"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertEqual(get.stdout.split(separator: "\n")[2], "  -> @2")
        XCTAssertLessThan(get.output.count, 3 * bytes.count)
        let convert = try run(["convert", "strings.plist", "--to", "codable-json", "-o", "strings.json"])
        XCTAssertEqual(convert.status, 1)
        XCTAssertTrue(convert.stderr.hasSuffix(message), convert.stderr)
        // `diff` walks both graphs in step, each shared object once: no expansion to bound.
        let diff = try run(["diff", "strings.plist", "strings.plist"])
        XCTAssertEqual(diff.status, 0, diff.stderr)
        XCTAssertLessThan(diff.output.count, bytes.count)
        // The archive's JSON view writes each use, within the same bound.
        let json = try run(["dump", "--json", "strings.plist"])
        XCTAssertEqual(json.status, 1)
        XCTAssertTrue(json.stderr.contains("would repeat more than 4194304 bytes"), json.stderr)
    }

    /// The value a JSON Pointer of a `"$ref"` names.
    static func resolve(_ reference: String, in document: Any) -> Any? {
        var value: Any? = document
        for step in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = step.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let array = value as? [Any], let i = Int(key), array.indices.contains(i) {
                value = array[i]
            } else {
                value = (value as? [String: Any])?[key]
            }
        }
        return value
    }
}
