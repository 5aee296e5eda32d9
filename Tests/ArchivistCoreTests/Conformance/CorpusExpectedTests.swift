import ArchivistTestSupport
import XCTest
@testable import ArchivistCore

/// Every valid file of `Corpus/` (written by tools/fixture-gen) reads to its
/// golden `Corpus/expected/PATH.txt`, which the generator derived from the tree
/// the file was made from. Files Foundation wrote also read as Foundation reads
/// them, and Archivist's XML for them is Foundation's XML byte for byte.
/// (`Corpus/archives/` is checked by the archive module's dump goldens.)
final class CorpusExpectedTests: XCTestCase {
    func testEveryValidFileReadsAsExpected() throws {
        let rows = Fixtures.manifest(at: Fixtures.corpus).filter { $0.valid && !$0.path.hasPrefix("archives/") }
        XCTAssertGreaterThanOrEqual(rows.count, 40, "Corpus/MANIFEST.tsv lists the generated fixtures")
        try CorpusHarness.forEachValid(rows, read: { try PropertyList.read($0) }) { row, bytes, document in
            let expectedURL = Fixtures.corpus.appendingPathComponent("expected/\(row.path).txt")
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            XCTAssertEqual(document.tree.value.sortingKeys.description + "\n", expected, row.path)
            XCTAssertEqual(document.format.rawValue, row.format, row.path)
            XCTAssertEqual(document.diagnostics, [], row.path)
            guard row.path.hasPrefix("foundation/") else { return }
            XCTAssertEqual(document.tree.value, try FoundationBridge.foundationRead(bytes), "\(row.path): Foundation reads it the same")
            if row.format == "xml" {
                XCTAssertEqual(try PropertyList.write(document.tree.value, as: .xml), bytes, "\(row.path): Archivist writes Foundation's XML")
            }
        }
    }

    func testEveryMalformedFileIsRejectedWithItsPosition() throws {
        let rows = Fixtures.manifest(at: Fixtures.corpus).filter { !$0.valid }
        XCTAssertGreaterThanOrEqual(rows.count, 8)
        for row in rows {
            XCTAssertFalse(FileManager.default.fileExists(atPath: Fixtures.corpus.appendingPathComponent("expected/\(row.path).txt").path),
                           "\(row.path): a malformed file has no expected reading")
        }
        let lines: [[String]] = rows.map { row in
            do {
                // Warnings count: lint reports them (a duplicate key) as errors.
                return try PropertyList.read((try? Fixtures.bytes(row.url)) ?? []).diagnostics.map { $0.formatted(path: row.path) }
            } catch let error as PlistError {
                return [error.formatted(path: row.path)]
            } catch {
                return ["\(row.path): \(error)"]
            }
        }
        // One located error per file, in the format the file pretends to be.
        XCTAssertEqual(lines.map(\.count), Array(repeating: 1, count: rows.count))
        for (row, problems) in zip(rows, lines) {
            let line = problems.first ?? ""
            let located = row.format == "binary" ? line.hasPrefix("\(row.path): offset ") : line.range(of: #"^[^:]+:\d+:\d+: error: "#, options: .regularExpression) != nil
            XCTAssertTrue(located, line)
        }
    }
}
