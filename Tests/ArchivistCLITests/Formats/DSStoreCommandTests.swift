import ArchivistTestSupport
import Foundation
import XCTest

/// Finder `.DS_Store` files through the built command: `dump`, `dump
/// --json`, `get`, `lint` and `info` read them as a dictionary of records
/// per file name; the real files in `../shared/real-world/beside` match the
/// PyPI `ds-store` oracle record for record; nothing writes a plist over one
/// in place; broken ones are refused with an error, never a crash or a hang.
extension CLITests {
    /// What `ds_store` reads, each record as `[type, value]` under its file
    /// name and code: blobs raw (its codecs off) in base64, dates as
    /// ISO 8601 to the second, four-character codes as Latin-1 text.
    private static let dsStoreOracle = """
        import sys, json, base64, datetime, ds_store.store as S
        from ds_store import DSStore
        S.codecs.clear()
        out = {}
        with DSStore.open(sys.argv[1], 'r') as d:
            for e in d:
                t, v = e.type, e.value
                if t == b'blob': v = base64.b64encode(v).decode()
                elif t == b'type': v = v.decode('latin-1')
                elif t == b'dutc':
                    epoch = datetime.datetime(1904, 1, 1, tzinfo=datetime.timezone.utc)
                    v = (epoch + datetime.timedelta(seconds=v // 65536)).strftime('%Y-%m-%dT%H:%M:%SZ')
                elif t == b'bool': v = bool(v)
                out.setdefault(e.filename, {}).setdefault(e.code.decode('latin-1'), [t.decode('latin-1'), v])
        print(json.dumps(out))
        """

