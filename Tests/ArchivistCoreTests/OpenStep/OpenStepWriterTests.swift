import Foundation
import XCTest
@testable import ArchivistCore

final class OpenStepWriterTests: XCTestCase {
    private func text(_ value: PlistValue, keepKeyOrder: Bool = false) throws -> String {
        String(decoding: try PropertyList.write(value, as: .openstep, options: WriteOptions(keepKeyOrder: keepKeyOrder)), as: UTF8.self)
    }

    private let sample = PlistValue.dictionary(PlistDictionary([
        ("name", .string("My App")),
        ("id", .string("com.example.app")),
        ("icon", .data([0x0F, 0xBD, 0x77, 0x77, 0x12, 0x34, 0x56, 0x78, 0x9A])),
        ("tags", .array([.string("a"), .string("b c")])),
        ("empty", .array([])),
        ("classes", .dictionary(PlistDictionary())),
        ("nested", .dictionary(PlistDictionary([("inner", .array([.dictionary(PlistDictionary([("k", .string("v"))]))]))]))),
    ]))

    func testLayoutLikeXcodeProjects() throws {
        XCTAssertEqual(try text(sample), """
        {
        \tclasses = {
        \t};
        \tempty = (
        \t);
        \ticon = <0fbd7777 12345678 9a>;
        \tid = com.example.app;
        \tname = "My App";
        \tnested = {
        \t\tinner = (
        \t\t\t{
        \t\t\t\tk = v;
        \t\t\t}
        \t\t);
        \t};
        \ttags = (
        \t\ta,
        \t\t"b c"
        \t);
        }

        """)
    }

    func testKeyOrder() throws {
        let keys = ["a10", "😀", "B", "9", "！", "a", "_", "10", "é", "a2"]
        let value = PlistValue.dictionary(PlistDictionary(keys.map { ($0, PlistValue.string("x")) }))
        func order(_ text: String) -> [String] {
            text.split(separator: "\n").dropFirst().dropLast().map { line in
                var key = String(line.dropFirst().prefix { $0 != " " })
                if key.hasPrefix("\"") { key = String(key.dropFirst().dropLast()) }
                return key
            }
        }
        XCTAssertEqual(order(try text(value)), ["10", "9", "B", "_", "a", "a10", "a2", "é", "😀", "！"])
        XCTAssertEqual(order(try text(value, keepKeyOrder: true)), keys)
    }

    func testQuotingAndEscapes() throws {
        let cases: [(String, String)] = [
            ("plain", "plain"), ("a_b$c/d:e.f-g09", "a_b$c/d:e.f-g09"), ("", "\"\""), ("two words", "\"two words\""),
            ("a+b", "\"a+b\""), ("q\"b\\", "\"q\\\"b\\\\\""), ("l1\nl2\tt\r", "\"l1\\nl2\\tt\\r\""),
            ("\u{7}\u{8}\u{C}\u{B}", "\"\\a\\b\\f\\v\""), ("\u{0}\u{1}\u{1B}\u{7F}", "\"\\U0000\\U0001\\U001b\\U007f\""),
            ("é 😀", "\"é 😀\""), ("'", "\"'\""), ("<x>", "\"<x>\""),
            // A leading // would read as a comment; inside a bare string it is text.
            ("//dtX", "\"//dtX\""), ("/*x", "\"/*x\""), ("a//b", "a//b"), ("/", "/"),
        ]
        for (string, written) in cases {
            XCTAssertEqual(try text(.string(string)), written + "\n", string.debugDescription)
            XCTAssertEqual(try OpenStepReader.read(Array((written + "\n").utf8)).tree.value, .string(string), string.debugDescription)
        }
    }

    func testData() throws {
        XCTAssertEqual(try text(.data([])), "<>\n")
        XCTAssertEqual(try text(.data([1, 2, 3, 4])), "<01020304>\n")
        XCTAssertEqual(try text(.data([1, 2, 3, 4, 5])), "<01020304 05>\n")
    }

    func testTypesOpenStepLacksAreNotRepresentable() {
        let cases: [(PlistValue, String)] = [
            (.int(1), "integer"), (.double(1.5), "real"), (.bool(true), "bool"),
            (.date(PlistDate(secondsSinceReferenceDate: 0)), "date"), (.uid(1), "uid"), (.null, "null"),
        ]
        for (scalar, type) in cases {
            let tree = PlistValue.dictionary(PlistDictionary([("objects", .dictionary(PlistDictionary([("list", .array([.string("ok"), scalar]))])))]))
            XCTAssertThrowsError(try PropertyList.write(tree, as: .openstep)) { error in
                let e = error as? PlistError
                XCTAssertEqual(e?.kind, .notRepresentable)
                XCTAssertTrue(e?.message.contains("OpenStep has no \(type) type") ?? false, "\(error)")
                XCTAssertTrue(e?.message.contains("\"objects.list[1]\"") ?? false, "\(error)")
            }
        }
        XCTAssertThrowsError(try PropertyList.write(.int(1), as: .openstep)) { error in
            XCTAssertTrue((error as? PlistError)?.message.contains("at the top level") ?? false, "\(error)")
        }
    }

    func testRoundTripThroughUsAndFoundation() throws {
        var strings: [PlistValue] = ["", "x", "with space", "quote\" backslash\\", "tab\tnew\nline", "日本語 😀", "\u{1}\u{7F}", "-1", "a//b", "/*c*/"].map { .string($0) }
        strings.append(.data(Array(0...255)))
        var dict = PlistDictionary()
        for (i, s) in strings.enumerated() { dict["key \(i) \(i % 3 == 0 ? "é" : "")"] = s }
        dict["list"] = .array(strings + [.array([]), .dictionary(PlistDictionary()), .array([.array([.string("deep")])])])
        dict[""] = .string("empty key")
        let value = PlistValue.dictionary(dict)
        for keepKeyOrder in [false, true] {
            let written = try PropertyList.write(value, as: .openstep, options: WriteOptions(keepKeyOrder: keepKeyOrder))
            XCTAssertEqual(try OpenStepReader.read(written).tree.value, value)
            XCTAssertEqual(try FoundationBridge.foundationRead(written), value)
        }
    }

    func testDeepTreesDoNotRecurse() throws {
        var value = PlistValue.string("x")
        for _ in 0..<2_000 { value = .array([value]) }
        let written = try PropertyList.write(value, as: .openstep)
        XCTAssertEqual(try OpenStepReader.read(written, options: ReadOptions(limits: { var l = Limits(); l.maxDepth = 2_000; return l }())).tree.value, value)
    }
}
