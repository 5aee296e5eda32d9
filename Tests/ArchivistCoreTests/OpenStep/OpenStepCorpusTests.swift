import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistCore

/// Every `openstep` row of the shared corpus: valid files (Xcode projects,
/// strings files, `defaults read` output...) read, equal what Foundation's
/// `PropertyListSerialization` reads, and survive a write/read round trip;
/// malformed files fail with an OpenStep error at a line and column.
final class OpenStepCorpusTests: XCTestCase {
    private var rows: [Fixtures.ManifestEntry] {
        Fixtures.manifest(at: Fixtures.sharedCorpus).filter { $0.format == "openstep" }
    }

    func testCorpusHasOpenStepRows() {
        XCTAssertGreaterThanOrEqual(rows.filter(\.valid).count, 11)
        XCTAssertGreaterThanOrEqual(rows.filter { !$0.valid }.count, 6)
    }

    func testValidFilesReadMatchFoundationAndRoundTrip() throws {
        try CorpusHarness.forEachValid(rows.filter(\.valid), read: { try OpenStepReader.read($0) }) { row, bytes, document in
            XCTAssertEqual(document.format, .openstep, row.path)
            XCTAssertEqual(document.diagnostics, [], row.path)

            // Detection picks OpenStep, except for text that is JSON too (`{}`).
            let detected = try PropertyList.read(bytes)
            let alsoJSON = (try? JSONPlistReader.read(bytes))?.tree.value == document.tree.value
            XCTAssertEqual(detected.format, alsoJSON ? .json : .openstep, row.path)
            XCTAssertEqual(detected.tree.value, document.tree.value, row.path)

            let theirs = try FoundationBridge.foundationRead(bytes)
            XCTAssertEqual(document.tree.value, theirs, row.path)

            for keepKeyOrder in [false, true] {
                let written = try PropertyList.write(document.tree.value, as: .openstep, options: WriteOptions(keepKeyOrder: keepKeyOrder))
                let again = try OpenStepReader.read(written)
                XCTAssertEqual(again.tree.value, document.tree.value, "\(row.path) keepKeyOrder=\(keepKeyOrder)")
                XCTAssertEqual(try FoundationBridge.foundationRead(written), document.tree.value, "Foundation reads our output: \(row.path)")
            }
        }
    }

    func testMalformedFilesFailWithOpenStepPositions() throws {
        try CorpusHarness.assertFailAtTextPositions(rows.filter { !$0.valid }, read: { try OpenStepReader.read($0) }) { row, bytes in
            XCTAssertThrowsError(try FoundationBridge.foundationRead(bytes), "Foundation rejects \(row.path) too")
        }
    }
}
