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
