import ArchivistCore
import XCTest

/// The `PlistError` a read throws, for the readers' tests.
public enum ReadError {
    /// The error `read` throws; a failure (at the caller's line) when it reads
    /// `text` or throws anything but a `PlistError`.
    public static func of(_ text: String, file: StaticString = #filePath, line: UInt = #line,
                          _ read: () throws -> PlistDocument) -> PlistError? {
        do {
            let document = try read()
            XCTFail("read \(document.tree.value) from \(text.debugDescription)", file: file, line: line)
        } catch let error as PlistError {
            return error
        } catch {
            XCTFail("not a PlistError: \(error)", file: file, line: line)
        }
        return nil
    }

    /// Each case (text, line, column, message) fails in `read` with a syntax error at that line and
    /// column whose message holds `message`.
    public static func assertSyntaxErrors(_ cases: [(String, Int, Int, String)],
                                          file: StaticString = #filePath, line: UInt = #line,
                                          _ read: (String) throws -> PlistDocument) {
        for (text, at, column, message) in cases {
            guard let e = of(text, file: file, line: line, { try read(text) }) else { continue }
            XCTAssertEqual(e.kind, .syntax, text.debugDescription, file: file, line: line)
            XCTAssertEqual(e.location, .text(line: at, column: column), "\(text.debugDescription): \(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(message), "\(text.debugDescription): \(e.message)", file: file, line: line)
        }
    }
}
