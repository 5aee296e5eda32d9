import ArchivistCore
import Foundation
import XCTest

/// Plain `lint` of a binary plist checks the file in place (mapped when it is
/// 1 MiB or more) and reports what the reading path (`--secure`) reports;
/// `get` and `convert` read mapped inputs.
extension CLITests {
    func testLintOfALargeBinaryPlistInPlace() throws {
        let records: [Any] = (0..<20_000).map { i in
            ["name": "item \(i)", "index": i, "tags": ["a", "b"], "blob": Data(repeating: UInt8(i & 0xFF), count: 40)] as [String: Any]
        }
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)
        XCTAssertGreaterThan(data.count, 1 << 20)
        let good = work.appendingPathComponent("good.bplist")
        try data.write(to: good)
        XCTAssertEqual(try run(["lint", "good.bplist"]).stdout, "good.bplist: OK\n")
        XCTAssertEqual(try run(["lint", "--secure", "good.bplist"]).stdout, "good.bplist: OK\n")
        // Other commands read the mapped file too.
        XCTAssertEqual(try run(["get", "good.bplist", "19999.name"]).stdout, "item 19999\n")
        XCTAssertEqual(try run(["convert", "good.bplist", "--to", "json", "-o", "good.json"]).status, 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("good.json"))) as? [[String: Any]]
        XCTAssertEqual(json?.count, 20_000)
        XCTAssertEqual(json?.last?["name"] as? String, "item 19999")

        // An offset table entry pointing past the objects, and a truncated copy.
        var bytes = [UInt8](data)
        let tableAt = Int(bytes[(bytes.count - 8)...].reduce(0) { $0 << 8 | UInt64($1) })
        let width = Int(bytes[bytes.count - 26])
        for k in 0..<width { bytes[tableAt + 5 * width + k] = 0xFF }
        try Data(bytes).write(to: work.appendingPathComponent("bad.bplist"))
        try data.prefix(data.count - 100).write(to: work.appendingPathComponent("short.bplist"))
        for name in ["bad.bplist", "short.bplist"] {
            let inPlace = try run(["lint", name])
            XCTAssertEqual(inPlace.status, 1)
            XCTAssertTrue(inPlace.stdout.hasPrefix("\(name): offset "), inPlace.stdout)
            XCTAssertEqual(inPlace.stdout, try run(["lint", "--secure", name]).stdout)
        }
        XCTAssertEqual(try run(["lint", "bad.bplist"]).stdout.contains("(object 5): error: offset table entry 5 points at"), true)
        // The input is left as it was.
        XCTAssertEqual(try Data(contentsOf: good), data)
    }

    func testLintInPlaceReportsWhatReadingReports() throws {
        // {"a": 1, "a": [x]} where x is a UTF-16 string with a lone surrogate.
        let duplicate: [UInt8] = Array("bplist00".utf8) + [0xD2, 1, 1, 2, 3, 0x51, 0x61, 0x10, 1, 0xA1, 4, 0x61, 0xD8, 0x00]
            + [8, 13, 15, 17, 19] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 5] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 22]
        try Data(duplicate).write(to: work.appendingPathComponent("dup.bplist"))
        let dup = try run(["lint", "dup.bplist"])
        XCTAssertEqual(dup.stdout, """
            dup.bplist: offset 19 (object 4): error: string holds a lone UTF-16 surrogate (read as U+FFFD)
            dup.bplist: offset 8 (object 0): error: duplicate key "a" in dictionary (the first value is kept)

            """)
        let files = ["dup.bplist"] + ["hostile/shared-explosion.bplist", "hostile/contains-itself.bplist", "hostile/deep.bplist",
                                      "hostile/mutual-cycle.bplist", "foundation/info-plist.bplist"].map(corpus)
        for file in files {
            let plain = try run(["lint", file])
            XCTAssertEqual(plain.stdout, try run(["lint", "--secure", file]).stdout, file)
            XCTAssertEqual(try run(["lint", "--require-format", "xml", file]).stdout,
                           try run(["lint", "--secure", "--require-format", "xml", file]).stdout, file)
        }
    }
}
