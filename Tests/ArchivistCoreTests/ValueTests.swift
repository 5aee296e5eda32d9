import XCTest
@testable import ArchivistCore

final class ValueTests: XCTestCase {
    func testIntegerNormalisation() {
        XCTAssertEqual(PlistInteger(UInt64(5)), PlistInteger(Int64(5)))
        XCTAssertTrue(PlistInteger(UInt64.max).isUnsignedBeyondInt64)
        XCTAssertEqual(PlistInteger(UInt64.max).description, "18446744073709551615")
        XCTAssertEqual(PlistInteger(Int64.min).description, "-9223372036854775808")
        XCTAssertNil(PlistInteger(Int64(-1)).uint64Value)
    }

    func testDictionaryEqualityIgnoresOrder() {
        let a = PlistDictionary([("a", .int(1)), ("b", .string("x"))])
        let b = PlistDictionary([("b", .string("x")), ("a", .int(1))])
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, PlistDictionary([("a", .int(1))]))
    }

    func testUTF16KeyOrder() {
        let keys = ["a10", "😀", "B", "9", "！", "a", "_", "10", "é", "a2", "Z", "aa", "z", "a1", "b", "A"]
        var d = PlistDictionary()
        for k in keys { d[k] = .bool(true) }
        let sorted = d.indicesSortedByUTF16().map { d.keys[$0] }
        XCTAssertEqual(sorted, ["10", "9", "A", "B", "Z", "_", "a", "a1", "a10", "a2", "aa", "b", "z", "é", "😀", "！"])
    }

    func testRealEquality() {
        XCTAssertEqual(PlistReal(.nan), PlistReal(.nan))
        XCTAssertEqual(PlistReal(float: 0.5), PlistReal(0.5))
    }

    func testISO8601() throws {
        let cases: [(Double, String)] = [
            (0, "2001-01-01T00:00:00Z"),
            (0.999999, "2001-01-01T00:00:00Z"),
            (-0.5, "2000-12-31T23:59:59Z"),
            (-63113904000, "0001-01-01T00:00:00Z"),
        ]
        for (seconds, text) in cases {
            XCTAssertEqual(ISO8601.format(PlistDate(secondsSinceReferenceDate: seconds)), text)
        }
        XCTAssertEqual(ISO8601.parse(Array("2024-02-29T13:45:59Z".utf8))?.secondsSinceReferenceDate, 730_907_159)
        XCTAssertNil(ISO8601.parse(Array("2023-02-29T13:45:59Z".utf8)))
        XCTAssertNil(ISO8601.parse(Array("2024-02-29 13:45:59Z".utf8)))
        XCTAssertNil(ISO8601.formatIfRepresentable(PlistDate(secondsSinceReferenceDate: .infinity)))
    }

    func testSourceLocation() {
        let text = Array("ab\r\ncd\ref\ngh".utf8)
        text.withUnsafeBytes { buf in
            XCTAssertEqual(SourceLocation.text(in: buf, offset: 0), .text(line: 1, column: 1))
            XCTAssertEqual(SourceLocation.text(in: buf, offset: 4), .text(line: 2, column: 1))
            XCTAssertEqual(SourceLocation.text(in: buf, offset: 8), .text(line: 3, column: 2))
            XCTAssertEqual(SourceLocation.text(in: buf, offset: 11), .text(line: 4, column: 2))
        }
    }
}
