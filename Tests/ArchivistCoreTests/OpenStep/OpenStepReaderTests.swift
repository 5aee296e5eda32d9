import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistCore

final class OpenStepReaderTests: XCTestCase {
    private func read(_ text: String, limits: Limits = .default) throws -> PlistDocument {
        try OpenStepReader.read(Array(text.utf8), options: ReadOptions(limits: limits))
    }

    private func value(_ text: String) throws -> PlistValue {
        try read(text).tree.value
    }

    private func error(_ text: String, limits: Limits = .default, file: StaticString = #filePath, line: UInt = #line) -> PlistError? {
        ReadError.of(text, file: file, line: line) { try read(text, limits: limits) }
    }

    private func dict(_ pairs: [(String, PlistValue)]) -> PlistValue { .dictionary(PlistDictionary(pairs)) }

    // MARK: - Grammar

    func testDictionariesArraysDataAndStrings() throws {
        let text = """
        {
            name = "My App";
            version = 1.0;
            path = /usr/local/bin;
            url = http://example.com/a-b_c$d;
            list = (a, "b c", 'd', <0fbd 7777>, (), {});
            empty = "";
            nested = { inner = ( x, ); };
        }
        """
        XCTAssertEqual(try value(text), dict([
            ("name", .string("My App")), ("version", .string("1.0")), ("path", .string("/usr/local/bin")),
            ("url", .string("http://example.com/a-b_c$d")),
            ("list", .array([.string("a"), .string("b c"), .string("d"), .data([0x0F, 0xBD, 0x77, 0x77]), .array([]), dict([])])),
            ("empty", .string("")), ("nested", dict([("inner", .array([.string("x")]))])),
        ]))
    }

    func testEveryScalarIsAString() throws {
        XCTAssertEqual(try value("(1, -2, 3.5, YES, true, 2024-01-01T00:00:00Z)"),
                       .array(["1", "-2", "3.5", "YES", "true", "2024-01-01T00:00:00Z"].map { .string($0) }))
    }

    func testKeyOrderIsKept() throws {
        XCTAssertEqual(try value("{ z = 1; a = 2; m = 3; }").dictionaryValue?.keys, ["z", "a", "m"])
    }

    func testTopLevelValues() throws {
        XCTAssertEqual(try value("word"), .string("word"))
        XCTAssertEqual(try value(" \"quoted\" "), .string("quoted"))
        XCTAssertEqual(try value("(a)"), .array([.string("a")]))
        XCTAssertEqual(try value("<>"), .data([]))
        XCTAssertEqual(try value("<00 01\n\t02\r\n03\u{2028}04>"), .data([0, 1, 2, 3, 4]))
    }

    func testEmptyInputIsAnEmptyDictionary() throws {
        XCTAssertEqual(try value(""), dict([]))
        XCTAssertEqual(try value("  \n\t // only a comment\n /* and another */ "), dict([]))
    }

    func testStringsFiles() throws {
        let text = """
        /* Title of the window */
        "title" = "Archivist";
        greeting = 'Hello, "world"';
        "shortcut";
        ok;
        """
        XCTAssertEqual(try value(text), dict([("title", .string("Archivist")), ("greeting", .string("Hello, \"world\"")),
                                              ("shortcut", .string("shortcut")), ("ok", .string("ok"))]))
        XCTAssertEqual(try value("{ a; b = c; }"), dict([("a", .string("a")), ("b", .string("c"))]))
    }

    func testComments() throws {
        let text = "// leading\n{ /* a */ a /* b */ = // c\n ( x /* d */ , y ) /* e */ ; } // trailing"
        XCTAssertEqual(try value(text), dict([("a", .array([.string("x"), .string("y")]))]))
        // `//` inside an unquoted string is part of it.
        XCTAssertEqual(try value("{ a = http://x; }"), dict([("a", .string("http://x"))]))
        // An unterminated block comment runs to the end, as in Core Foundation.
        XCTAssertEqual(try value("(a) /* never closed"), .array([.string("a")]))
    }

    // MARK: - Escapes

