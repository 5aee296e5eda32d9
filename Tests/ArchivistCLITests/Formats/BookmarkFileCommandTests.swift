import ArchivistTestSupport
import Foundation
import XCTest

/// Stand-alone bookmark files (`book`, and Finder alias files that wrap
/// bookmark data in `book\0\0\0\0mark\0\0\0\0`) through the built command:
/// `dump` and `dump --json` decode the document's one `<data>` as they decode
/// bookmark data inside a plist, `info` reports the format and the target,
/// `lint` reads them; the tables match the PyPI `mac-alias` oracle (a Finder
/// alias file given to it re-wrapped in the standard 48-byte header, as it
/// does not know the alias-file wrapper).
extension CLITests {
    /// The entry count of each table of contents (the first, then each other
    /// by ID) and the target path, as `mac_alias.Bookmark` reads them.
    private static let bookmarkOracleScript = """
        import sys, json, struct, mac_alias
        d = open(sys.argv[1], 'rb').read()
        if d[4:16] == b'\\0\\0\\0\\0mark\\0\\0\\0\\0':
            body = d[struct.unpack('<I', d[16:20])[0]:]
            d = b'book' + struct.pack('<III', len(body) + 48, 0x10040000, 48) + bytes(32) + body
        b = mac_alias.Bookmark.from_bytes(d)
        tocs = [len(b.tocs[0][1])] + ['%d:%d' % (t, len(v)) for t, v in b.tocs[1:]]
        print(json.dumps({'tocs': tocs, 'path': '/' + '/'.join(b.get(mac_alias.kBookmarkPath))}))
        """

    func testRealBookmarkFilesDecodeAsTheOracleReadsThem() throws {
        // Bookmarks, and the Finder alias files (the oracle's valid=no
        // rows); the classic alias record stays a kind not read.
        let rows = try CorpusManifest.rowsOrSkip(at: TestPaths.realWorld.appendingPathComponent("beside"))
            .filter { $0.format == "bookmark" || ($0.format == "alias" && !$0.valid) }
            .map { (path: $0.file, format: $0.format) }
        XCTAssertGreaterThanOrEqual(rows.count, 7)
        let python = try pythonOracle(importing: "mac_alias", package: "mac-alias")
        for (path, format) in rows {
            let dump = try run(["dump", path])
            XCTAssertEqual(dump.status, 0, path + ": " + dump.stderr)
            XCTAssertTrue(dump.stdout.hasPrefix("<data ") && dump.stdout.contains("> holding a bookmark {\n  \"path\" => "), path)
            let lint = try run(["lint", path])
            XCTAssertEqual(lint.stdout, "\(path): OK\n")
            let info = try run(["info", path])
            XCTAssertEqual(info.status, 0, path)
            XCTAssertTrue(info.stdout.hasPrefix("\(path)\n  format: \(format), "), info.stdout)
            let json = try run(["dump", "--json", path])
            XCTAssertEqual(json.status, 0, path)
            guard let object = try? JSONSerialization.jsonObject(with: json.output) as? [String: Any],
                  let bookmark = object["bookmark"] as? [String: Any], object["data"] is String else {
                XCTFail("\(path): dump --json is not {data, bookmark}"); continue
            }
            let oracle = try run(executable: python, ["-c", Self.bookmarkOracleScript, path])
            XCTAssertEqual(oracle.status, 0, path)
            guard let theirs = try? JSONSerialization.jsonObject(with: oracle.output) as? [String: Any] else {
                XCTFail("\(path): no oracle output"); continue
            }
            let others = bookmark.keys.filter { $0.hasPrefix("toc ") }.sorted {
                (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0)
            }
            let ours: [Any] = [bookmark.count - others.count] + others.map { "\($0.dropFirst(4)):\((bookmark[$0] as? [String: Any])?.count ?? -1)" }
            XCTAssertEqual("\(ours)", "\((theirs["tocs"] as? [Any]) ?? [])", path)
            XCTAssertEqual(bookmark["path"] as? String, theirs["path"] as? String, path)
            XCTAssertTrue(info.stdout.contains("target \(theirs["path"] as? String ?? "?")\n"), info.stdout)
        }
    }

    /// `lint` decodes a bookmark file: one that does not decode is an error.
    func testLintFindsABookmarkFileThatDoesNotDecode() throws {
        let broken = Array("book".utf8) + [0, 0, 0, 0] + Array("mark".utf8) + [UInt8](repeating: 0, count: 20)
        try Data(broken).write(to: work.appendingPathComponent("broken.alias"))
        let lint = try run(["lint", "broken.alias"])
        XCTAssertEqual(lint.status, 1)
        XCTAssertEqual(lint.stdout, "broken.alias: offset 0: error: a Finder alias file (bookmark data) that does not decode as a bookmark\n")
    }

    /// A bookmark file is read-only: `set` in place refuses it, the file untouched.
    func testABookmarkFileIsNeverOverwrittenWithAPlist() throws {
        let root = TestPaths.realWorld.appendingPathComponent("beside/perl-mac-alias/t/eg/folder.alias")
        guard let bytes = try? Data(contentsOf: root) else { throw XCTSkip("no ../shared/real-world/beside") }
        try bytes.write(to: work.appendingPathComponent("folder.alias"))
        let set = try run(["set", "--type", "string", "folder.alias", "x", "y"])
        XCTAssertEqual(set.status, 1)
        XCTAssertTrue(set.stderr.contains("a Finder alias file (bookmark data) is read-only"), set.stderr)
        XCTAssertEqual(try Data(contentsOf: work.appendingPathComponent("folder.alias")), bytes)
    }
}
