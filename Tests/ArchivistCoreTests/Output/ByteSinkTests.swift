import XCTest
@testable import ArchivistCore

final class ByteSinkTests: XCTestCase {
    /// A draining sink passes on exactly what a plain one collects, in
    /// pieces no larger than its buffer (except a single larger append).
    func testDrainingSinkStreamsTheSameBytes() throws {
        var streamed: [UInt8] = []
        var largest = 0
        let draining = ByteSink(capacity: 256) { piece in
            streamed.append(contentsOf: piece)
            largest = max(largest, piece.count)
        }
        let plain = ByteSink()
        var expected: [UInt8] = []
        for i in 0..<2_000 {
            for sink in [draining, plain] {
                sink.append(utf8: "item \(i) ")
                sink.appendDecimal(PlistInteger(Int64(i * 7919)))
                sink.append(repeating: 0x09, count: i % 11)
            }
        }
        let big = [UInt8](repeating: 0x41, count: 1_000)
        draining.append(big)
        plain.append(big)
        try draining.finish()
        expected = plain.bytes()
        XCTAssertEqual(streamed, expected)
        XCTAssertEqual(draining.byteCount, expected.count)
        XCTAssertLessThanOrEqual(largest, 1_000)
        XCTAssertGreaterThan(streamed.count, 40_000)
    }

    /// Short copies are made of overlapping word, half-word and byte
    /// stores: every length up to and past 16, after every alignment of the
    /// end, lands exactly (a draining sink with little room too).
    func testShortAppendsCopyEveryLengthExactly() throws {
        for capacity in [16, 4_096] {
            var streamed: [UInt8] = []
            let draining = ByteSink(capacity: capacity) { streamed.append(contentsOf: $0) }
            let plain = ByteSink()
            var expected: [UInt8] = []
            for lead in 0..<9 {
                for n in 0...20 {
                    let before = [UInt8](repeating: UInt8(ascii: "."), count: lead)
                    let piece = (0..<n).map { UInt8(truncatingIfNeeded: 0x41 + $0 + n) }
                    for sink in [draining, plain] {
                        sink.append(before)
                        piece.withUnsafeBytes { sink.append($0) }
                    }
                    expected += before + piece
                }
            }
            try draining.finish()
            XCTAssertEqual(plain.bytes(), expected, "capacity \(capacity)")
            XCTAssertEqual(streamed, expected, "capacity \(capacity)")
        }
    }

    /// A line feed and an indent of every width, the spaces stored a word
    /// at a time: nothing past them is kept, nothing before them touched.
    func testLineFeedsAndIndentsOfEveryWidth() throws {
        var streamed: [UInt8] = []
        let draining = ByteSink(capacity: 16) { streamed.append(contentsOf: $0) }
        let plain = ByteSink()
        var expected: [UInt8] = []
        for n in 0...70 {
            for sink in [draining, plain] {
                sink.append(UInt8(ascii: "x"))
                sink.appendLineFeed(indent: n)
                sink.append(UInt8(ascii: "y"))
            }
            expected += [UInt8(ascii: "x"), 0x0A] + [UInt8](repeating: 0x20, count: n) + [UInt8(ascii: "y")]
        }
        try draining.finish()
        XCTAssertEqual(plain.bytes(), expected)
        XCTAssertEqual(streamed, expected)
    }

    func testADrainFailureIsReportedAtFinish() {
        struct Full: Error {}
        var calls = 0
        let sink = ByteSink(capacity: 64) { _ in
            calls += 1
            throw Full()
        }
        for _ in 0..<100 { sink.append(utf8: "0123456789") }
        XCTAssertThrowsError(try sink.finish()) { XCTAssertTrue($0 is Full) }
        XCTAssertEqual(calls, 1, "after a failure the drain is not called again")
    }
}
