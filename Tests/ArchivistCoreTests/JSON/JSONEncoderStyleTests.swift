import Foundation
import XCTest
@testable import ArchivistCore

/// `WriteOptions.jsonEncoderStyle`: the JSON writer's output is byte for byte
/// what Foundation's `JSONEncoder` writes for the same values.
final class JSONEncoderStyleTests: XCTestCase {
    private func write(_ value: PlistValue) throws -> String {
        String(decoding: try PropertyList.write(value, as: .json, options: WriteOptions(jsonEncoderStyle: true)), as: UTF8.self)
    }

    private func foundation<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    func testRealsAsJSONEncoderWritesThem() throws {
        let reals: [Double] = [120, -0.0, 0, 0.1, 0.25, -3.5, 1e20, 1e-7, .leastNonzeroMagnitude, 1.7976931348623157e308, 720_000_000, 1234567.125]
        XCTAssertEqual(try write(.array(reals.map { .double($0) })), try foundation(reals))
        for r in reals { XCTAssertEqual(try write(.array([.double(r)])), try foundation([r]), "\(r)") }
    }

    func testStringsAsJSONEncoderWritesThem() throws {
        let strings = ["a/b", "//", "\"quoted\" \\ back", "tab\tnew\nline\r\u{8}\u{c}", "\u{1}\u{1f}\u{7f}", "é 😀 \u{2028}", "</script>"]
        XCTAssertEqual(try write(.array(strings.map { .string($0) })), try foundation(strings))
        XCTAssertEqual(try write(.dictionary(PlistDictionary([("a/b", .int(1))]))), try foundation(["a/b": 1]), "keys too")
    }

    func testPlainJSONIsUnchanged() throws {
        let plain = String(decoding: try PropertyList.write(.array([.string("a/b"), .double(120)]), as: .json), as: UTF8.self)
        XCTAssertEqual(plain, #"["a/b",120.0]"#)
    }
}
