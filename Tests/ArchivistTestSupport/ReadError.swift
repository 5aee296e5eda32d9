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
}
