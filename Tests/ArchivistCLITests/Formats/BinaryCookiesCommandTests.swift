import ArchivistTestSupport
import Foundation
import XCTest

/// Binary cookie stores through the built command: `dump`, `dump --json`,
/// `get`, `lint` and `info` read them as an array of cookie dictionaries;
/// the real stores in `../shared/real-world/beside` match the PyPI
/// `binarycookies` oracle field for field; nothing writes a plist over one
/// in place. No cookie value of the real files is printed: a mismatch names
/// the file, the cookie and the field.
extension CLITests {
    /// What `binarycookies.load` reads, as the fields `dump --json` shows:
    /// dates floored to whole seconds, as JSON writes them.
    private static let oracleScript = """
        import sys, json, binarycookies
        out = []
        for c in binarycookies.load(open(sys.argv[1], 'rb')):
            f = c.raw_flags
            d = lambda t: t.replace(microsecond=0).strftime('%Y-%m-%dT%H:%M:%SZ')
            item = {'domain': c.url, 'name': c.name, 'path': c.path, 'value': c.value, 'flags': f,
                    'secure': bool(f & 1), 'httpOnly': bool(f & 4),
                    'expires': d(c.expiry_datetime), 'created': d(c.create_datetime)}
            if c.comment is not None: item['comment'] = c.comment
            out.append(item)
        print(json.dumps(out))
        """

    private func cookieRows() throws -> [(path: String, valid: Bool)] {
        try CorpusManifest.rowsOrSkip(at: TestPaths.realWorld.appendingPathComponent("beside"))
            .filter { $0.format == "binarycookies" }.map { ($0.file, $0.valid) }
    }

    private func jsonArray(_ data: Data) -> [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
    }

    /// Each real store dumps, dumps as JSON, lints and is reported by `info`
    /// as format binarycookies; its cookies are the oracle's, field for field.
    func testRealCookieStoresReadAsTheOracleReadsThem() throws {
        let rows = try cookieRows()
        XCTAssertGreaterThanOrEqual(rows.count, 6)
        let python = try pythonOracle(importing: "binarycookies", package: "binarycookies")
        for (path, valid) in rows where valid {
            let dump = try run(["dump", path])
            XCTAssertEqual(dump.status, 0, path + ": " + dump.stderr)
            XCTAssertTrue(dump.stdout.hasPrefix("[\n  0 => {\n    \"domain\" => "), path)
            let lint = try run(["lint", path])
            XCTAssertEqual(lint.status, 0, path + ": " + lint.stdout)
            XCTAssertEqual(lint.stdout, "\(path): OK\n")
            let info = try run(["info", path])
            XCTAssertEqual(info.status, 0, path)
            XCTAssertTrue(info.stdout.hasPrefix("\(path)\n  format: binarycookies, "), path)
            let json = try run(["dump", "--json", path])
            XCTAssertEqual(json.status, 0, path + ": " + json.stderr)
            let oracle = try run(executable: python, ["-c", Self.oracleScript, path])
            XCTAssertEqual(oracle.status, 0, path)
            guard let ours = jsonArray(json.output), let theirs = jsonArray(oracle.output) else {
                XCTFail("\(path): not a JSON array of cookies"); continue
            }
            XCTAssertEqual(ours.count, theirs.count, path)
            XCTAssertGreaterThan(ours.count, 0, path)
            for (i, (a, b)) in zip(ours, theirs).enumerated() {
                for key in ["domain", "name", "path", "value", "expires", "created", "comment"] {
                    XCTAssertEqual(a[key] as? String, b[key] as? String, "\(path): cookie \(i): \(key) differs")
                }
                for key in ["secure", "httpOnly"] {
                    XCTAssertEqual(a[key] as? Bool, b[key] as? Bool, "\(path): cookie \(i): \(key) differs")
                }
                XCTAssertEqual(a["flags"] as? Int, b["flags"] as? Int, "\(path): cookie \(i): flags differ")
                XCTAssertNotNil(a["page"] as? Int)
                XCTAssertNotNil(a["record"] as? Int)
            }
            let domain = try run(["get", path, "0.domain"])
            XCTAssertEqual(domain.stdout, (theirs.first?["domain"] as? String).map { $0 + "\n" }, path)
        }
    }

