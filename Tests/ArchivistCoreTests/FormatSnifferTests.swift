import XCTest
@testable import ArchivistCore

final class FormatSnifferTests: XCTestCase {
    private func guess(_ bytes: [UInt8]) -> FormatSniffer.Guess {
        bytes.withUnsafeBytes { FormatSniffer.guess($0) }
    }

    private func guess(_ text: String) -> FormatSniffer.Guess { guess(Array(text.utf8)) }

    func testBinary() {
        XCTAssertEqual(guess(Array("bplist00".utf8) + [0, 1, 2]), .format(.binary))
        XCTAssertEqual(guess("bplist15xyz"), .unsupportedBinary(version: "15"))
        XCTAssertEqual(guess("bplist"), .unsupportedBinary(version: ""))
    }

    func testXML() {
        XCTAssertEqual(guess("<?xml version=\"1.0\"?><plist/>"), .format(.xml))
        XCTAssertEqual(guess("\n  <plist version=\"1.0\"><dict/></plist>"), .format(.xml))
        XCTAssertEqual(guess("<!DOCTYPE plist>"), .format(.xml))
        XCTAssertEqual(guess([0xEF, 0xBB, 0xBF] + Array("<?xml?>".utf8)), .format(.xml))
        XCTAssertEqual(guess([0x3C, 0x00, 0x3F, 0x00]), .format(.xml), "UTF-16LE without a BOM")
        XCTAssertEqual(guess([0xFE, 0xFF, 0x00, 0x3C, 0x00, 0x3F]), .format(.xml), "UTF-16BE with a BOM")
    }

