import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistCore

final class JSONReaderTests: XCTestCase {
    private func read(_ text: String, limits: Limits = .default) throws -> PlistDocument {
        try JSONPlistReader.read(Array(text.utf8), options: ReadOptions(limits: limits))
    }

    private func value(_ text: String) throws -> PlistValue {
        try read(text).tree.value
    }

    /// The error reading `text`, or a failure when it reads.
    private func error(_ text: String, limits: Limits = .default, file: StaticString = #filePath, line: UInt = #line) -> PlistError? {
        ReadError.of(text, file: file, line: line) { try read(text, limits: limits) }
    }

    // MARK: - Values

    func testScalarsAndContainers() throws {
        XCTAssertEqual(try value(#" {"s": "x", "t": true, "f": false, "i": 42, "r": 2.5, "a": [], "d": {}} "#),
                       .dictionary(PlistDictionary([("s", .string("x")), ("t", .bool(true)), ("f", .bool(false)), ("i", .int(42)),
                                                    ("r", .double(2.5)), ("a", .array([])), ("d", .dictionary(PlistDictionary()))])))
        XCTAssertEqual(try value(#"[1, [2, [3, {"k": [4]}]]]"#),
                       .array([.int(1), .array([.int(2), .array([.int(3), .dictionary(PlistDictionary([("k", .array([.int(4)]))]))])])]))
        XCTAssertEqual(try value(#""top-level string""#), .string("top-level string"))
        XCTAssertEqual(try value("\t\r\n 7 \n"), .int(7))
    }

    func testObjectKeepsKeyOrder() throws {
        let dict = try XCTUnwrap(try value(#"{"z": 1, "a": 2, "m": 3, "é": 4}"#).dictionaryValue)
        XCTAssertEqual(dict.keys, ["z", "a", "m", "é"])
    }

    func testIntegersAtTheEdges() throws {
        XCTAssertEqual(try value("9223372036854775807"), .integer(PlistInteger(Int64.max)))
        XCTAssertEqual(try value("-9223372036854775808"), .integer(PlistInteger(Int64.min)))
        XCTAssertEqual(try value("18446744073709551615"), .integer(PlistInteger(UInt64.max)))
        XCTAssertEqual(try value("9223372036854775808"), .integer(PlistInteger(UInt64(1) << 63)))
        XCTAssertEqual(try value("0"), .int(0))
        XCTAssertEqual(try value("-0"), .int(0))
        // Beyond the integer range: a real, correctly rounded.
        XCTAssertEqual(try value("18446744073709551616"), .double(18446744073709551616.0))
        XCTAssertEqual(try value("-9223372036854775809"), .double(-9223372036854775809.0))
        XCTAssertEqual(try value("123456789012345678901234567890"), .double(1.2345678901234568e29))
        if case .real = try value("18446744073709551616") {} else { XCTFail("not a real") }
    }

    /// An integer beyond 64 bits is read as the real Foundation's
    /// `JSONSerialization` reads, with a diagnostic that says so and where;
    /// integers in range and numbers written as reals have none.
    func testIntegersBeyond64BitsAreFlagged() throws {
        let text = "{\n  \"ok\": 18446744073709551615,\n  \"big\": 123456789012345678901234567890,\n  \"r\": [1e30, 1.5, -9223372036854775809]\n}"
        let document = try read(text)
        let foundation = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let dict = try XCTUnwrap(document.tree.value.dictionaryValue)
        XCTAssertEqual(dict["big"], .double(try XCTUnwrap(foundation["big"] as? NSNumber).doubleValue))
        XCTAssertEqual(dict["r"]?.arrayValue?[2], .double(try XCTUnwrap((foundation["r"] as? [NSNumber])?[2]).doubleValue))
        XCTAssertEqual(document.diagnostics.map(\.kind), [.integerBeyond64Bits, .integerBeyond64Bits])
        XCTAssertEqual(document.diagnostics.map(\.location), [.text(line: 3, column: 10), .text(line: 4, column: 20)])
        XCTAssertEqual(document.diagnostics.first?.message,
                       "integer 123456789012345678901234567890 does not fit in 64 bits; Apple's parsers read it as the real 1.2345678901234568e+29")
        XCTAssertTrue(document.diagnostics.allSatisfy(\.kind.isWarning))
        XCTAssertEqual(try read("[18446744073709551615, -9223372036854775808, 1e30, 0.5]").diagnostics, [])
    }

    func testReals() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("-2.5", -2.5), ("1e2", 100), ("1E2", 100), ("1e+2", 100), ("2.5e-3", 0.0025),
            ("1.7976931348623157e308", .greatestFiniteMagnitude), ("5e-324", .leastNonzeroMagnitude), ("4.9e-324", .leastNonzeroMagnitude),
            ("1e-400", 0), ("0.30000000000000004", 0.30000000000000004), ("9007199254740993", 9007199254740992),
            ("9007199254740993.0", 9007199254740992), ("123456789012345678.5", 123456789012345680),
            // Exactly halfway between 1 and the next double: ties to even; a hair above rounds up.
            ("1.00000000000000011102230246251565404236316680908203125", 1.0),
            ("1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002),
        ]
        for (text, expected) in cases {
            guard case .real(let r) = try value(text) else {
                if text != "9007199254740993" { XCTFail("\(text) is not a real") }
                continue
            }
            XCTAssertEqual(r.value.bitPattern, expected.bitPattern, text)
            XCTAssertEqual(r.width, .bits64)
        }
        guard case .real(let negativeZero) = try value("-0.0") else { return XCTFail("-0.0 is not a real") }
        XCTAssertEqual(negativeZero.value.sign, .minus)
    }

    /// The fast path must round exactly as `strtod` does (Swift's `Double(String)`).
    func testRealsRoundLikeStrtod() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...20, using: &generator)
            var mantissa = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digits { mantissa += String(Int.random(in: 0...9, using: &generator)) }
            let point = Int.random(in: 1...digits, using: &generator)
            var text = point == digits ? mantissa : mantissa.prefix(point) + "." + mantissa.dropFirst(point)
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -40...40, using: &generator))" }
            if Bool.random(using: &generator) { text = "-" + text }
            guard text.contains(".") || text.contains("e") else { continue }
            guard case .real(let r) = try value(text) else { XCTFail(text); continue }
            XCTAssertEqual(r.value.bitPattern, Double(text)?.bitPattern, text)
        }
    }