    private func dsStoreRows() throws -> [(path: String, valid: Bool)] {
        let root = TestPaths.realWorld.appendingPathComponent("beside")
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
            throw XCTSkip("no ../shared/real-world/beside/MANIFEST.tsv")
        }
        return text.split(separator: "\n").dropFirst().compactMap { row in
            let cols = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 3, cols[1] == "dsstore" else { return nil }
            return (root.appendingPathComponent(cols[0]).path, cols[2] == "yes")
        }
    }

    /// Compares `convert --to json` of `path` (data in base64, dates to the
    /// second) with the oracle's reading, record for record.
    private func assertMatchesDSStoreOracle(_ path: String, python: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let oracle = try run(executable: python, ["-c", Self.dsStoreOracle, path])
        XCTAssertEqual(oracle.status, 0, path + ": " + oracle.stderr, file: file, line: line)
        let converted = try run(["convert", "--to", "json", "-o", "-", path])
        XCTAssertEqual(converted.status, 0, path + ": " + converted.stderr, file: file, line: line)
        guard let ours = (try? JSONSerialization.jsonObject(with: converted.output)) as? [String: [String: Any]],
              let theirs = (try? JSONSerialization.jsonObject(with: oracle.output)) as? [String: [String: [Any]]] else {
            return XCTFail("\(path): not a dictionary of records", file: file, line: line)
        }
        XCTAssertEqual(Set(ours.keys), Set(theirs.keys), "\(path): the file names differ", file: file, line: line)
        var records = 0
        for (name, codes) in theirs {
            XCTAssertEqual(Set(ours[name]?.keys ?? [:].keys), Set(codes.keys), "\(path): the codes of a name differ", file: file, line: line)
            for (code, pair) in codes {
                records += 1
                let type = pair.first as? String ?? "", expected = pair.count > 1 ? pair[1] : NSNull()
                let actual = ours[name]?[code] ?? NSNull()
                switch type {
                case "bool": XCTAssertEqual(actual as? Bool, expected as? Bool, "\(path): \(code) (bool) differs", file: file, line: line)
                case "long", "shor", "comp": XCTAssertEqual((actual as? NSNumber)?.uint64Value, (expected as? NSNumber)?.uint64Value,
                                                            "\(path): \(code) (\(type)) differs", file: file, line: line)
                default: XCTAssertEqual(actual as? String, expected as? String, "\(path): \(code) (\(type)) differs", file: file, line: line)
                }
            }
        }
        XCTAssertGreaterThan(records, 0, path, file: file, line: line)
    }

    /// Each real `.DS_Store` dumps, dumps as JSON, lints and is reported by
    /// `info` as format dsstore; its records are the oracle's, field for field.
    func testRealDSStoresReadAsTheOracleReadsThem() throws {
        let rows = try dsStoreRows()
        XCTAssertGreaterThanOrEqual(rows.count, 5)
        let python = try pythonOracle(importing: "ds_store", package: "ds-store")
        for (path, valid) in rows where valid {
            let dump = try run(["dump", path])
            XCTAssertEqual(dump.status, 0, path + ": " + dump.stderr)
            XCTAssertTrue(dump.stdout.hasPrefix("{\n  \""), path)
            let json = try run(["dump", "--json", path])
            XCTAssertEqual(json.status, 0, path + ": " + json.stderr)
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: json.output) as? [String: Any], path)
            let lint = try run(["lint", path])
            XCTAssertEqual(lint.stdout, "\(path): OK\n", path)
            let info = try run(["info", path])
            XCTAssertEqual(info.status, 0, path)
            XCTAssertTrue(info.stdout.hasPrefix("\(path)\n  format: dsstore, "), info.stdout)
            try assertMatchesDSStoreOracle(path, python: python)
        }
    }

    /// A generated file through every read command: records by name, the
    /// window settings' binary plist decoded where dump decodes nested data,
    /// and the oracle reads it as Archivist does.
    func testAGeneratedDSStoreReadsThroughTheCommands() throws {
        let file = work.appendingPathComponent(".DS_Store")
        try Data(DSStoreSample.example).write(to: file)
        let dump = try run(["dump", ".DS_Store"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("\"cmmt\" => \"Quarterly figures\""), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("\"moDD\" => 2024-01-01T00:00:00Z"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("\"WindowBounds\" => \"{{100, 200}, {640, 400}}\""), dump.stdout)
        XCTAssertEqual(try run(["get", ".DS_Store", "Report\\.pdf.cmmt"]).stdout, "Quarterly figures\n")
        XCTAssertEqual(try run(["get", ".DS_Store", "\\..vSrn"]).stdout, "1\n")
        XCTAssertEqual(try run(["get", ".DS_Store", "Report\\.pdf.dscl"]).stdout, "false\n")
        XCTAssertEqual(try run(["lint", ".DS_Store"]).stdout, ".DS_Store: OK\n")
        XCTAssertTrue(try run(["info", ".DS_Store"]).stdout.hasPrefix(".DS_Store\n  format: dsstore, \(DSStoreSample.example.count) bytes\n"))
        let python = try pythonOracle(importing: "ds_store", package: "ds-store")
        try assertMatchesDSStoreOracle(file.path, python: python)
    }

    /// A `.DS_Store` is read-only: `set` and `convert` in place refuse it.
    func testADSStoreIsNeverOverwrittenWithAPlist() throws {
        let file = work.appendingPathComponent("DS_Store")
        try Data(DSStoreSample.example).write(to: file)
        let set = try run(["set", "--type", "string", "DS_Store", "Report\\.pdf.cmmt", "x"])
        XCTAssertEqual(set.status, 1)
        XCTAssertTrue(set.stderr.contains("a Finder .DS_Store file is read-only"), set.stderr)
        let convert = try run(["convert", "--in-place", "--to", "xml1", "DS_Store"])
        XCTAssertNotEqual(convert.status, 0)
        XCTAssertEqual(try Data(contentsOf: file), Data(DSStoreSample.example))
        let out = try run(["convert", "--to", "xml1", "-o", "ds.plist", "DS_Store"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(try run(["get", "ds.plist", "Report\\.pdf.cmmt"]).stdout, "Quarterly figures\n")
    }

    /// Broken files: every fault is an error naming the file, never a crash
    /// or a hang (a cycle, a node deeper than its levels, blocks and
    /// lengths past the end, huge counts, an unknown type, a lone surrogate).
    func testHostileDSStoresAreRefusedCleanly() throws {
        typealias S = DSStoreSample
        let record = S.long("a", "vSrn", 1)
        let good = S.file(nodes: [S.leaf([record])])
        var cases: [(String, [UInt8], String)] = [
            ("cycle", S.file(nodes: [S.inner([(2, record)], right: 3), S.leaf([])], levels: 1), "reaches block 2 twice"),
            ("self-right", S.file(nodes: [S.inner([(3, record)], right: 2), S.leaf([])], levels: 1), "reaches block 2 twice"),
            ("too-deep", S.file(nodes: [S.inner([(3, record)], right: 3), S.inner([(2, record)], right: 2)], levels: 1), "deeper than"),
            ("levels", S.file(nodes: [S.leaf([record])], levels: 1_000_000), "levels"),
            ("no-block", S.file(nodes: [S.inner([(99, record)], right: 2)], levels: 1), "block 99 is not one of"),
            ("count", S.file(nodes: [S.be32(0) + S.be32(0x7FFF_FFFF) + record]), "claims 2147483647 records"),
            ("name", S.file(nodes: [S.leaf([S.be32(0x4000_0000) + Array("vSrnlong".utf8)])]), "runs past its node"),
            ("blob", S.file(nodes: [S.leaf([S.record("a", "bwsp", "blob", S.be32(0x7FFF_FFF0))])]), "runs past its node"),
            ("type", S.file(nodes: [S.leaf([S.record("a", "vSrn", "what", S.be32(1))])]), "unknown record type what"),
            ("surrogate", S.file(nodes: [S.leaf([S.be32(1) + [0xD8, 0x00] + Array("vSrnlong".utf8) + S.be32(1)])]), "lone UTF-16 surrogate"),
            ("truncated", Array(good.prefix(40)), "runs past the end"),
            ("header", Array(good.prefix(36)), "runs past the end"),
        ]
        var twoRoots = good
        twoRoots[19] ^= 0x40
        cases.append(("roots", twoRoots, "two root block offsets differ"))
        for (name, bytes, message) in cases {
            try Data(bytes).write(to: work.appendingPathComponent(name))
            for command in [["dump"], ["lint"], ["info"], ["convert", "--to", "json", "-o", "-"]] {
                let r = try run(command + [name])
                XCTAssertNotEqual(r.status, 0, "\(name) \(command)")
                XCTAssertLessThan(r.status, 70, "\(name) \(command)")
                let text = r.stderr + r.stdout
                XCTAssertTrue(text.contains("\(name)") && text.contains("error: ") && text.contains(message), "\(name) \(command): \(text)")
            }
        }
        // The good one of the same making reads.
        try Data(good).write(to: work.appendingPathComponent("good"))
        XCTAssertEqual(try run(["get", "good", "a.vSrn"]).stdout, "1\n")
    }
}
