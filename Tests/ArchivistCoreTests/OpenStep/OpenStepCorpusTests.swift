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
        for row in rows where row.valid {
            let bytes = try Fixtures.bytes(row.url)
            let document: PlistDocument
            do {
                document = try OpenStepReader.read(bytes)
            } catch {
                XCTFail("\(row.path): \(error)")
                continue
            }
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
        for row in rows where !row.valid {
            let bytes = try Fixtures.bytes(row.url)
            var direct: PlistError?
            XCTAssertThrowsError(try OpenStepReader.read(bytes), row.path) { direct = $0 as? PlistError }
            guard let direct else {
                XCTFail("\(row.path): not a PlistError")
                continue
            }
            guard case .text(let line, let column) = direct.location else {
                XCTFail("\(row.path): no text position in \(direct)")
                continue
            }
            XCTAssertGreaterThanOrEqual(line, 1, row.path)
            XCTAssertGreaterThanOrEqual(column, 1, row.path)
            XCTAssertThrowsError(try PropertyList.read(bytes), row.path) { error in
                XCTAssertEqual(error as? PlistError, direct, row.path)
            }
            XCTAssertThrowsError(try FoundationBridge.foundationRead(bytes), "Foundation rejects \(row.path) too")
        }
    }
}