    func testRealOutOfRangeIsAnError() {
        let e = error("[1, 1e400]")
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.location, .text(line: 1, column: 5))
        XCTAssertEqual(error("-1e309")?.kind, .invalidValue)
        XCTAssertEqual(error("1" + String(repeating: "0", count: 400))?.kind, .invalidValue)
    }

    func testEscapes() throws {
        XCTAssertEqual(try value(#""\" \\ \/ \b \f \n \r \t""#), .string("\" \\ / \u{8} \u{C} \n \r \t"))
        XCTAssertEqual(try value(#""\u0041\u00e9\u4E2D\u0000""#), .string("Aé中\u{0}"))
        XCTAssertEqual(try value(#""\ud83d\ude00 and \uD834\uDD1E""#), .string("😀 and 𝄞"))
        XCTAssertEqual(try value(#""plain é 😀 ascii""#), .string("plain é 😀 ascii"))
        XCTAssertEqual(try read(#""\ud83d\ude00""#).diagnostics, [])
    }

    func testLoneSurrogatesBecomeReplacementCharacters() throws {
        let document = try read("[\"a\\ud800b\",\n \"\\udc00\", \"\\ud800\\u0041\"]")
        XCTAssertEqual(document.tree.value, .array([.string("a\u{FFFD}b"), .string("\u{FFFD}"), .string("\u{FFFD}A")]))
        XCTAssertEqual(document.diagnostics.map(\.kind), [.loneSurrogate, .loneSurrogate, .loneSurrogate])
        XCTAssertEqual(document.diagnostics.map(\.location), [.text(line: 1, column: 4), .text(line: 2, column: 3), .text(line: 2, column: 13)])
        XCTAssertTrue(document.diagnostics[0].message.contains("D800"), document.diagnostics[0].message)
    }

    func testDuplicateKeysKeepTheLastValueInPlace() throws {
        let document = try read("{\"a\": 1, \"b\": 2,\n \"a\": 3}")
        let dict = try XCTUnwrap(document.tree.value.dictionaryValue)
        XCTAssertEqual(dict.keys, ["a", "b"])
        XCTAssertEqual(dict["a"], .int(3))
        XCTAssertEqual(document.diagnostics.count, 1)
        XCTAssertEqual(document.diagnostics.first?.kind, .duplicateKey)
        XCTAssertEqual(document.diagnostics.first?.location, .text(line: 2, column: 2))
        XCTAssertEqual(document.diagnostics.first?.related, .text(line: 1, column: 2))
    }

    func testDuplicateKeysInLargeObjects() throws {
        let members = (0..<100).map { "\"k\($0)\": \($0)" } + ["\"k7\": -1", "\"k99\": -2"]
        let document = try read("{" + members.joined(separator: ", ") + "}")
        let dict = try XCTUnwrap(document.tree.value.dictionaryValue)
        XCTAssertEqual(dict.count, 100)
        XCTAssertEqual(dict["k7"], .int(-1))
        XCTAssertEqual(dict["k99"], .int(-2))
        XCTAssertEqual(dict.keys.last, "k99")
        XCTAssertEqual(document.diagnostics.map(\.kind), [.duplicateKey, .duplicateKey])
    }

    func testCanonicallyEquivalentKeysStayDistinct() throws {
        // Core Foundation compares keys by UTF-16 code units, not canonical equivalence.
        let document = try read("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
        XCTAssertEqual(document.tree.value.dictionaryValue?.keys.map { Array($0.unicodeScalars) }, [["\u{E9}"], ["e", "\u{301}"]])
        XCTAssertEqual(document.diagnostics, [])
    }

    func testNullIsNotRepresentable() {
        let e = error("{\"a\": [1,\n  null]}")
        XCTAssertEqual(e?.kind, .notRepresentable)
        XCTAssertEqual(e?.message, "null has no property-list equivalent")
        XCTAssertEqual(e?.location, .text(line: 2, column: 3))
    }

    // MARK: - Encodings

    func testByteOrderMarksAndUTF16() throws {
        let expected = PlistValue.dictionary(PlistDictionary([("k", .string("é😀"))]))
        let text = "{\"k\": \"é😀\"}"
        XCTAssertEqual(try JSONPlistReader.read([0xEF, 0xBB, 0xBF] + Array(text.utf8)).tree.value, expected)
        let utf16 = Array(text.utf16)
        let le = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        XCTAssertEqual(try JSONPlistReader.read([0xFF, 0xFE] + le).tree.value, expected)
        XCTAssertEqual(try JSONPlistReader.read([0xFE, 0xFF] + be).tree.value, expected)
        XCTAssertEqual(try JSONPlistReader.read(le).tree.value, expected, "UTF-16LE without a BOM")
        XCTAssertEqual(try JSONPlistReader.read(be).tree.value, expected, "UTF-16BE without a BOM")
        let utf32 = text.unicodeScalars.flatMap { s -> [UInt8] in
            let v = s.value
            return [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        XCTAssertEqual(try JSONPlistReader.read([0, 0, 0xFE, 0xFF] + utf32).tree.value, expected)
        XCTAssertEqual(try JSONPlistReader.read(utf32).tree.value, expected, "UTF-32BE without a BOM")
        let utf32LE = stride(from: 0, to: utf32.count, by: 4).flatMap { Array(utf32[$0..<$0 + 4].reversed()) }
        XCTAssertEqual(try JSONPlistReader.read([0xFF, 0xFE, 0, 0] + utf32LE).tree.value, expected)
        XCTAssertEqual(try JSONPlistReader.read(utf32LE).tree.value, expected, "UTF-32LE without a BOM")
    }

    func testInvalidUTF8IsAnEncodingError() {
        for (bytes, column) in [([0x22, 0x61, 0xC3, 0x28, 0x22], 3), ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),
                                ([0x22, 0xC0, 0xAF, 0x22], 2), ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),
                                ([0x22, 0x61, 0x62, 0xE2, 0x82], 4)] as [([UInt8], Int)] {
            XCTAssertThrowsError(try JSONPlistReader.read(bytes)) { error in
                XCTAssertEqual((error as? PlistError)?.kind, .encoding, "\(bytes)")
                XCTAssertEqual((error as? PlistError)?.location, .text(line: 1, column: column), "\(bytes)")
            }
        }
    }

    // MARK: - Errors

    func testSyntaxErrorsAndTheirPositions() {
        let cases: [(String, Int, Int, String)] = [
            ("", 1, 1, "no JSON value"),
            ("   \n  ", 2, 3, "no JSON value"),
            ("{\"a\": 1,}", 1, 8, "trailing comma before '}'"),
            ("[1, 2,\n]", 1, 6, "trailing comma before ']'"),
            ("[1 2]", 1, 4, "expected ',' or ']'"),
            ("{\"a\" 1}", 1, 6, "expected ':'"),
            ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
            ("{a: 1}", 1, 2, "expected a string key"),
            ("{\"a\": 1} x", 1, 10, "after the top-level value"),
            ("[01]", 1, 2, "leading zeros"),
            ("[-]", 1, 3, "expected a digit after '-'"),
            ("[1.]", 1, 4, "after the decimal point"),
            ("[.5]", 1, 2, "unexpected '.'"),
            ("[1e]", 1, 4, "in the exponent"),
            ("[+1]", 1, 2, "unexpected '+'"),
            ("[tru]", 1, 2, "expected a value"),
            ("[True]", 1, 2, "unexpected 'T'"),
            ("[\"a\tb\"]", 1, 4, "unescaped control character U+0009"),
            ("\"ab", 1, 1, "unterminated string"),
            ("\"ab\\", 1, 1, "unterminated string"),
            ("\"\\x\"", 1, 2, "invalid escape"),
            ("\"\\u12G4\"", 1, 2, "invalid \\u escape"),
            ("\"\\u12\"", 1, 2, "invalid \\u escape"),
            ("[1,\n  [2,\n    {", 3, 6, "unexpected end of input"),
            ("[1", 1, 3, "in the array that starts at 1:1"),
            ("{\"a\":1", 1, 7, "in the object that starts at 1:1"),
            ("'a'", 1, 1, "unexpected '''"),
            ("\u{7F}", 1, 1, "unexpected U+007F"),
            ("[1]\r\n\r\n]", 3, 1, "after the top-level value"),
        ]
        ReadError.assertSyntaxErrors(cases) { try read($0) }
    }

    func testDepthLimit() throws {
        let limit = Limits.default.maxDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        XCTAssertNoThrow(try read(ok))
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        XCTAssertEqual(error(tooDeep)?.kind, .limitExceeded)
        XCTAssertEqual(error(tooDeep)?.location, .text(line: 1, column: limit + 1))
        XCTAssertEqual(error(String(repeating: "{\"a\":", count: limit + 1))?.kind, .limitExceeded)

        var small = Limits()
        small.maxDepth = 3
        XCTAssertEqual(error("[[[[1]]]]", limits: small)?.kind, .limitExceeded)
        XCTAssertNoThrow(try read("[[[1]]]", limits: small))
    }

    func testHugeNestingFailsFastWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertEqual(error(deep)?.kind, .limitExceeded)
        // The parser does not recurse: a limit beyond the default reads deeper
        // input (kept moderate, as releasing a tree is recursive).
        var generous = Limits()
        generous.maxDepth = 5_000
        let nested = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        XCTAssertNoThrow(try read(nested, limits: generous))
    }

    func testObjectAndLengthLimits() {
        var limits = Limits()
        limits.maxObjects = 3
        XCTAssertEqual(error("[1, 2, 3]", limits: limits)?.kind, .limitExceeded)
        limits = Limits()
        limits.maxValueLength = 4
        XCTAssertEqual(error("[\"abcde\"]", limits: limits)?.kind, .limitExceeded)
        XCTAssertEqual(error("[\"ab\\ncde\"]", limits: limits)?.kind, .limitExceeded)
    }
}