    /// A generated store through every read command, and the oracle reads
    /// it as Archivist does.
    func testAGeneratedCookieStoreReadsThroughTheCommands() throws {
        let file = work.appendingPathComponent("Cookies.binarycookies")
        try Data(BinaryCookiesSample.example).write(to: file)
        let dump = try run(["dump", "Cookies.binarycookies"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("""
              2 => {
                "domain" => ".example.org"
                "name" => "lang"
                "path" => "/"
                "value" => "en"
                "comment" => "language"
                "secure" => true
                "httpOnly" => false
                "flags" => 1
                "expires" => 2027-01-01T00:00:00Z
            """), dump.stdout)
        XCTAssertEqual(try run(["get", "Cookies.binarycookies", "1.path"]).stdout, "/app\n")
        XCTAssertEqual(try run(["get", "Cookies.binarycookies", "0.httpOnly"]).stdout, "true\n")
        XCTAssertEqual(try run(["lint", "Cookies.binarycookies"]).stdout, "Cookies.binarycookies: OK\n")
        let info = try run(["info", "Cookies.binarycookies"])
        XCTAssertEqual(info.stdout, "Cookies.binarycookies\n  format: binarycookies, \(BinaryCookiesSample.example.count) bytes\n  cookies: 3\n  values: 38, depth: 3\n")
        let python = try pythonOracle(importing: "binarycookies", package: "binarycookies")
        let oracle = try run(executable: python, ["-c", Self.oracleScript, file.path])
        let json = try run(["dump", "--json", "Cookies.binarycookies"])
        guard let ours = jsonArray(json.output), let theirs = jsonArray(oracle.output) else { return XCTFail(json.stdout) }
        XCTAssertEqual(ours.count, 3)
        for (a, b) in zip(ours, theirs) {
            for key in ["domain", "name", "path", "value", "expires", "created", "comment"] {
                XCTAssertEqual(a[key] as? String, b[key] as? String, key)
            }
            XCTAssertEqual(a["flags"] as? Int, b["flags"] as? Int)
        }
    }

    /// A cookie store is read-only: `set` and `convert` in place refuse it
    /// (the file is untouched); to another file they write a property list.
    func testACookieStoreIsNeverOverwrittenWithAPlist() throws {
        let file = work.appendingPathComponent("Cookies.binarycookies")
        let bytes = BinaryCookiesSample.example
        try Data(bytes).write(to: file)
        let set = try run(["set", "--type", "string", "Cookies.binarycookies", "0.value", "x"])
        XCTAssertEqual(set.status, 1)
        XCTAssertTrue(set.stderr.contains("a binary cookie store (Cookies.binarycookies) is read-only"), set.stderr)
        let convert = try run(["convert", "--in-place", "--to", "xml", "Cookies.binarycookies"])
        XCTAssertNotEqual(convert.status, 0)
        XCTAssertTrue(convert.stderr.contains("a binary cookie store (Cookies.binarycookies) is read-only"), convert.stderr)
        XCTAssertEqual(try Data(contentsOf: file), Data(bytes))
        let toXML = try run(["convert", "--to", "xml", "-o", "cookies.plist", "Cookies.binarycookies"])
        XCTAssertEqual(toXML.status, 0, toXML.stderr)
        let written = try String(contentsOf: work.appendingPathComponent("cookies.plist"), encoding: .utf8)
        XCTAssertTrue(written.contains("<key>domain</key>\n\t\t<string>.example.com</string>"), written)
        let setOut = try run(["set", "--type", "string", "Cookies.binarycookies", "0.value", "x", "-o", "edited.plist"])
        XCTAssertEqual(setOut.status, 0, setOut.stderr)
        XCTAssertEqual(try run(["get", "edited.plist", "0.value"]).stdout, "x\n")
    }
}
