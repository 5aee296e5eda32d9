import ArchivistTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `dump --json-lines`: one JSON object a line per file or store row,
/// written as each is read.
extension CLITests {
    func testJSONLinesGivesOneObjectPerFile() throws {
        make("a.plist", "<plist><dict><key>n</key><integer>1</integer></dict></plist>")
        make("b.json", #"{"list": [1, "two"], "uid": {"CF$UID": 3}}"#)
        make("bad.plist", "<plist><dict>")
        let r = try run(["dump", "--json-lines", "a.plist", "bad.plist", "b.json"])
        XCTAssertEqual(r.status, 1, "bad.plist failed")
        XCTAssertEqual(r.stdout, #"""
            {"file":"a.plist","value":{"n":1}}
            {"file":"b.json","value":{"list":[1,"two"],"uid":{"CF$UID":3}}}

            """#)
        XCTAssertTrue(r.stderr.hasPrefix("bad.plist:"), r.stderr)
        // Each line is JSON that Foundation reads, with the value `dump --json` gives.
        for (line, file) in zip(r.stdout.split(separator: "\n"), ["a.plist", "b.json"]) {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual(object["file"] as? String, file)
            let single = try run(["dump", "--json", file])
            let expected = try JSONSerialization.jsonObject(with: single.output) as? NSDictionary
            XCTAssertEqual(object["value"] as? NSDictionary, expected, file)
        }
        for usage in [["--json-lines", "--json", "a.plist"], ["--json-lines", "--format", "dot", "a.plist"],
                      ["--json-lines", "--key-path", "n", "a.plist"], ["a.plist", "b.json"]] {
            XCTAssertEqual(try run(["dump"] + usage).status, 64, "\(usage)")
        }
    }

    func testJSONLinesGivesOneObjectPerStoreRow() throws {
        let store = try makeManifest("Manifest.db")
        let r = try run(["dump", "--json-lines", "--sqlite", store, "--table", "Files", "--column", "file", "--label-column", "relativePath"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"""
            {"row":1,"label":"Library/Preferences/a.plist","labelColumn":"relativePath","value":{"n":1}}
            {"row":2,"label":"Documents/b\u001b[31mred.plist","labelColumn":"relativePath","value":{"n":2}}
            {"row":3,"label":null,"labelColumn":"relativePath","value":{"n":3}}

            """#)
        let one = try run(["dump", "--json-lines", "--sqlite", store, "--table", "Files", "--column", "file", "--where", "fileID=cc33"])
        XCTAssertEqual(one.stdout, #"{"row":3,"value":{"n":3}}"# + "\n")
    }

    /// The first file's line is out before the second file can be read: a
    /// FIFO that is written only once that line has arrived.
    func testJSONLinesWritesEachLineAsItGoes() throws {
        make("a.plist", "<plist><dict><key>n</key><integer>1</integer></dict></plist>")
        let fifo = work.appendingPathComponent("later.plist").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let dump = try ProcessRunner.start(ProcessRunner.archivist, ["dump", "--json-lines", "a.plist", "later.plist"], in: work, stdin: .inherit, stderr: .null)
        let out = try XCTUnwrap(dump.out)
        // Blocks until the first line arrives; the FIFO has no writer yet, so
        // archivist is still waiting to read the second file.
        var first: [UInt8] = []
        let fd = out.fileHandleForReading.fileDescriptor
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            first.append(byte)
            if byte == 0x0A { break }
        }
        XCTAssertEqual(String(decoding: first, as: UTF8.self), #"{"file":"a.plist","value":{"n":1}}"# + "\n")
        let writer = open(fifo, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        let text = Array("<plist><string>later</string></plist>".utf8)
        XCTAssertEqual(write(writer, text, text.count), text.count)
        close(writer)
        let rest = out.fileHandleForReading.readDataToEndOfFile()
        dump.process.waitUntilExit()
        XCTAssertEqual(dump.process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: rest, as: UTF8.self), #"{"file":"later.plist","value":"later"}"# + "\n")
    }
}
