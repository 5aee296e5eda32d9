import XCTest
@testable import ArchivistCore

/// `Corpus/foundation/` holds files written by Foundation (tools/fixture-gen):
/// each reads to its `Corpus/expected/NAME.txt` tree (XML with dates floored to seconds, as
/// Foundation writes them) and to what Foundation reads from it.
final class FoundationCorpusTests: XCTestCase {
    func testFoundationWrittenFilesReadAsExpected() throws {
        let dir = Fixtures.corpus.appendingPathComponent("foundation")
        let expectedDir = Fixtures.corpus.appendingPathComponent("expected")
        let names = try FileManager.default.contentsOfDirectory(atPath: expectedDir.path).filter { $0.hasSuffix(".txt") }
        XCTAssertGreaterThanOrEqual(names.count, 9)
        for name in names {
            let stem = String(name.dropLast(".txt".count))
            let expected = try String(contentsOf: expectedDir.appendingPathComponent(name), encoding: .utf8)
            let binary = try Fixtures.bytes(dir.appendingPathComponent("\(stem).bplist"))
            let fromBinary = try PropertyList.read(binary).value
            XCTAssertEqual(fromBinary.sortingKeys.description + "\n", expected, stem)
            XCTAssertEqual(fromBinary, try FoundationBridge.foundationRead(binary), stem)
            let xml = try Fixtures.bytes(dir.appendingPathComponent("\(stem).xml.plist"))
            let fromXML = try PropertyList.read(xml).value
            XCTAssertEqual(fromXML, CorpusRoundTripTests.wholeSecondDates(fromBinary), stem)
            XCTAssertEqual(fromXML, try FoundationBridge.foundationRead(xml), stem)
            // Archivist's XML for the tree is Foundation's XML, byte for byte.
            XCTAssertEqual(try XMLPlistWriter.write(fromXML), xml, stem)
        }
    }
}
