import ArchivistCore
import Foundation
import XCTest

/// `convert --in-place` of a binary plist whose keys and strings hold control
/// characters (as compiled nibs and preferences do) leaves XML that Archivist
/// and Foundation read back to the same values.
extension CLITests {
    func testInPlaceConversionOfControlCharactersToXMLReadsBack() throws {
        var object: [String: Any] = [:]
        for c in Array(0...0x1F) + [0x7F, 0x85, 0x9B, 0xFFFE, 0xFFFF, 0xFDD0] {
            guard let scalar = Unicode.Scalar(UInt32(c)) else { continue }
            let s = String(Character(scalar))
            object["key" + s] = "value" + s + s
        }
        object["\u{0}"] = "NUL key"
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let file = work.appendingPathComponent("keys.plist")
        try binary.write(to: file)

        let converted = try run(["convert", "keys.plist", "--to", "xml", "--in-place"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let xml = try Data(contentsOf: file)
        XCTAssertTrue(xml.starts(with: Data("<?xml".utf8)))
        XCTAssertEqual(try run(["lint", "keys.plist"]).stdout, "keys.plist: OK\n")
        let read = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil) as? [String: String]
        XCTAssertEqual(read, object as? [String: String])

        // And back to binary through Archivist's own XML reader: Foundation's values.
        let back = try run(["convert", "keys.plist", "--to", "binary", "--in-place"])
        XCTAssertEqual(back.status, 0, back.stderr)
        let again = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), options: [], format: nil) as? [String: String]
        XCTAssertEqual(again, object as? [String: String])
    }

    func testBlankLineBeforeTheDeclarationIsRead() throws {
        make("blank.plist", "\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><string>x\u{1B}</string></plist>\n")
        XCTAssertEqual(try run(["lint", "blank.plist"]).stdout, "blank.plist: OK\n")
        XCTAssertEqual(try run(["convert", "blank.plist", "--to", "json", "-o", "-"]).stdout, "\"x\\u001b\"")
    }
}