    func testJSON() {
        XCTAssertEqual(guess("[1, 2]"), .format(.json))
        XCTAssertEqual(guess(" {\"a\": 1}"), .format(.json))
        XCTAssertEqual(guess("{ \"a\\\"b\" :1}"), .format(.json))
        let utf16LE = Array("{\"a\": 1}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        XCTAssertEqual(guess(utf16LE), .format(.json), "UTF-16LE without a BOM (RFC 4627)")
        XCTAssertEqual(guess([0xFF, 0xFE] + utf16LE), .format(.json))
        let utf32BE: [UInt8] = "[1]".unicodeScalars.flatMap { s -> [UInt8] in [0, 0, 0, UInt8(s.value)] }
        XCTAssertEqual(guess(utf32BE), .format(.json), "UTF-32BE without a BOM")
    }

    func testOpenStep() {
        for text in ["(a, b)", "<0fbd 7777>", "<ABCD>", "// comment\n{}", "/* c */ (a)", "{ a = b; }", "{ \"a\" = b; }",
                     "{ \"a\"; }", "\"key\" = \"value\";", "'quoted'", "STRINGS_ENTRY = \"x\";", "word", "nothing", "trueish = 1;",
                     "$x = y;", "\u{7F}", "é = x;", "{ 'a' = b; }"] {
            XCTAssertEqual(guess(text), .format(.openstep), text.debugDescription)
        }
    }

    func testAmbiguousTextTriesJSONThenOpenStep() {
        for text in ["", "  \n", "{}", "{ }", "\"just a string\"", "123", "-1.5", "1.2.3", "true", "false", "null", "{\"a\"}", "{\"a\" x"] {
            XCTAssertEqual(guess(text), .jsonOrOpenStep, text.debugDescription)
        }
    }

    // MARK: - Reading through detection

    private func read(_ text: String) throws -> PlistDocument { try PropertyList.read(Array(text.utf8)) }

    func testAmbiguousTextReadsAsJSONWhenItIsJSON() throws {
        XCTAssertEqual(try read("123").tree.value, .int(123))
        XCTAssertEqual(try read("123").format, .json)
        XCTAssertEqual(try read("true").tree.value, .bool(true))
        XCTAssertEqual(try read("\"s\"").format, .json)
        XCTAssertEqual(try read("{}").format, .json)
    }

    func testAmbiguousTextFallsBackToOpenStep() throws {
        XCTAssertEqual(try read("1.2.3").tree.value, .string("1.2.3"))
        XCTAssertEqual(try read("1.2.3").format, .openstep)
        // A zero-length file is no property list (Foundation rejects it too);
        // a .strings file of only a comment is an empty dictionary.
        XCTAssertThrowsError(try read(""))
        XCTAssertEqual(try read("/* empty */\n").tree.value, .dictionary(PlistDictionary()))
        XCTAssertEqual(try read("1 = one;\n2 = two;").tree.value, .dictionary(PlistDictionary([("1", .string("one")), ("2", .string("two"))])))
    }

    /// Text that is neither: the error comes from the reader that got further,
    /// so a broken JSON file gets a JSON error and a broken strings file an
    /// OpenStep error.
    func testErrorsOfTheLikelierFormat() throws {
        let jsonLike = "{\"a\" 1}"
        XCTAssertEqual(guess(jsonLike), .jsonOrOpenStep)
        XCTAssertThrowsError(try read(jsonLike)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.syntax, "unexpected '1', expected ':' after an object key", at: .text(line: 1, column: 6)))
        }
        let openStepLike = "1 = one;\n2 = two\n3 = three;"
        XCTAssertEqual(guess(openStepLike), .jsonOrOpenStep)
        XCTAssertThrowsError(try read(openStepLike)) { error in
            XCTAssertEqual((error as? PlistError)?.location, .text(line: 3, column: 1))
            XCTAssertTrue((error as? PlistError)?.message.contains("missing ';'") ?? false, "\(error)")
        }
        // A JSON number with junk after it: JSON stops at once, OpenStep reads on.
        XCTAssertThrowsError(try read("12 x")) { error in
            XCTAssertEqual((error as? PlistError)?.location, .text(line: 1, column: 4))
        }
    }

    func testLikelierErrorRule() {
        let json = PlistError(.syntax, "j", at: .text(line: 2, column: 5))
        XCTAssertEqual(PropertyList.likelierError(json: json, openStep: PlistError(.syntax, "o", at: .text(line: 2, column: 5))), json)
        XCTAssertEqual(PropertyList.likelierError(json: json, openStep: PlistError(.syntax, "o", at: .text(line: 1, column: 90))), json)
        let further = PlistError(.syntax, "o", at: .text(line: 3, column: 1))
        XCTAssertEqual(PropertyList.likelierError(json: json, openStep: further), further)
        let limit = PlistError(.limitExceeded, "deep", at: .text(line: 1, column: 1))
        XCTAssertEqual(PropertyList.likelierError(json: limit, openStep: further), limit)
    }

    /// Comments do not decide: JSON after a comment is JSON (whose reader then
    /// says JSON has no comments), anything else after one is OpenStep.
    func testCommentsBeforeJSON() throws {
        XCTAssertEqual(guess("// exported\n[1, 2]"), .format(.json))
        XCTAssertEqual(guess("/* a */ // b\n{ \"a\": 1 }"), .format(.json))
        XCTAssertEqual(guess("{\n  // the theme\n  \"theme\": \"dark\"\n}"), .format(.json))
        XCTAssertEqual(guess("{ /* c */ \"a\" = b; }"), .format(.openstep))
        XCTAssertEqual(guess("// only a comment"), .format(.openstep))
        XCTAssertThrowsError(try read("{\n  // the theme\n  \"theme\": \"dark\"\n}")) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.syntax, "JSON has no comments: remove the comment that starts here (expected a string key)",
                                                            at: .text(line: 2, column: 3)))
        }
    }

    /// Binary data that is not a property list (a PNG) says so, rather than
    /// what a text reader made of its first byte; text that goes wrong later
    /// keeps its located error.
    func testBinaryDataIsNotAPropertyList() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        XCTAssertThrowsError(try PropertyList.read(png)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.syntax, "not a property list: binary data that is neither a binary plist (bplist00) nor text",
                                                            at: .binary(offset: 0, object: nil)))
        }
        XCTAssertThrowsError(try PropertyList.read(Array("[1, 2".utf8) + [0])) { error in
            XCTAssertEqual((error as? PlistError)?.location, .text(line: 1, column: 6))
        }
    }
}