    func testEscapes() throws {
        XCTAssertEqual(try value(#""\n\t\r\a\b\f\v \" \\ \' \q \/""#), .string("\n\t\r\u{7}\u{8}\u{C}\u{B} \" \\ ' q /"))
        XCTAssertEqual(try value("\"a\\\nb\""), .string("a\nb"))
        XCTAssertEqual(try value(#""\U00e9\U4E2D\UD83D\UDE00""#), .string("é中😀"))
        XCTAssertEqual(try value(#""\U41z \U z""#), .string("Az \u{0} z"), "\\U takes up to four hex digits")
        XCTAssertEqual(try value(#"'single \' quote'"#), .string("single ' quote"))
        XCTAssertEqual(try value("\"\\é\""), .string("é"))
    }

    func testOctalEscapesAreNeXTSTEPBytes() throws {
        XCTAssertEqual(try value(#""\101\60\0\1010""#), .string("A0\u{0}A0"))
        XCTAssertEqual(try value(#""\777""#), .string("\u{0}"), "wraps to 0xFF, which NeXTSTEP lacks")
        // Every byte, against Foundation's NeXTSTEP decoder.
        for byte in 0x80...0xFD {
            let escaped = "\"\\" + String(byte, radix: 8) + "\""
            let expected = String(bytes: [UInt8(byte)], encoding: .nextstep)
            XCTAssertEqual(try value(escaped).stringValue, expected, escaped)
        }
    }

    func testLoneSurrogateEscapes() throws {
        let document = try read("(\"\\UD800\", \"x\\UDC00\", \"\\UD83D\\U0041\")")
        XCTAssertEqual(document.tree.value, .array([.string("\u{FFFD}"), .string("x\u{FFFD}"), .string("\u{FFFD}A")]))
        XCTAssertEqual(document.diagnostics.map(\.kind), [.loneSurrogate, .loneSurrogate, .loneSurrogate])
        XCTAssertEqual(document.diagnostics.map(\.location), [.text(line: 1, column: 3), .text(line: 1, column: 14), .text(line: 1, column: 24)])
    }

    // MARK: - Encodings

    func testByteOrderMarksAndUTF16StringsFiles() throws {
        let text = "\"clé\" = \"valeur 😀\";\n"
        let expected = dict([("clé", .string("valeur 😀"))])
        let utf16 = Array(text.utf16)
        XCTAssertEqual(try OpenStepReader.read([0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).tree.value, expected)
        XCTAssertEqual(try OpenStepReader.read([0xFE, 0xFF] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }).tree.value, expected)
        XCTAssertEqual(try OpenStepReader.read([0xEF, 0xBB, 0xBF] + Array(text.utf8)).tree.value, expected)
        XCTAssertEqual(try OpenStepReader.read(Array(text.utf8)).tree.value, expected)
    }

    func testInvalidUTF8IsAnEncodingError() {
        for (bytes, line, column) in [([0x22, 0x61, 0xE9, 0x22], 1, 3), ([0x28, 0x61, 0x29, 0x0A, 0x2F, 0x2F, 0xFF], 2, 3),
                                      ([0x2F, 0x2A, 0xC0, 0x80, 0x2A, 0x2F], 1, 3)] as [([UInt8], Int, Int)] {
            XCTAssertThrowsError(try OpenStepReader.read(bytes)) { error in
                XCTAssertEqual((error as? PlistError)?.kind, .encoding, "\(bytes)")
                XCTAssertEqual((error as? PlistError)?.location, .text(line: line, column: column), "\(bytes)")
            }
        }
    }

    // MARK: - Duplicates and limits

    func testDuplicateKeysKeepTheLastValue() throws {
        let document = try read("{\n  a = 1;\n  b = 2;\n  a = 3;\n}")
        XCTAssertEqual(document.tree.value.dictionaryValue?.keys, ["a", "b"])
        XCTAssertEqual(document.tree.value.dictionaryValue?["a"], .string("3"))
        XCTAssertEqual(document.diagnostics.count, 1)
        XCTAssertEqual(document.diagnostics.first?.kind, .duplicateKey)
        XCTAssertEqual(document.diagnostics.first?.location, .text(line: 4, column: 3))
        XCTAssertEqual(document.diagnostics.first?.related, .text(line: 2, column: 3))
        // In a strings file too.
        XCTAssertEqual(try read("x = 1;\nx = 2;").diagnostics.map(\.location), [.text(line: 2, column: 1)])
    }

    func testDepthLimit() throws {
        let limit = Limits.default.maxDepth
        XCTAssertNoThrow(try read(String(repeating: "(", count: limit) + String(repeating: ")", count: limit)))
        let e = error(String(repeating: "(", count: limit + 1) + String(repeating: ")", count: limit + 1))
        XCTAssertEqual(e?.kind, .limitExceeded)
        XCTAssertEqual(e?.location, .text(line: 1, column: limit + 1))
        XCTAssertEqual(error(String(repeating: "{a=", count: limit + 1))?.kind, .limitExceeded)
    }

    func testHugeNestingFailsFastWithoutCrashing() {
        XCTAssertEqual(error(String(repeating: "(", count: 100_000))?.kind, .limitExceeded)
        XCTAssertEqual(error(String(repeating: "{ a = ", count: 100_000))?.kind, .limitExceeded)
    }

    func testObjectAndLengthLimits() {
        var limits = Limits()
        limits.maxObjects = 3
        XCTAssertEqual(error("(a, b, c)", limits: limits)?.kind, .limitExceeded)
        limits = Limits()
        limits.maxValueLength = 2
        XCTAssertEqual(error("<000102>", limits: limits)?.kind, .limitExceeded)
        XCTAssertEqual(error("\"abc\"", limits: limits)?.kind, .limitExceeded)
    }

    // MARK: - Errors

    func testErrorsAndTheirPositions() {
        let cases: [(String, Int, Int, String)] = [
            ("{ a = b }", 1, 9, "missing ';' after the value of key \"a\""),
            ("{ a = b;\n  c d; }", 2, 5, "expected '=' or ';' after the key"),
            ("{ a = ; }", 1, 7, "expected a value"),
            ("{ a = b; ; }", 1, 10, "expected a key or '}'"),
            ("{ <00> = a; }", 1, 3, "expected a key or '}'"),
            ("(a, , b)", 1, 5, "expected a value"),
            ("(a b)", 1, 4, "expected ',' or ')'"),
            ("(a,\n b", 2, 3, "in the array that starts at 1:1"),
            ("{ a = (\n", 2, 1, "in the array that starts at 1:7"),
            ("{ a = b;", 1, 9, "in the dictionary that starts at 1:1"),
            ("{ a = \"b; }", 1, 7, "unterminated string"),
            ("'abc", 1, 1, "unterminated string"),
            ("\"abc\\", 1, 1, "unterminated string"),
            ("<0fb d>", 1, 5, "odd number of hexadecimal digits"),
            ("<0fbd", 1, 1, "unterminated data"),
            ("<0g>", 1, 3, "odd number of hexadecimal digits"),
            ("<zz>", 1, 2, "unexpected 'z' in data"),
            ("{ a = b; } c", 1, 12, "after the property list"),
            ("(a) (b)", 1, 5, "after the property list"),
            ("\"a\" \"b\"", 1, 5, "expected '=' or ';' after the key"),
            ("a = b; }", 1, 8, "expected a key or the end of the strings file"),
            ("a = b", 1, 6, "missing ';' after the value of key \"a\""),
            ("+", 1, 1, "unexpected '+', expected a value"),
            ("\u{7F}", 1, 1, "unexpected U+007F"),
            ("{ a = b;\r\n  c = [x]; }", 2, 7, "unexpected '['"),
        ]
        ReadError.assertSyntaxErrors(cases) { try read($0) }
    }

    /// Core Foundation accepts and rejects the same texts as we do (the one
    /// deliberate difference, junk after a strings file, is left out).
    func testAgreesWithFoundation() throws {
        let accepted = [
            "{ a = b; c = (1, 2, ); d = <00ff>; e = { }; }", "( )", "( a, )", "\"x\" = y;", "k;", "word",
            "{ \"\\U00e9\\101\\n\" = 'q\\\"'; }", "{ a = ( { b = c; }, <> ); }", "//c\n(a)/*x*/",
            "{ 1 = 2; 3.5 = -4; $x:y/z = a_b.c-d; }", "(\"\\UD83D\\UDE00\")",
        ]
        for text in accepted {
            let ours = try value(text)
            XCTAssertEqual(ours, try FoundationBridge.foundationRead(Array(text.utf8)), text)
        }
        let rejected = ["{ a = b }", "(a b)", "{ a = }", "<0>", "<xy>", "(a,,b)", "{ a = b; } x", "\"open", "{ (a) = b; }", "a = b"]
        for text in rejected {
            XCTAssertThrowsError(try read(text), text)
            XCTAssertThrowsError(try FoundationBridge.foundationRead(Array(text.utf8)), "Foundation: \(text)")
        }
    }
}
