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
            XCTAssertEqual(error as? PlistError, PlistError(.unsupported, "not a property list: a PNG image, which Archivist does not read"))
        }
        // Binary data of no kind the sniffer knows.
        let unknown: [UInt8] = [0x93, 0x11, 0, 7, 0x42, 0, 0, 1]
        XCTAssertThrowsError(try PropertyList.read(unknown)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.syntax, "not a property list: binary data that is neither a binary plist (bplist00) nor text",
                                                            at: .binary(offset: 0, object: nil)))
        }
        XCTAssertThrowsError(try PropertyList.read(Array("[1, 2".utf8) + [0])) { error in
            XCTAssertEqual((error as? PlistError)?.location, .text(line: 1, column: 6))
        }
    }

    private func kind(_ bytes: [UInt8]) -> FormatSniffer.Kind? {
        bytes.withUnsafeBytes { FormatSniffer.kind($0) }
    }

    private func kind(_ text: String, then bytes: [UInt8] = []) -> FormatSniffer.Kind? { kind(Array(text.utf8) + bytes) }

    /// Every kind the sniffer names, from generated bytes laid out as each
    /// format's documentation lays them out.
    func testKindsByTheirSignatures() {
        XCTAssertEqual(kind("NIBArchive", then: [1, 0, 0, 0, 9, 0, 0, 0, 0x2C, 0, 0, 0]), .nibArchive)
        // ContentInfo: SEQUENCE (definite, or BER indefinite), OID 1.2.840.113549.1.7.2.
        let signedData: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x80]
        XCTAssertEqual(kind([0x30, 0x82, 0x1D, 0x33] + signedData), .signedEnvelope)
        XCTAssertEqual(kind([0x30, 0x80] + signedData), .signedEnvelope)
        XCTAssertEqual(kind([0x30, 0x2F] + signedData), .signedEnvelope)
        var envelopedData = signedData
        envelopedData[10] = 0x03
        XCTAssertNil(kind([0x30, 0x82, 0x1D, 0x33] + envelopedData), "only SignedData")
        XCTAssertEqual(kind([0, 0, 0, 1] + Array("Bud1".utf8) + [0, 0, 0x20, 0]), .dsStore)
        XCTAssertEqual(kind("cook", then: [0, 0, 0, 1, 0, 0, 0, 0x7D]), .binaryCookies)
        // Binary cookie stores, .DS_Store and bookmark files are read; a signed
        // envelope's property list is read by the command (ArchivistSigned); the other kinds are named.
        XCTAssertEqual(FormatSniffer.Kind.allCases.filter(\.isRead), [.dsStore, .binaryCookies, .bookmark, .finderAlias])
        XCTAssertEqual(FormatSniffer.Kind.binaryCookies.notReadNote, "")
        XCTAssertEqual(FormatSniffer.Kind.dsStore.notReadNote, "")
        XCTAssertTrue(FormatSniffer.Kind.signedEnvelope.notReadNote.contains("the archivist command reads"))
        XCTAssertEqual(FormatSniffer.Kind.bookmark.notReadNote, "")
        XCTAssertEqual(FormatSniffer.Kind.alias.notReadNote, ", which Archivist does not read yet")
        // A bookmark file reads as a document whose root is its data, byte for byte.
        let bookmark = Array("book".utf8) + [0, 0, 0, 0] + Array("mark".utf8) + [UInt8](repeating: 0, count: 20)
        XCTAssertEqual(try PropertyList.read(bookmark).tree.value, .data(bookmark))
        XCTAssertEqual(kind("book", then: [0xCC, 2, 0, 0, 0, 0, 4, 0x10, 0x30, 0, 0, 0]), .bookmark)
        XCTAssertEqual(kind("book", then: [0, 0, 0, 0] + Array("mark".utf8) + [0, 0, 0, 0]), .finderAlias)
        var alias = [UInt8](repeating: 0, count: 202)
        alias[5] = 202; alias[7] = 2; alias[10] = 4
        XCTAssertEqual(kind(alias), .alias)
        alias[7] = 9
        XCTAssertNotEqual(kind(alias), .alias, "version 2 or 3 only")
        XCTAssertEqual(kind("SQLite format 3\u{0}", then: [0x10, 0]), .sqlite)
        XCTAssertEqual(kind([0x1F, 0x8B, 8, 0]), .gzip)
        XCTAssertEqual(kind("PK", then: [3, 4, 20, 0]), .zip)
        XCTAssertEqual(kind("PK", then: [5, 6, 0, 0]), .zip)
        XCTAssertEqual(kind([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0, 4]), .xz)
        XCTAssertEqual(kind("BOMStore", then: [0, 0, 0, 1, 0, 0, 0, 0x20]), .bom)
        XCTAssertEqual(kind("AEA1", then: [1, 0, 0, 0, 0x10, 0, 0, 0]), .aea)
        XCTAssertEqual(kind([0xCF, 0xFA, 0xED, 0xFE, 7, 0, 0, 1]), .machO)
        XCTAssertEqual(kind([0xFE, 0xED, 0xFA, 0xCE, 0, 0, 0, 18]), .machO)
        XCTAssertEqual(kind([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2]), .universalMachO)
        XCTAssertNil(kind([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52]), "a Java class file")
        XCTAssertEqual(kind([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]), .elf)
        XCTAssertEqual(kind([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), .png)
        XCTAssertEqual(kind([0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(kind("GIF89a", then: [1, 0, 1, 0]), .gif)
        XCTAssertEqual(kind([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0]), .heif)
        XCTAssertEqual(kind([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]), .tiff)
        XCTAssertEqual(kind([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]), .tiff)
        XCTAssertEqual(kind("%PDF-1.7\n"), .pdf)
        for k in FormatSniffer.Kind.allCases {
            XCTAssertFalse(k.name.isEmpty)
            XCTAssertFalse(k.shortName.hasPrefix("a "), k.shortName)
        }
    }

    /// Bytes laid out both as an alias record and as another kind are the
    /// kind checked first: cookies and bookmarks (with nibs, signed
    /// envelopes and .DS_Store files, whose signatures cannot share an alias
    /// record's bytes) before alias records, alias records before the rest.
    func testAliasRecordsAreCheckedBetweenTheOtherKinds() {
        // An alias record: size 202 at 4, version 2 at 6, kind 0 at 8, a short volume name at 10.
        func aliasLayout(_ head: [UInt8]) -> [UInt8] {
            var bytes = head + [UInt8](repeating: 0, count: 202 - head.count)
            bytes[4] = 0; bytes[5] = 202; bytes[6] = 0; bytes[7] = 2; bytes[8] = 0; bytes[9] = 0; bytes[10] = 4
            return bytes
        }
        // Signatures of four bytes or fewer leave room for the record's fields:
        // gzip with that mtime, no extra flags and OS 0 (FAT), a Mach-O, a zip...
        for head: [UInt8] in [[0x1F, 0x8B, 8, 0], [0xFE, 0xED, 0xFA, 0xCE], [0x50, 0x4B, 3, 4], [0x7F, 0x45, 0x4C, 0x46],
                              [0xFF, 0xD8, 0xFF, 0xE0], [0x49, 0x49, 0x2A, 0x00]] {
            XCTAssertEqual(kind(aliasLayout(head)), .alias, "\(head)")
        }
        // ...while cookies and bookmark data, checked before, stay themselves.
        XCTAssertEqual(kind(aliasLayout(Array("cook".utf8))), .binaryCookies)
        var bookmark = aliasLayout(Array("book".utf8))
        bookmark[12] = 0
        XCTAssertEqual(kind(bookmark), .bookmark)
    }

    /// The plist family, text and words that begin like a signature are no
    /// other kind: they are read, and a broken one keeps its located error.
    func testPropertyListsAndTextAreNoOtherKind() throws {
        for text in ["bplist00", "<?xml version=\"1.0\"?><plist/>", "{ a = b; }", "(1, 2)", "\"k\" = \"v\";", "[1]",
                     "book = 1;", "cook", "GIF89a", "NIBArchive", "BOMStore = x;", "AEA1", "0", "hello, world"] {
            XCTAssertNil(kind(text), text)
        }
        XCTAssertNil(kind([4, 11] + Array("streamtyped".utf8) + [0x81, 0xE8, 3]), "a typedstream")
        XCTAssertEqual(try PropertyList.read(Array("book = 1;".utf8)).format, .openstep)
        XCTAssertEqual(try PropertyList.read(Array("GIF89a".utf8)).format, .openstep)
        // A broken plist is not named: it keeps its syntax error.
        XCTAssertThrowsError(try PropertyList.read(Array("{ a = b;".utf8))) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .syntax)
        }
    }

    /// A folder walk takes the formats Archivist reads by their first bytes.
    func testArchivistSignatures() {
        func starts(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { FormatSniffer.startsWithArchivistSignature($0) } }
        XCTAssertTrue(starts(Array("bplist00".utf8)))
        XCTAssertTrue(starts(Array("\n  <?xml version=\"1.0\"?>".utf8)))
        XCTAssertTrue(starts(Array("<plist version=\"1.0\">".utf8)))
        XCTAssertTrue(starts([0xFF, 0xFE] + Array("<?xml".utf8).flatMap { [$0, 0] }), "UTF-16 XML")
        XCTAssertTrue(starts([4, 11] + Array("streamtyped".utf8) + [0x81, 0xE8, 3]))
        XCTAssertTrue(starts(Array("NIBArchive".utf8) + [1, 0, 0, 0, 9, 0, 0, 0]))
        XCTAssertTrue(starts(Array("SQLite format 3\u{0}".utf8)))
        XCTAssertTrue(starts([0, 0, 0, 1] + Array("Bud1".utf8)))
        XCTAssertFalse(starts(Array("{\"a\": 1}".utf8)))
        XCTAssertFalse(starts(Array("<html><body/></html>".utf8)))
        XCTAssertFalse(starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        XCTAssertFalse(starts([0x1F, 0x8B, 8, 0]))
    }
}
