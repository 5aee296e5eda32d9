import CArchivistSupport
import XCTest

/// The XML writer's `%.17g` (exact integer arithmetic for common magnitudes)
/// gives glibc's text for every double.
final class RealFormatTests: XCTestCase {
    private func format(_ v: Double, _ f: (Double, UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 48)
        let n = buffer.withUnsafeMutableBufferPointer { f(v, $0.baseAddress!, 48) }
        return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func assertSame(_ v: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(format(v, archivist_format_g17), format(v, archivist_format_g17_reference), "\(v.bitPattern)", file: file, line: line)
    }

    func testEdgeCases() {
        let values: [Double] = [0.1, 0.2, 0.3, 1.0 / 3, 2.5, 100, 1e15, 1e16, 1e17, 9.999999999999999e16, 123456789.125,
                                0.001, 0.0009999999999999998, 0.00099999999999999999, 1e-7, 1e300, 5e-324, .ulpOfOne,
                                1 + 0x1p-17, 1 + 0x1p-18, 3 + 0x1p-16, 1234.625, 9007199254740993, 0.5, 99.99999999999999,
                                -0.1, -1234.5678, Double(Float(0.1)), .greatestFiniteMagnitude, .leastNormalMagnitude]
        for v in values { assertSame(v); assertSame(-v) }
    }

    func testRandomDoubles() {
        var state: UInt64 = 0x1234_5678
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for k in 0..<100_000 {
            // Magnitudes around the fast path's range, and exact binary fractions (ties).
            let exponent = Double(Int(next() % 26) - 6)
            let v: Double
            switch k % 3 {
            case 0: v = Double(next() >> 11) / Double(1 << 53) * pow(10, exponent)
            case 1: v = Double(next() % 1_000_000_000) / Double(1 << (next() % 40))
            default: v = Double(bitPattern: next() & 0x7FFF_FFFF_FFFF_FFFF)
            }
            if v.isFinite { assertSame(v) }
        }
    }
}
