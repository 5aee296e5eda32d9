import ArchivistTestSupport
import Foundation
import XCTest

/// Bookmark data in `<data>` values shown decoded by `dump` and `get`.
extension CLITests {
    private static func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// A bookmark with path components, a volume name, a creation date and a
    /// key no name is known for; `cyclic` makes the path array hold itself.
    static func bookmark(cyclic: Bool = false) -> [UInt8] {
        var body: [UInt8] = []
        func item(_ type: UInt32, _ payload: [UInt8]) -> UInt32 {
            let offset = UInt32(4 + body.count)
            body += le(UInt32(payload.count)) + le(type) + payload
            while body.count % 4 != 0 { body.append(0) }
            return offset
        }
        let users = item(0x0101, Array("Users".utf8)), x = item(0x0101, Array("x".utf8)), a = item(0x0101, Array("a.txt".utf8))
        let path = UInt32(4 + body.count)
        _ = item(0x0601, cyclic ? le(path) : le(users) + le(x) + le(a))
        let volume = item(0x0101, Array("Macintosh HD".utf8))
        let created = item(0x0400, (650_000_000.0 as Double).bitPattern.bigEndianBytes)
        let ids = item(0x0601, le(item(0x0303, le(2))) + le(item(0x0303, le(123))))
        let odd = item(0x0303, le(7))
        let entries: [(UInt32, UInt32)] = [(0x1004, path), (0x1005, ids), (0x1040, created), (0x2010, volume), (0x1054, odd)]
        let toc = UInt32(4 + body.count)
        body += le(UInt32(entries.count * 12 - 8)) + le(0xFFFF_FFFE) + le(1) + le(0) + le(UInt32(entries.count))
        for (key, offset) in entries { body += le(key) + le(offset) + le(0) }
        let header = Array("book".utf8) + le(UInt32(48 + 4 + body.count)) + le(0x1004_0000) + le(48) + [UInt8](repeating: 0, count: 32)
        return header + le(toc) + body
    }

