import ArchivistCore
import Foundation
import XCTest

/// `convert` of a binary plist to XML or JSON writes as it reads the file in
/// place (no tree): the output is what Foundation writes, warnings are those
/// of reading, a broken file leaves no partial result, and memory stays far
/// below what a tree of the file would take.
extension CLITests {
    func testBinaryToTextStreamsWhatFoundationWrites() throws {
        let records: [Any] = (0..<30_000).map { (i: Int) -> Any in
            let ratio: Double = i == 29_999 ? .nan : Double(i) / 7
            return ["name": "item \(i) é", "index": i, "ratio": ratio, "when": Date(timeIntervalSinceReferenceDate: Double(i)),
             "tags": ["a", "b", "shared"], "blob": Data(repeating: UInt8(i & 0xFF), count: 24)] as [String: Any]
        }
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)
        try data.write(to: work.appendingPathComponent("big.bplist"))
        let xml = try run(["convert", "big.bplist", "--to", "xml", "-o", "-"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(xml.output, try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0),
                       "byte for byte what Foundation writes")
        XCTAssertEqual(try run(["convert", "big.bplist", "--to", "xml", "-o", "big.xml"]).status, 0)
        XCTAssertEqual(contents("big.xml"), xml.output)
        // A result already in place is compared piece by piece and left alone.
        try data.write(to: work.appendingPathComponent("twin.bplist"))
        XCTAssertEqual(try run(["convert", "big.bplist", "twin.bplist", "--to", "xml", "--output-dir", "out"]).status, 0)
        let again = try run(["convert", "big.bplist", "twin.bplist", "--to", "xml", "--output-dir", "out"])
        XCTAssertTrue(again.stderr.contains("0 converted, 2 unchanged"), again.stderr)
        XCTAssertEqual(contents("out/big.plist"), xml.output)
        let json = try run(["convert", "big.bplist", "--to", "json", "-o", "-"])
        XCTAssertEqual(json.status, 1, "NaN has no JSON form, and the last record holds one")
        XCTAssertTrue(json.stderr.contains("NaN") || json.stderr.contains("nan"), json.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("none.json").path))
        XCTAssertEqual(try run(["convert", "big.bplist", "--to", "json", "-o", "none.json"]).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("none.json").path), "no partial result")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: work.path).contains { $0.hasPrefix(".") })

        // A repeated key is reported as reading reports it, and written once.
        var dict: [UInt8] = Array("bplist00".utf8)
        let objects: [[UInt8]] = [[0xD2, 1, 4, 2, 3], [0x51, 0x61], [0x10, 1], [0x10, 2], [0x51, 0x61]]
        var offsets: [UInt8] = []
        for o in objects {
            offsets.append(UInt8(dict.count))
            dict += o
        }
        let table = dict.count
        dict += offsets + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 5] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        try Data(dict).write(to: work.appendingPathComponent("dup.bplist"))
        let streamed = try run(["convert", "dup.bplist", "--to", "xml", "-o", "-"])
        let read = try run(["convert", "dup.bplist", "--to", "binary", "-o", "dup-copy.bplist"])
        XCTAssertEqual(streamed.status, 0)
        XCTAssertTrue(streamed.stderr.contains("duplicate key \"a\""), streamed.stderr)
        XCTAssertEqual(streamed.stderr, read.stderr, "the same warning as reading the file into a tree")
        XCTAssertEqual(streamed.stdout.components(separatedBy: "<key>a</key>").count, 2, streamed.stdout)

        // A corrupt file: an error located in the input, nothing written.
        var bad = [UInt8](data)
        bad.removeLast(40)
        try Data(bad).write(to: work.appendingPathComponent("bad.bplist"))
        let broken = try run(["convert", "bad.bplist", "--to", "xml", "-o", "bad.xml"])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.hasPrefix("bad.bplist: offset "), broken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("bad.xml").path))
    }
}
