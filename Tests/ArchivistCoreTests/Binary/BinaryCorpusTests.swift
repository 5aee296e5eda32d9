import XCTest
@testable import ArchivistCore

final class BinaryCorpusTests: XCTestCase {
    /// Every binary file of the shared corpus: valid ones read, rewrite and read
    /// back equal, and Foundation agrees on their values; malformed ones fail with
    /// a binary location.
    func testSharedCorpusBinaryFiles() throws {
        let rows = Fixtures.manifest(at: Fixtures.sharedCorpus).filter { $0.format == "binary" || $0.format == "keyed-archive-binary" }
        try XCTSkipIf(rows.isEmpty, "shared corpus not found at \(Fixtures.sharedCorpus.path)")
        for row in rows {
            let bytes = try Fixtures.bytes(row.url)
            let isBrokenPlist = row.format == "binary" && !row.valid
            do {
                let doc = try BinaryPlistReader.read(bytes)
                XCTAssertFalse(isBrokenPlist, "\(row.path): malformed file was accepted")
                let rewritten = try PropertyList.write(doc.tree.value, as: .binary)
                let again = try BinaryPlistReader.read(rewritten)
                XCTAssertEqual(again.tree.value, doc.tree.value, row.path)
                if row.format == "binary", let foundation = try? FoundationBridge.foundationRead(bytes) {
                    XCTAssertEqual(doc.tree.value, foundation, "\(row.path): differs from Foundation")
                }
            } catch let error as PlistError {
                XCTAssertTrue(isBrokenPlist, "\(row.path): valid file rejected: \(error)")
                if case .binary = error.location {} else { XCTFail("\(row.path): error without a binary location: \(error)") }
            }
        }
    }

    /// Every prefix of valid files fails cleanly.
    func testTruncatedFilesFail() throws {
        let rows = Fixtures.manifest(at: Fixtures.sharedCorpus).filter { $0.format == "binary" && $0.valid }.prefix(6)
        for row in rows {
            let bytes = try Fixtures.bytes(row.url)
            for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
                XCTAssertThrowsError(try BinaryPlistReader.read(Array(bytes[..<n])), "\(row.path) prefix \(n)")
            }
        }
    }
}
