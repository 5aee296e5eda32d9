import XCTest
@testable import ArchivistCore

/// Keys compare by code points, as CoreFoundation's do, not by Swift's
/// canonical equivalence.
final class PlistKeyTests: XCTestCase {
    let composed = "\u{E9}", decomposed = "e\u{301}"
    /// Canonically equivalent pairs that are distinct keys.
    var pairs: [(String, String)] {
        [(composed, decomposed), ("K", "\u{212A}"), ("a\u{301}\u{323}", "a\u{323}\u{301}"), ("\u{C5}", "\u{212B}")]
    }

    func testSameComparesCodePoints() {
        for (a, b) in pairs {
            XCTAssertEqual(a, b, "Swift calls them equal")
            XCTAssertFalse(PlistKeys.same(a, b), "\(Array(a.unicodeScalars)) \(Array(b.unicodeScalars))")
            XCTAssertTrue(PlistKeys.same(a, String(decoding: Array(a.utf8), as: UTF8.self)))
            XCTAssertNotEqual(PlistKey(a), PlistKey(b))
            XCTAssertEqual(Set([PlistKey(a), PlistKey(b), PlistKey(a)]).count, 2)
        }
        XCTAssertTrue(PlistKeys.same("", ""))
        XCTAssertFalse(PlistKeys.same("", "a"))
        // A bridged or substring-made string compares the same way.
        XCTAssertTrue(PlistKeys.same(String("x\(composed)y".dropFirst().dropLast()), composed))
    }

    func testDictionaryKeepsAndFindsEachKey() {
        for (a, b) in pairs {
            var d = PlistDictionary()
            d[a] = .int(1)
            XCTAssertNil(d[b])
            XCTAssertNil(d.index(forKey: b))
            d[b] = .int(2)
            XCTAssertEqual(d.count, 2)
            XCTAssertEqual(d[a], .int(1))
            XCTAssertEqual(d[b], .int(2))
            d[b] = nil
            XCTAssertEqual(d.keys.map { Array($0.unicodeScalars) }, [Array(a.unicodeScalars)])
            XCTAssertEqual(PlistDictionary([(a, .int(1)), (b, .int(2)), (a, .int(3))]).count, 2)
        }
    }

    func testEqualityTellsKeysAndStringsApart() {
        let x = PlistDictionary([(composed, .int(1))]), y = PlistDictionary([(decomposed, .int(1))])
        XCTAssertNotEqual(x, y)
        XCTAssertNotEqual(PlistValue.string(composed), .string(decomposed))
        // Past 16 keys the comparison uses an index: the same rule holds.
        let many = (0..<20).map { ("k\($0)", PlistValue.int(Int64($0))) }
        XCTAssertNotEqual(PlistDictionary(many + [(composed, .int(1))]), PlistDictionary([(decomposed, .int(1))] + many))
        XCTAssertEqual(PlistDictionary(many + [(composed, .int(1))]), PlistDictionary([(composed, .int(1))] + many))
    }
}
