import Foundation
import XCTest
@testable import ArchivistCore

/// The XML CoreFoundation reads and XML 1.0 does not allow: control
/// characters and U+FFFE/U+FFFF raw or as references in string and key text,
/// whitespace before the XML declaration, controls in comments and `<data>`.
/// Foundation on Linux is the oracle: both of Archivist's XML paths give its
/// tree, or refuse what it refuses.
final class XMLCoreFoundationTextTests: XCTestCase {
    private static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n"

    private func document(_ body: [UInt8]) -> [UInt8] {
        Array(Self.head.utf8) + body + Array("\n</plist>\n".utf8)
    }

    /// `body` in a `<string>`, and in a `<key>` of a dictionary.
    private func inStringAndKey(_ body: [UInt8]) -> [[UInt8]] {
        [document(Array("<string>".utf8) + body + Array("</string>".utf8)),
         document(Array("<dict><key>".utf8) + body + Array("</key><string>v</string></dict>".utf8))]
    }

    /// The same input with a CR in a string, which sends it to libxml2's path
    /// even with the direct reader allowed.
    private func withCarriageReturn(_ bytes: [UInt8]) -> [UInt8] {
        let marker = Array("<plist version=\"1.0\">\n".utf8)
        guard let range = bytes.firstRange(of: marker) else { return bytes }
        var out = bytes
        out.replaceSubrange(range, with: marker + Array("<!-- \r -->".utf8))
        return out
    }

    /// Archivist reads `bytes` as Foundation does, on every path, or refuses
    /// it as Foundation does (a syntax error).
    private func assertReadsAsFoundation(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let foundation = Result { try FoundationBridge.foundationRead(bytes) }
        let utf16 = [0xFF, 0xFE] + String(decoding: bytes, as: UTF8.self).utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let inputs = [bytes, withCarriageReturn(bytes)] + (String(bytes: bytes, encoding: .utf8) == nil ? [] : [utf16])
        for input in inputs {
            input.withUnsafeBytes { b in
                for direct in [true, false] {
                    let ours = Result { try XMLPlistReader.read(b, options: ReadOptions(), direct: direct).tree.value }
                    switch (foundation, ours) {
                    case (.success(let expected), .success(let value)):
                        XCTAssertEqual(value, expected, "\(name) direct: \(direct)", file: file, line: line)
                    case (.failure, .failure(let error)):
                        XCTAssertEqual((error as? PlistError)?.kind, .syntax, "\(name) direct: \(direct)", file: file, line: line)
                    default:
                        XCTFail("\(name) direct: \(direct): Foundation \(foundation), Archivist \(ours)", file: file, line: line)
                    }
                }
            }
        }
    }

