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

    func testISO8601YearsOfEveryWidthReadBack() {
        // Years below 1, four digits padded, five to eight digits (the largest magnitude formatted).
        let cases: [(Double, String)] = [
            // Worked out with Python's datetime and 400-year cycles of 146,097 days.
            (-63_177_062_400, "-0001-01-01T00:00:00Z"),
            (-63_145_526_400 + 86_399, "0000-01-01T23:59:59Z"),
            (252_423_993_599, "9999-12-31T23:59:59Z"),
            (252_423_993_600, "10000-01-01T00:00:00Z"),
            (ISO8601.maximumMagnitude, "31690739-07-06T01:46:40Z"),
        ]
        for (seconds, text) in cases {
            XCTAssertEqual(ISO8601.formatIfRepresentable(PlistDate(secondsSinceReferenceDate: seconds)), text)
        }
        // The String and the writer's bytes agree, and read back as the whole second, across the range.
        var seconds = -ISO8601.maximumMagnitude
        while seconds <= ISO8601.maximumMagnitude {
            let date = PlistDate(secondsSinceReferenceDate: seconds)
            let sink = ByteSink()
            XCTAssertTrue(ISO8601.appendFormatted(date, into: sink))
            let text = ISO8601.formatIfRepresentable(date)
            XCTAssertEqual(sink.text(), text, "\(seconds)")
            XCTAssertEqual(text.flatMap { ISO8601.parse(Array($0.utf8)) }?.secondsSinceReferenceDate, seconds.rounded(.down), "\(seconds)")
            seconds += 7_777_777_777_777.25
        }
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
