import XCTest
@testable import ArchivistArchive

/// `NSAttributeInfo`'s runs (each run's UTF-16 length and dictionary number,
/// unsigned LEB128) become the text of each run with its dictionary, or
/// nothing when they do not cover the text exactly.
final class AttributedTextRunsTests: XCTestCase {
    let dictionaries = [40, 41, 42]

    func testRunsSplitTheTextByUTF16Lengths() {
        // "a😀" is 3 UTF-16 units: "a" (1) with dictionary 2, "😀" (2) with dictionary 0.
        let runs = ArchivedAttributedText.runs([1, 2, 2, 0], over: "a😀", dictionaries: dictionaries)
        XCTAssertEqual(runs.map(\.text), ["a", "😀"])
        XCTAssertEqual(runs.map(\.attributes), [42, 40])
        // A length of 200 takes two LEB128 bytes.
        let long = String(repeating: "x", count: 200) + "y"
        let two = ArchivedAttributedText.runs([0xC8, 0x01, 1, 1, 0], over: long, dictionaries: dictionaries)
        XCTAssertEqual(two.map(\.text.count), [200, 1])
        XCTAssertEqual(two.map(\.attributes), [41, 40])
    }

    func testRunsThatDoNotCoverTheTextGiveNone() {
        let cases: [(String, [UInt8], String)] = [
            ("too short", [1, 0, 1, 1], "abc"),
            ("too long", [2, 0, 2, 1], "abc"),
            ("no such dictionary", [1, 0, 2, 3], "abc"),
            ("inside a surrogate pair", [2, 0, 1, 1], "a😀"),
            ("cut LEB128", [1, 0, 0x82], "abc"),
            ("one run", [3, 0], "abc"),
            ("none", [], "abc"),
        ]
        for (label, info, text) in cases {
            XCTAssertTrue(ArchivedAttributedText.runs(info, over: text, dictionaries: dictionaries).isEmpty, label)
        }
    }
}