    func testRawControlCharactersInStringsAndKeys() {
        for c in Array(UInt8(0)...0x1F) + [0x7F] {
            for bytes in inStringAndKey([0x61, c, 0x62, c]) {
                assertReadsAsFoundation(bytes, "raw 0x\(String(c, radix: 16))")
            }
        }
        for raw: [UInt8] in [[0xC2, 0x85], [0xC2, 0x9B], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xEF, 0xB7, 0x90],
                             [0xED, 0xA0, 0x80], [0xFF], [0xC0, 0x80]] {
            for bytes in inStringAndKey([0x61] + raw + [0x62]) {
                assertReadsAsFoundation(bytes, "raw \(raw)")
            }
        }
    }

    func testCharacterReferences() {
        var references = (0...0x20).map { "&#\($0);" } + (0...0x20).map { "&#x\(String($0, radix: 16));" }
        references += ["&#xFFFE;", "&#xFFFF;", "&#xFDD0;", "&#x7F;", "&#x85;", "&#128512;", "&#x0001B;", "&#;", "&#x;",
                       "&#xD800;", "&#xDC00;", "&#xD83D;&#xDE00;", "&#x110000;", "&#xFFFFFFFF;", "&#xZZ;", "&foo;", "&#65"]
        for reference in references {
            for bytes in inStringAndKey(Array("a\(reference)b".utf8)) {
                assertReadsAsFoundation(bytes, reference)
            }
        }
    }

    func testControlsInCDATACommentsDataAndElsewhere() {
        let bodies = ["<string>a<![CDATA[b\u{1B}c\u{0}]]>d</string>", "<array><!-- \u{1} --><string>a</string></array>",
                      "<data>AA\u{1B}AA</data>", "<data>AQ=\u{1}=</data>", "<integer>1\u{1B}</integer>",
                      "<array>\u{1B}<string>a</string></array>", "<string\u{1B}>a</string>", "<true>\u{1}</true>"]
        for body in bodies {
            assertReadsAsFoundation(document(Array(body.utf8)), body.debugDescription)
        }
    }

    /// Random mixtures of the pieces above in string and key text, so the
    /// rewriting is checked where pieces meet (a reference after a CDATA
    /// section, a CR beside a control, a marker character of the input).
    /// (No comments: CoreFoundation refuses any comment inside string text,
    /// which libxml2's path still reads.)
    func testMixturesReadAsFoundation() {
        let fdd0 = String(decoding: [0xEF, 0xB7, 0x90], as: UTF8.self)  // not allowed in a literal
        let pieces = ["a", "\u{1B}", "\u{0}", "\u{1}", "\r", "\r\n", "\t", "&#27;", "&#x1b;", "&amp;", "&lt;", "&#xFFFE;", "\u{FFFF}",
                      fdd0, "&#xFDD0;", fdd0 + "A", "<![CDATA[x\u{1}\r&#27;]]>", "é", "&#;", "&#65;", "&#xD800;", "\u{85}"]
        var generator = CoreFoundationEdgeTests.Generator(state: 25)
        for _ in 0..<150 {
            let text = (0..<(1 + generator.next(6))).map { _ in pieces[generator.next(pieces.count)] }.joined()
            for bytes in inStringAndKey(Array(text.utf8)) {
                assertReadsAsFoundation(bytes, text.debugDescription)
            }
        }
    }

    func testWhitespaceBeforeTheDeclaration() {
        let declaration = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        let body = Array("<plist version=\"1.0\"><string>x</string></plist>\n".utf8)
        let prefixes: [[UInt8]] = [[0x0A], [0x20, 0x20, 0x09], [0x0D, 0x0A], [0x0A, 0x0A, 0x20], [0xEF, 0xBB, 0xBF, 0x0A],
                                   [0x0A, 0xEF, 0xBB, 0xBF], [0x0C], [0x0B], [0x00], Array("x".utf8)]
        for prefix in prefixes {
            let bytes = prefix + declaration + body
            let foundation = Result { try FoundationBridge.foundationRead(bytes) }
            bytes.withUnsafeBytes { b in
                for direct in [true, false] {
                    let ours = Result { try XMLPlistReader.read(b, options: ReadOptions(), direct: direct).tree.value }
                    switch (foundation, ours) {
                    case (.success(let expected), .success(let value)): XCTAssertEqual(value, expected, "\(prefix)")
                    case (.failure, .failure): break
                    default: XCTFail("\(prefix) direct: \(direct): Foundation \(foundation), Archivist \(ours)")
                    }
                }
            }
        }
    }

    /// A 12 MB `<data>` value and an 11 MB string, past libxml2's 10,000,000
    /// byte text limit, on both paths.
    func testValuesOverTenMillionCharacters() throws {
        let data = [UInt8](repeating: 7, count: 9_000_000)
        let text = String(repeating: "x", count: 11_000_000)
        let value = PlistValue.array([.data(data), .string(text), .string("\r")])
        let bytes = try PropertyList.write(value, as: .xml)
        try bytes.withUnsafeBytes { b in
            XCTAssertEqual(try XMLPlistReader.read(b, options: ReadOptions(), direct: true).tree.value, value)
            XCTAssertEqual(try XMLPlistReader.read(b, options: ReadOptions(), direct: false).tree.value, value)
        }
    }

    /// Archivist's own limits still bound the values libxml2 now hands over.
    func testValueLengthLimitStillHolds() throws {
        let bytes = try PropertyList.write(.array([.string(String(repeating: "x", count: 1000)), .string("\r")]), as: .xml)
        var options = ReadOptions()
        options.limits.maxValueLength = 100
        try bytes.withUnsafeBytes { b in
            for direct in [true, false] {
                XCTAssertThrowsError(try XMLPlistReader.read(b, options: options, direct: direct))
            }
        }
    }

    /// Entity declarations keep libxml2's guards: a billion laughs in an
    /// attribute value is refused at once.
    func testEntityExpansionIsStillRefused() {
        var subset = "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h"] {
            subset += "<!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 16) + "\">\n"
            previous = name
        }
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n\(subset)]>\n<plist version=\"&h;\"><string>x\r</string></plist>\n"
        XCTAssertThrowsError(try PropertyList.read(Array(xml.utf8)))
    }
}