    private func plistHolding(_ bookmarks: [String: [UInt8]]) throws -> String {
        let data = try PropertyListSerialization.data(fromPropertyList: bookmarks.mapValues { Data($0) }, format: .binary, options: 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("Bookmarks.plist").path, contents: data))
        return "Bookmarks.plist"
    }

    func testDumpShowsABookmarkDecoded() throws {
        let file = try plistHolding(["b": Self.bookmark()])
        let r = try run(["dump", "--stable", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        var lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines.count > 2 && lines[1].hasPrefix(#"  "b" => <data 284 bytes 0x626f6f6b1c010000"#) && lines[1].hasSuffix("> holding a bookmark {"), r.stdout)
        if lines.count > 2 { lines.removeSubrange(0...1) }
        XCTAssertEqual(lines, [
            #"    "0x1054" => 7"#,
            #"    "created" => 2021-08-07T03:33:20Z"#,
            #"    "fileIDs" => ["#,
            "      0 => 2",
            "      1 => 123",
            "    ]",
            #"    "path" => "/Users/x/a.txt""#,
            #"    "volume" => "Macintosh HD""#,
            "  }",
            "}",
            "",
        ])
    }

    /// `dump --json` shows bookmark data as `{"data": BASE64, "bookmark": {...}}`,
    /// in a plain tree and in an archive's objects; a bookmark that does not
    /// decode stays a base64 string.
    func testDumpJSONShowsABookmarkDecoded() throws {
        let file = try plistHolding(["b": Self.bookmark(), "cyclic": Self.bookmark(cyclic: true)])
        let r = try run(["dump", "--json", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        let tree = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.output) as? [String: Any])
        let pair = try XCTUnwrap(tree["b"] as? [String: Any], r.stdout)
        XCTAssertEqual(pair["data"] as? String, Data(Self.bookmark()).base64EncodedString())
        let bookmark = try XCTUnwrap(pair["bookmark"] as? [String: Any])
        XCTAssertEqual(bookmark["path"] as? String, "/Users/x/a.txt")
        XCTAssertEqual(bookmark["volume"] as? String, "Macintosh HD")
        XCTAssertEqual(bookmark["created"] as? String, ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: 650_000_000)))
        XCTAssertEqual(bookmark["fileIDs"] as? [Int], [2, 123])
        XCTAssertEqual(tree["cyclic"] as? String, Data(Self.bookmark(cyclic: true)).base64EncodedString())
        // --raw shows the tree as it is.
        let raw = try run(["dump", "--json", "--raw", file])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: raw.output) as? [String: Any])?["b"] as? String, Data(Self.bookmark()).base64EncodedString())

        // In an archive: the data an object holds.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: NSDictionary(dictionary: ["bookmark": Data(Self.bookmark())]), requiringSecureCoding: false)
        try archive.write(to: work.appendingPathComponent("archive.plist"))
        let archived = try run(["dump", "--json", "archive.plist"])
        XCTAssertEqual(archived.status, 0, archived.stderr)
        let root = ((try JSONSerialization.jsonObject(with: archived.output) as? [String: Any])?["top"] as? [String: Any])?["root"] as? [String: Any]
        let entry = (root?["entries"] as? [String: Any])?["bookmark"] as? [String: Any]
        XCTAssertEqual((entry?["bookmark"] as? [String: Any])?["path"] as? String, "/Users/x/a.txt", archived.stdout)
        XCTAssertEqual(entry?["data"] as? String, Data(Self.bookmark()).base64EncodedString())
    }

    func testGetShowsABookmarkAndHostileOnesStayData() throws {
        let file = try plistHolding(["good": Self.bookmark(), "cyclic": Self.bookmark(cyclic: true)])
        let good = try run(["get", file, "good"])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.contains(#""path" => "/Users/x/a.txt""#), good.stdout)
        XCTAssertTrue(good.stdout.contains(#""created" => 2021-08-07T03:33:20Z"#), good.stdout)
        // A bookmark whose path array holds itself is refused: shown as data, not followed.
        let cyclic = try run(["get", file, "cyclic"])
        XCTAssertEqual(cyclic.status, 0, cyclic.stderr)
        XCTAssertEqual(cyclic.stdout, Data(Self.bookmark(cyclic: true)).base64EncodedString() + "\n")
        let dump = try run(["dump", file])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let cyclicLine = dump.stdout.split(separator: "\n").first { $0.contains(#""cyclic" =>"#) } ?? ""
        XCTAssertTrue(cyclicLine.hasPrefix(#"  "cyclic" => <data 276 bytes 0x626f6f6b"#) && cyclicLine.hasSuffix(">"), dump.stdout)
    }

    func testKeyPathsLeadIntoABookmark() throws {
        let file = try plistHolding(["b": Self.bookmark(), "cyclic": Self.bookmark(cyclic: true)])
        let path = try run(["get", file, "b.path"])
        XCTAssertEqual(path.status, 0, path.stderr)
        XCTAssertEqual(path.stdout, "/Users/x/a.txt\n")
        XCTAssertEqual(try run(["get", file, "b.created"]).stdout, "2021-08-07T03:33:20Z\n")
        XCTAssertEqual(try run(["get", file, "b.fileIDs.1"]).stdout, "123\n")
        XCTAssertEqual(try run(["get", file, "b.0x1054"]).stdout, "7\n")
        let missing = try run(["get", file, "b.nope"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains(#"b.nope: no key "nope""#), missing.stderr)
        let refused = try run(["get", file, "cyclic.path"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("holds no property list, archive, typedstream, bookmark or JSON to look into"), refused.stderr)
    }

    func testRealFilesShowTheirBookmarks() throws {
        let root = TestPaths.realWorld.appendingPathComponent("plaso/test_data")
        let btm = root.appendingPathComponent("backgrounditems.btm").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: btm), "no ../shared/real-world")
        let r = try run(["dump", btm])
        XCTAssertEqual(r.status, 0, r.stderr)
        for line in [#""path" => "/Applications/iTunes.app/Contents/MacOS/iTunesHelper.app""#, #""volume" => "Macintosh HD""#,
                     #""volumeUUID" => "095D50F8-562C-38AD-8907-C2B9E50C2DEA""#, #""created" => 2017-07-12T18:29:32Z"#,
                     #""displayName" => "iTunesHelper""#] {
            XCTAssertTrue(r.stdout.contains(line), line)
        }
        let downloads = root.appendingPathComponent("plist/Downloads.plist").path
        let get = try run(["get", downloads, "DownloadHistory.0.DownloadEntryPostBookmarkBlob"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertTrue(get.stdout.contains(#""path" => "/Users/me/Downloads/paint.net.4.3.12.install.anycpu.web.zip.download/paint.net.4.3.12.install.anycpu.web.exe""#), get.stdout)
        XCTAssertTrue(get.stdout.contains(#""userName" => "me""#), get.stdout)
        let json = try run(["dump", "--json", btm])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains(#""path": "/Applications/iTunes.app/Contents/MacOS/iTunesHelper.app""#), json.stdout)
        let downloadsJSON = try run(["dump", "--json", downloads])
        XCTAssertTrue(downloadsJSON.stdout.contains(#""userName": "me""#), downloadsJSON.stdout)
        let uuid = try run(["get", btm, "root.backgroundItems.allContainers.0.internalItems.0.bookmark.data.volumeUUID"])
        XCTAssertEqual(uuid.stdout, "095D50F8-562C-38AD-8907-C2B9E50C2DEA\n", uuid.stderr)
    }
}

private extension UInt64 {
    var bigEndianBytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: self >> (8 * (7 - $0))) } }
}
