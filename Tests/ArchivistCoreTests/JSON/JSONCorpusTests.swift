import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistCore

/// Every `json` row of the shared corpus: valid files read, match Foundation's
/// `JSONSerialization` and survive a write/read round trip; malformed files
/// fail with a JSON error at a line and column, also through format detection.
final class JSONCorpusTests: XCTestCase {
    private var rows: [Fixtures.ManifestEntry] {
        Fixtures.manifest(at: Fixtures.sharedCorpus).filter { $0.format == "json" }
    }

    func testCorpusHasJSONRows() {
        XCTAssertGreaterThanOrEqual(rows.filter(\.valid).count, 9)
        XCTAssertGreaterThanOrEqual(rows.filter { !$0.valid }.count, 5)
    }

    func testValidFilesReadAndRoundTrip() throws {
        try CorpusHarness.forEachValid(rows.filter(\.valid), read: { try JSONPlistReader.read($0) }) { row, bytes, document in
            XCTAssertEqual(document.format, .json, row.path)
            let detected = try PropertyList.read(bytes)
            XCTAssertEqual(detected.format, .json, row.path)
            XCTAssertEqual(detected.tree.value, document.tree.value, row.path)

            for pretty in [false, true] {
                let written = try PropertyList.write(document.tree.value, as: .json, options: WriteOptions(pretty: pretty))
                let again = try JSONPlistReader.read(written)
                XCTAssertEqual(again.tree.value, document.tree.value, "\(row.path) pretty=\(pretty)")
                XCTAssertEqual(again.tree.value.description, document.tree.value.description, "key order kept: \(row.path)")
            }
        }
    }

    func testValidFilesMatchJSONSerialization() throws {
        for row in rows where row.valid {
            let bytes = try Fixtures.bytes(row.url)
            let ours = try JSONPlistReader.read(bytes).tree.value
            let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            let theirs = try XCTUnwrap(FoundationBridge.value(from: object), row.path)
            XCTAssertTrue(Self.sameJSONValue(ours, theirs), "\(row.path): ours \(ours), Foundation \(theirs)")
        }
    }

    /// Equality, except that `JSONSerialization` reads some integer literals
    /// (`-9223372036854775808`) as a Double: an exact integer of ours then
    /// equals Foundation's real of the same numeric value.
    static func sameJSONValue(_ ours: PlistValue, _ theirs: PlistValue) -> Bool {
        switch (ours, theirs) {
        case (.integer(let i), .real(let r)):
            return i.doubleValue == r.value
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { sameJSONValue($0, $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { sameJSONValue(value, $0) } ?? false }
        default:
            return ours == theirs
        }
    }

    func testDuplicateKeyFileReportsTheDuplicate() throws {
        let row = try XCTUnwrap(rows.first { $0.kind.contains("duplicate keys") })
        let document = try JSONPlistReader.read(Fixtures.bytes(row.url))
        XCTAssertEqual(document.tree.value, .dictionary(PlistDictionary([("a", .int(1))])))
        XCTAssertEqual(document.diagnostics.map(\.kind), [.duplicateKey])
        XCTAssertEqual(document.diagnostics.first?.location, .text(line: 1, column: 9))
        XCTAssertEqual(document.diagnostics.first?.related, .text(line: 1, column: 2))
    }

    func testMalformedFilesFailWithJSONPositions() throws {
        // Detection must report the same JSON error, not an OpenStep one.
        try CorpusHarness.assertFailAtTextPositions(rows.filter { !$0.valid }, read: { try JSONPlistReader.read($0) })
    }
}
