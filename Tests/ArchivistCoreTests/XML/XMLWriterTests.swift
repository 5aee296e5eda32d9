import Foundation
import XCTest
@testable import ArchivistCore

final class XMLWriterTests: XCTestCase {
    /// Archivist's XML is byte-identical to Foundation's for the same tree.
    func assertMatchesFoundation(_ tree: PlistValue, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let expected = try FoundationBridge.foundationWrite(tree, format: .xml) else {
            return XCTFail("tree has no Foundation form", file: file, line: line)
        }
        let ours = try XMLPlistWriter.write(tree)
        XCTAssertEqual(String(decoding: ours, as: UTF8.self), String(decoding: expected, as: UTF8.self), file: file, line: line)
    }

    func testEveryTypeMatchesFoundation() throws {
        try assertMatchesFoundation(SampleTrees.everyType)
    }

    func testRealsMatchFoundation() throws {
        let values: [Double] = [1, 100, 2.5, 0.1, 1.0 / 3, 1e300, 1e-7, 1e15, 1e16, 1e21, 123456789.125, -0.0, .nan, .infinity, -.infinity, -2.75, 5e-324]
        try assertMatchesFoundation(.array(values.map { .double($0) } + [.real(PlistReal(float: 0.1))]))
    }

    func testKeyOrderMatchesFoundation() throws {
        let keys = ["a10", "😀", "B", "9", "！", "a", "_", "10", "é", "a2", "Z", "aa", "z", "a1", "b", "A"]
        try assertMatchesFoundation(.dictionary(PlistDictionary(keys.map { ($0, .bool(true)) })))
    }

    func testDataLineLayoutAtEveryDepth() throws {
        var tree = PlistValue.data(Array(0..<100))
        for depth in 0..<12 {
            try assertMatchesFoundation(tree)
            tree = depth % 2 == 0 ? .array([tree, .data([])]) : .dictionary(PlistDictionary([("d", tree)]))
        }
    }

    func testEscapingAndDates() throws {
        try assertMatchesFoundation(.dictionary(PlistDictionary([
            ("s", .string("a < b & c > d \"q\" 'x'\ttab\nnl")),
            ("ctl", .string("\u{1}\u{1F}\u{7F}")),
            ("e", .string("")),
            ("d1", .date(PlistDate(secondsSinceReferenceDate: -0.5))),
            ("d2", .date(PlistDate(secondsSinceReferenceDate: 0.999999))),
            ("d3", .date(PlistDate(secondsSinceReferenceDate: -63_113_904_000))),
            ("<k&>", .int(Int64.min)),
            ("u", .integer(PlistInteger(UInt64.max))),
        ])))
    }

    func testUIDAndKeepKeyOrder() throws {
        let tree = PlistValue.dictionary(PlistDictionary([("z", .uid(7)), ("a", .int(1))]))
        let text = String(decoding: try XMLPlistWriter.write(tree, options: WriteOptions(keepKeyOrder: true)), as: UTF8.self)
        XCTAssertTrue(text.contains("<dict>\n\t<key>z</key>\n\t<dict>\n\t\t<key>CF$UID</key>\n\t\t<integer>7</integer>\n\t</dict>\n\t<key>a</key>"), text)
        XCTAssertThrowsError(try XMLPlistWriter.write(.null))
    }
}
