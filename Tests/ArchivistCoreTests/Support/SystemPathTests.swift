@testable import ArchivistCore
import Foundation
import XCTest

final class SystemPathTests: XCTestCase {
    /// A code point standing for a raw byte is found wherever it is, in
    /// small strings (up to 15 bytes, stored inline) and in large ones;
    /// text without one, other four-byte characters included, is passed.
    func testRawBytesAreFoundAtEveryPosition() {
        let raw = String(UnicodeScalar(0x10FF80 + 0x25)!)
        for length in 0...40 {
            let plain = String(repeating: "a", count: length)
            XCTAssertFalse(SystemPath.mayHoldRawBytes(plain), "\(length)")
            XCTAssertFalse(SystemPath.mayHoldRawBytes(plain + "😀"), "\(length)")
            for at in 0...length {
                var text = plain
                text.insert(contentsOf: raw, at: text.index(text.startIndex, offsetBy: at))
                XCTAssertTrue(SystemPath.mayHoldRawBytes(text), "\(length) \(at)")
                // A substring's copy and a string built by appending: other storage.
                XCTAssertTrue(SystemPath.mayHoldRawBytes(String(Substring(text))), "\(length) \(at)")
            }
        }
        // What `with` hands the system: the byte itself.
        let name = "x" + raw + "y"
        let bytes = SystemPath.with(name) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
        XCTAssertEqual(bytes, [0x78, 0xA5, 0x79])
    }
}
