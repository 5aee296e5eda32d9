import Foundation
import XCTest

/// A lone UTF-16 surrogate in a binary plist's key is replaced by U+FFFD with
/// the warning a string value gets, whichever writer reads it.
extension CLITests {
    /// A `bplist00` of one dictionary `{KEY: VALUE}`, each a UTF-16 string of
    /// the given code units.
    func makeUTF16Plist(_ name: String, key: [UInt16], value: [UInt16]) throws {
        func string(_ units: [UInt16]) -> [UInt8] {
            [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        let objects = [[0xD1, 1, 2], string(key), string(value)]
        var bytes = Array("bplist00".utf8), offsets: [UInt8] = []
        for o in objects {
            offsets.append(UInt8(bytes.count))
            bytes += o
        }
        let table = UInt64(bytes.count)
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for v in [UInt64(objects.count), 0, table] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        try Data(bytes).write(to: work.appendingPathComponent(name))
    }

    func testALoneSurrogateInAKeyIsWarnedAboutAsInAValue() throws {
        try makeUTF16Plist("key.plist", key: [0x61, 0xD800], value: [0x76])
        try makeUTF16Plist("value.plist", key: [0x76], value: [0x61, 0xD800])
        let warning = "offset 11 (object 1): warning: string holds a lone UTF-16 surrogate (read as U+FFFD)\n"
        for target in [["--to", "json"], ["--to", "xml", "--keep-key-order"], ["--to", "xml"], ["--to", "binary"], ["--to", "openstep"]] {
            let key = try run(["convert", "key.plist", "-o", "key.out"] + target)
            XCTAssertEqual(key.status, 0, key.stderr)
            XCTAssertEqual(key.stderr, "key.plist: " + warning, "\(target)")
            let value = try run(["convert", "value.plist", "-o", "value.out"] + target)
            XCTAssertEqual(value.stderr, "value.plist: offset 14 (object 2): warning: string holds a lone UTF-16 surrogate (read as U+FFFD)\n", "\(target)")
        }
        XCTAssertEqual(try run(["lint", "key.plist"]).stdout, "key.plist: offset 11 (object 1): error: string holds a lone UTF-16 surrogate (read as U+FFFD)\n")
    }
}
