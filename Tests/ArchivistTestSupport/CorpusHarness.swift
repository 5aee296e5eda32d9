import ArchivistCore
import Foundation
import XCTest

/// The walk every format's corpus tests take, parameterised by the format's
/// reader: valid files read (a file that does not is a failure naming it, and
/// the walk goes on) and are handed to the format's own checks; malformed
/// files fail with a located `PlistError`, and format detection reports the
/// very same error.
public enum CorpusHarness {
    /// A reader of one format (`JSONPlistReader.read`, `OpenStepReader.read`,
    /// `PropertyList.read`...).
    public typealias Reader = ([UInt8]) throws -> PlistDocument

    /// Reads every row with `read` and hands the row, its bytes and its
    /// document to `check`. Returns how many rows were read.
    @discardableResult
    public static func forEachValid(_ rows: [CorpusRow], read: Reader, file: StaticString = #filePath, line: UInt = #line,
                                    _ check: (CorpusRow, [UInt8], PlistDocument) throws -> Void) throws -> Int {
        var read_ = 0
        for row in rows {
            let bytes = [UInt8](try Data(contentsOf: row.url))
            let document: PlistDocument
            do {
                document = try read(bytes)
            } catch {
                XCTFail("\(row.path): \(error)", file: file, line: line)
                continue
            }
            read_ += 1
            try check(row, bytes, document)
        }
        return read_
    }

    /// Every row fails in `read` with a `PlistError` at a line and column
    /// (both from 1), and `PropertyList.read` (detection) fails with the same
    /// error, not one of another format. `also` checks more of each row.
    public static func assertFailAtTextPositions(_ rows: [CorpusRow], read: Reader, file: StaticString = #filePath, line: UInt = #line,
                                                 also: (CorpusRow, [UInt8]) throws -> Void = { _, _ in }) throws {
        for row in rows {
            let bytes = [UInt8](try Data(contentsOf: row.url))
            var direct: PlistError?
            XCTAssertThrowsError(try read(bytes), row.path, file: file, line: line) { direct = $0 as? PlistError }
            guard let direct else {
                XCTFail("\(row.path): not a PlistError", file: file, line: line)
                continue
            }
            guard case .text(let at, let column) = direct.location else {
                XCTFail("\(row.path): no text position in \(direct)", file: file, line: line)
                continue
            }
            XCTAssertGreaterThanOrEqual(at, 1, row.path, file: file, line: line)
            XCTAssertGreaterThanOrEqual(column, 1, row.path, file: file, line: line)
            XCTAssertThrowsError(try PropertyList.read(bytes), row.path, file: file, line: line) { error in
                XCTAssertEqual(error as? PlistError, direct, row.path, file: file, line: line)
            }
            try also(row, bytes)
        }
    }
}
