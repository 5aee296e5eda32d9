import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistCore

/// Real files from `../shared/real-world/` (beside the clone, as in CI) whose
/// XML CoreFoundation writes and XML 1.0 refuses: compiled nibs whose Cancel
/// buttons hold an ESC key equivalent, and a preferences file with a blank
/// line before `<?xml`. Archivist's XML is Foundation's byte for byte, and
/// both Archivist and Foundation read it back.
final class RealWorldXMLTextTests: XCTestCase {
    static let root = TestPaths.realWorld

    private func rows(_ formats: Set<String>) throws -> [Fixtures.ManifestEntry] {
        let rows = Fixtures.manifest(at: Self.root).filter { $0.valid && formats.contains($0.format) }
        try XCTSkipIf(rows.isEmpty, "no ../shared/real-world/MANIFEST.tsv")
        return rows
    }

    /// Whether XML holds a character XML 1.0 forbids (a C0 control other than tab, LF, CR).
    private func holdsControl(_ xml: [UInt8]) -> Bool {
        xml.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }

    func testBinaryFilesConvertToXMLThatReadsBack() throws {
        var withControls = 0
        for row in try rows(["binary", "keyed-archive-binary"]) {
            let bytes = try Fixtures.bytes(row.url)
            let xml = try PropertyList.write(PropertyList.read(bytes).tree, as: .xml)
            let foundationXML = try PropertyListSerialization.data(
                fromPropertyList: PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil), format: .xml, options: 0)
            XCTAssertEqual(xml, [UInt8](foundationXML), row.path)
            XCTAssertNoThrow(try PropertyListSerialization.propertyList(from: Data(xml), options: [], format: nil), row.path)
            try xml.withUnsafeBytes { b in
                for direct in [true, false] {
                    let again = try XMLPlistReader.read(b, options: ReadOptions(), direct: direct).tree
                    XCTAssertEqual(try PropertyList.write(again, as: .xml), xml, "\(row.path) direct: \(direct)")
                }
            }
            if holdsControl(xml) { withControls += 1 }
        }
        XCTAssertGreaterThan(withControls, 0, "the real files hold strings with control characters")
    }

    func testXMLFilesReadAsFoundationReadsThem() throws {
        for row in try rows(["xml", "keyed-archive-xml"]) {
            let bytes = try Fixtures.bytes(row.url)
            let foundationXML = try PropertyListSerialization.data(
                fromPropertyList: PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil), format: .xml, options: 0)
            try bytes.withUnsafeBytes { b in
                for direct in [true, false] {
                    let tree = try XMLPlistReader.read(b, options: ReadOptions(), direct: direct).tree
                    XCTAssertEqual(try PropertyList.write(tree, as: .xml), [UInt8](foundationXML), "\(row.path) direct: \(direct)")
                }
            }
        }
    }

    func testLeadingWhitespaceFileIsRead() throws {
        let url = Self.root.appendingPathComponent("plaso/test_data/plist/leading_whitespace.plist")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: url.path), "no ../shared/real-world")
        let bytes = try Fixtures.bytes(url)
        XCTAssertEqual(bytes.first, 0x0A)
        XCTAssertNoThrow(try PropertyList.read(bytes))
    }
}
