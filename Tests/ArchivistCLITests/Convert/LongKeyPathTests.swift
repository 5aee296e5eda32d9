import ArchivistCore
import Foundation
import XCTest

/// The guide (safety.md, Limits): a key-path error shows at most 24 steps of a long path, its first
/// 8 and its last 16 (`root.f.a.a.a.a.a.a.….a.bad`).
extension CLITests {
    func testAKeyPathInAnErrorShowsAtMost24Steps() throws {
        // root.f, then 300 levels of {"a": …} inline, then a UID past the end.
        var inline = PlistValue.dictionary(PlistDictionary([("bad", .uid(9))]))
        for _ in 0..<300 { inline = .dictionary(PlistDictionary([("a", inline)])) }
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)), ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([
                .string("$null"), .dictionary(PlistDictionary([("$class", .uid(2)), ("f", inline)])),
                .dictionary(PlistDictionary([("$classname", .string("Foo")), ("$classes", .array([.string("Foo"), .string("NSObject")]))])),
            ])),
        ]))
        try Data(try PropertyList.write(archive, as: .binary)).write(to: work.appendingPathComponent("deep.plist"))
        let a15 = Array(repeating: "a", count: 15).joined(separator: ".")
        let location = "root.f.a.a.a.a.a.a.….\(a15).bad"
        let field = "f.a.a.a.a.a.a.a.….\(a15).bad"
        let expected = "deep.plist: $objects[1] (\(location)): error: \(field) refers to object 9, past the 3 objects\n"
        for command in ["info", "dump", "classes"] {
            let r = try run([command, "deep.plist"])
            XCTAssertEqual(r.status, 1, command)
            XCTAssertEqual(r.stderr, expected, command)
        }
    }

    func testAWritersPlaceInAnErrorShowsAtMost24Steps() throws {
        var value = PlistValue.double(.nan)
        for _ in 0..<300 { value = .array([value]) }
        try Data(try PropertyList.write(value, as: .binary)).write(to: work.appendingPathComponent("nan.plist"))
        let r = try run(["convert", "nan.plist", "--to", "json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("nan.plist: error: JSON has no NaN (real at \"[0][0]"), r.stderr)
        XCTAssertTrue(r.stderr.contains(".…[0]"), r.stderr)
        XCTAssertLessThanOrEqual(r.stderr.components(separatedBy: "[0]").count - 1, 24, r.stderr)
    }
}
