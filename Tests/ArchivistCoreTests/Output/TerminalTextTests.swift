@testable import ArchivistCore
import XCTest

/// `TerminalText`: control characters as `dump` writes them in strings.
final class TerminalTextTests: XCTestCase {
    func testEveryControlCharacterIsEscapedAndNothingElse() {
        XCTAssertEqual(TerminalText.escaped("plain é ü ©"), "plain é ü ©")
        XCTAssertEqual(TerminalText.escaped("a\nb\tc\r\u{1b}[2J\u{7f}\u{80}\u{9b}\u{9f}\u{a0}\0"),
                       #"a\nb\tc\r\u{1b}[2J\u{7f}\u{80}\u{9b}\u{9f}"# + "\u{a0}" + #"\u{0}"#)
        XCTAssertEqual(TerminalText.escaped("a\nb\tc\u{1b}", keepingLayout: true), "a\nb\tc\\u{1b}")
        // Idempotent: backslashes stay, so escaping twice is escaping once.
        let once = TerminalText.escaped("x\u{1b}\\n")
        XCTAssertEqual(TerminalText.escaped(once), once)
        XCTAssertEqual(PlistValue.quoted("\u{9b}\u{7f}\""), #""\u{9b}\u{7f}\"""#)
    }

    func testRawFileNameBytesAreShownWhereverTheyStand() {
        // U+10FFE9 stands for the byte 0xE9 of a name that is not UTF-8.
        XCTAssertEqual(TerminalText.escaped("caf\u{10FFE9}"), "caf\\xE9")
        // After a character whose lead byte (0xC2) is looked at, and after a control character.
        XCTAssertEqual(TerminalText.escaped("£ caf\u{10FFE9}"), "£ caf\\xE9")
        XCTAssertEqual(TerminalText.escaped("\u{1b}caf\u{10FFE9}"), "\\u{1b}caf\\xE9")
        for p in 0...17 {
            let before = String(repeating: "a", count: p)
            XCTAssertEqual(TerminalText.escaped(before + "\u{10FFE9}z"), before + "\\xE9z", "at \(p)")
        }
        // Other code points of the last plane (lead byte 0xF4) stay as they are.
        XCTAssertEqual(TerminalText.escaped("\u{100000}\u{10FF7F}"), "\u{100000}\u{10FF7F}")
    }

    func testAControlCharacterAnywhereInALongRunIsEscaped() {
        // Plain text is passed over 8 bytes at a time: each position of a word, and the tail.
        let cases: [(String, String)] = [("\u{1b}", #"\u{1b}"#), ("\u{9b}", #"\u{9b}"#), ("\u{7f}", #"\u{7f}"#),
                                         ("\u{0}", #"\u{0}"#), ("\n", #"\n"#), ("\u{1f}", #"\u{1f}"#)]
        for (special, shown) in cases {
            for p in 0...24 {
                let before = String(repeating: "a", count: p), after = String(repeating: "é", count: 12 - p / 2)
                var escaper = TerminalText.Escaper(keepingLayout: false)
                var out: [UInt8] = []
                Array((before + special + after).utf8).withUnsafeBufferPointer { escaper.escape($0, into: &out) }
                escaper.finish(into: &out)
                XCTAssertEqual(String(decoding: out, as: UTF8.self), before + shown + after, "at \(p)")
            }
        }
        // Keeping the layout, line feeds and tabs pass among the words skipped, control characters do not.
        for p in 0...24 {
            let before = String(repeating: "a\n\tb", count: p / 4) + String(repeating: "c", count: p % 4)
            let after = "\n" + String(repeating: "d\t", count: 9)
            var escaper = TerminalText.Escaper(keepingLayout: true)
            var out: [UInt8] = []
            Array((before + "\u{1b}" + after).utf8).withUnsafeBufferPointer { escaper.escape($0, into: &out) }
            XCTAssertEqual(String(decoding: out, as: UTF8.self), before + #"\u{1b}"# + after, "at \(p)")
            XCTAssertEqual(TerminalText.escaped(before + "\u{1b}" + after, keepingLayout: true), before + #"\u{1b}"# + after)
            XCTAssertEqual(TerminalText.escaped(before + after, keepingLayout: true), before + after)
        }
        // Bytes 0x80 and above other than a C1 character's pass as they are.
        XCTAssertEqual(TerminalText.escaped(String(repeating: "ÿ€\u{a0}", count: 9)), String(repeating: "ÿ€\u{a0}", count: 9))
    }

    func testAC1CharacterSplitBetweenPiecesIsStillEscaped() {
        let text = Array("ab\u{9b}cd©".utf8)
        for cut in 0...text.count {
            var escaper = TerminalText.Escaper(keepingLayout: true)
            var out: [UInt8] = []
            text[..<cut].withUnsafeBufferPointer { escaper.escape($0, into: &out) }
            text[cut...].withUnsafeBufferPointer { escaper.escape($0, into: &out) }
            escaper.finish(into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), #"ab\u{9b}cd©"#, "cut at \(cut)")
        }
    }
}
