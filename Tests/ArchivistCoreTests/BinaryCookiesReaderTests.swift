import ArchivistCore
import ArchivistTestSupport
import XCTest

/// The binary cookie store reader: generated stores read field for field,
/// and every kind of damage is a located error, never a crash or a read
/// past the buffer.
final class BinaryCookiesReaderTests: XCTestCase {
    typealias Cookie = BinaryCookiesSample.Cookie

    private func cookies(_ bytes: [UInt8]) throws -> [PlistDictionary] {
        let document = try PropertyList.read(bytes)
        guard case .array(let items) = document.tree.value else { XCTFail("not an array"); return [] }
        return items.compactMap { if case .dictionary(let d) = $0 { return d } else { return nil } }
    }

    private func offset(of error: Error) -> Int? {
        guard let e = error as? PlistError, case .binary(let offset, _) = e.location else { return nil }
        return offset
    }

    func testAGeneratedStoreReadsFieldForField() throws {
        let read = try cookies(BinaryCookiesSample.example)
        XCTAssertEqual(read.count, 3)
        XCTAssertEqual(read[0]["domain"], .string(".example.com"))
        XCTAssertEqual(read[0]["name"], .string("session"))
        XCTAssertEqual(read[0]["path"], .string("/"))
        XCTAssertEqual(read[0]["value"], .string("s3cr3t"))
        XCTAssertEqual(read[0]["secure"], .bool(true))
        XCTAssertEqual(read[0]["httpOnly"], .bool(true))
        XCTAssertEqual(read[0]["flags"], .int(5))
        XCTAssertEqual(read[0]["expires"], .date(PlistDate(secondsSinceReferenceDate: 757_382_400)))
        XCTAssertEqual(read[0]["created"], .date(PlistDate(secondsSinceReferenceDate: 700_000_000)))
        XCTAssertEqual(read[0]["page"], .int(0))
        XCTAssertEqual(read[0]["record"], .int(0))
        XCTAssertNil(read[0]["comment"])
        XCTAssertEqual(read[1]["path"], .string("/app"))
        XCTAssertEqual(read[1]["secure"], .bool(false))
        XCTAssertEqual(read[1]["httpOnly"], .bool(false))
        XCTAssertEqual(read[1]["record"], .int(1))
        XCTAssertEqual(read[2]["page"], .int(1))
        XCTAssertEqual(read[2]["record"], .int(0))
        XCTAssertEqual(read[2]["secure"], .bool(true))
        XCTAssertEqual(read[2]["httpOnly"], .bool(false))
        XCTAssertEqual(read[2]["comment"], .string("language"))
        // The old footer, with no policy plist after it, reads the same.
        let old = BinaryCookiesSample.make([[Cookie(domain: "a", name: "b", value: "c")]])
        XCTAssertEqual(try cookies(old).count, 1)
        XCTAssertEqual(try cookies(BinaryCookiesSample.make([])).count, 0)
    }

    /// Cut anywhere, the store is an error located inside the input.
    func testATruncatedStoreIsALocatedErrorWhereverItIsCut() {
        let bytes = BinaryCookiesSample.make(BinaryCookiesSample.examplePages)
        for n in 8..<bytes.count {
            let cut = Array(bytes[..<n])
            XCTAssertThrowsError(try PropertyList.read(cut), "cut at \(n)") { error in
                guard let at = offset(of: error) else { return XCTFail("\(n): \(error)") }
                XCTAssertLessThanOrEqual(at, n, "cut at \(n)")
            }
        }
    }

    /// Every 32-bit field set to huge and to out-of-range values, and every
    /// byte flipped: an error or a read, never a crash.
    func testHostileCountsAndOffsetsAreLocatedErrors() {
        let bytes = BinaryCookiesSample.make([[Cookie(domain: "d", name: "n", value: "v")]])
        func expectError(_ b: [UInt8], at expected: Int, _ what: String) {
            XCTAssertThrowsError(try PropertyList.read(b), what) { error in
                XCTAssertEqual(offset(of: error), expected, "\(what): \(error)")
            }
        }
        // A field overwritten: (where, the new bytes, what the error names).
        let damaged: [(Range<Int>, [UInt8], String)] = [
            (4..<8, [0, 0xFF, 0xFF, 0xFF], "a huge page count"),
            (8..<12, [0x7F, 0xFF, 0xFF, 0xFF], "a page past the end"),
            (16..<20, [0xFF, 0xFF, 0xFF, 0x0F], "a huge record count"),
            (20..<24, [0xF0, 0xFF, 0, 0], "a record offset out of the page"),
            (28..<32, [0xFF, 0xFF, 0xFF, 0x7F], "a record size past the page"),
            (44..<48, [0xFF, 0xFF, 0, 0], "a domain offset out of the record"),
        ]
        for (range, replacement, what) in damaged {
            var b = bytes
            b.replaceSubrange(range, with: replacement)
            expectError(b, at: range.lowerBound, what)
        }
        var b = bytes
        b[12] = 0xAA
        expectError(b, at: 12, "a page that does not start 00 00 01 00")
        b = bytes
        b[bytes.count - 1] ^= 1
        expectError(b, at: bytes.count - 4, "a damaged footer")
        b = bytes
        b[bytes.count - 8] ^= 1
        expectError(b, at: bytes.count - 8, "a wrong checksum")
        // The last byte of the value (its NUL) made a letter: no terminator.
        b = BinaryCookiesSample.make([[Cookie(domain: "d", name: "n", value: "v")]])
        let valueNUL = 28 + 64 - 1
        XCTAssertEqual(b[valueNUL], 0)
        b[valueNUL] = 0x41
        XCTAssertThrowsError(try PropertyList.read(b))
        // A non-finite date.
        b = bytes
        b.replaceSubrange((28 + 40)..<(28 + 48), with: [0, 0, 0, 0, 0, 0, 0xF8, 0x7F])
        expectError(b, at: 28 + 40, "a NaN expiry date")
        for i in 0..<bytes.count {
            for v: UInt8 in [0, 0xFF, 0x80] {
                var f = bytes
                f[i] = v
                _ = try? PropertyList.read(f)
            }
        }
    }
}
