import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// `lint`: its lines and exit codes, archives, folder walks, the corpora.
extension CLITests {
    func testLintLinesAndExitCodes() throws {
        let ok = try run(["lint", corpus("foundation/strings.xml.plist"), corpus("foundation/strings.bplist")])
        XCTAssertEqual(ok.status, 0)
        XCTAssertEqual(ok.stdout, "\(corpus("foundation/strings.xml.plist")): OK\n\(corpus("foundation/strings.bplist")): OK\n")
        XCTAssertEqual(ok.stderr, "")

        make("bad.json", "{\n  \"a\": tru\n}")
        make("dup.plist", "<plist><dict>\n<key>k</key><true/>\n<key>k</key><false/>\n<key>k</key><true/>\n</dict></plist>")
        make("good.plist", "<plist><true/></plist>")
        let bad = try run(["lint", "bad.json", "dup.plist", "good.plist"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "")
        let lines = bad.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, bad.stdout)
        XCTAssertTrue(lines[0].hasPrefix("bad.json:2:8: error: "), lines[0])
        XCTAssertEqual(Array(lines[1...]), [
            "dup.plist:3:1: error: duplicate key \"k\"; the last value is kept (see 2:1)",
            "dup.plist:4:1: error: duplicate key \"k\"; the last value is kept (see 3:1)",
            "good.plist: OK",
        ])

        let binary = try run(["lint", corpus("malformed/bad-offset.bplist")])
        XCTAssertEqual(binary.status, 1)
        XCTAssertEqual(binary.stdout, "\(corpus("malformed/bad-offset.bplist")): offset 234 (object 0): error: offset table entry 0 points at 255, outside the object area 8..<234\n")

        let quiet = try run(["lint", "--quiet", "good.plist", "bad.json"])
        XCTAssertEqual(quiet.status, 1)
        XCTAssertTrue(quiet.stdout.hasPrefix("bad.json:2:8: error: "), quiet.stdout)
        XCTAssertEqual(quiet.stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(try run(["lint", "-q", "good.plist"]).stdout, "")

        let missing = try run(["lint", "good.plist", "missing.plist"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stdout, "good.plist: OK\n")
        XCTAssertEqual(missing.stderr, "missing.plist: error: cannot read missing.plist: No such file or directory\n")

        let stdin = try run(["lint", "-"], stdin: Data("{ a = b; }".utf8))
        XCTAssertEqual(stdin.stdout, "-: OK\n")
    }

    func testLintChecksKeyedArchives() throws {
        let archive = "<plist><dict><key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>"
            + "<key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>"
            + "<key>$objects</key><array><string>$null</string><dict><key>name</key><dict><key>CF$UID</key><integer>5</integer></dict>"
            + "<key>$class</key><dict><key>CF$UID</key><integer>2</integer></dict></dict>"
            + "<dict><key>$classname</key><string>Foo</string><key>$classes</key><array><string>Foo</string></array></dict></array></dict></plist>"
        make("archive.plist", archive)
        let broken = try run(["lint", "archive.plist"])
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stdout, "archive.plist: $objects[1] (root.name): error: name refers to object 5, past the 3 objects\n")
        make("fixed.plist", archive.replacingOccurrences(of: "<integer>5</integer>", with: "<integer>0</integer>"))
        XCTAssertEqual(try run(["lint", "fixed.plist"]).stdout, "fixed.plist: OK\n")
    }

    func testLintWalksFoldersInOrderSkippingHiddenEntries() throws {
        make("tree/b.plist", "<plist><true/></plist>")
        make("tree/a/inner.json", "[1]")
        make("tree/a.strings", "\"k\" = \"v\";")
        make("tree/.hidden.plist", "not a plist")
        make("tree/.git/HEAD", "not a plist")
        make("tree/c/broken.plist", "<plist>")
        let r = try run(["lint", "tree"])
        XCTAssertEqual(r.status, 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // A .json found in a folder is not of the plist family: skipped and counted.
        XCTAssertEqual(lines.count, 3, r.stdout)
        XCTAssertEqual(Array(lines.prefix(2)), ["tree/a.strings: OK", "tree/b.plist: OK"])
        XCTAssertTrue(lines.last?.hasPrefix("tree/c/broken.plist:1:") == true, r.stdout)
        XCTAssertEqual(r.stderr, "1 file skipped (not a property list; --verbose lists them)\n")
        let all = try run(["lint", "--all-files", "tree"])
        XCTAssertEqual(all.stdout.split(separator: "\n").first.map(String.init), "tree/a/inner.json: OK")
        XCTAssertEqual(all.stderr, "")
        XCTAssertEqual(try run(["lint", "-q", "tree/a", "tree/b.plist"]).status, 0)
        XCTAssertEqual(try run(["lint", "tree/a/inner.json"]).stdout, "tree/a/inner.json: OK\n", "a named file is always read")
    }

    /// `lint` agrees with the manifests: every valid file is OK, except those
    /// with duplicate keys, which Apple accepts and lint reports; every invalid
    /// one (broken archives included) has an error line.
    func testLintAgreesWithTheManifests() throws {
        var paths: [String] = [], valid: [String: Bool] = [:]
        for row in [TestPaths.corpus, TestPaths.sharedCorpus].flatMap(CorpusManifest.rows(at:)) {
            paths.append(row.file)
            valid[row.file] = row.valid && !row.kind.contains("duplicate key")
        }
        XCTAssertGreaterThan(paths.count, 40)
        let r = try run(["lint"] + paths)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.status, valid.values.contains(false) ? 1 : 0)
        var verdicts: [String: Bool] = [:]
        for line in r.stdout.split(separator: "\n").map(String.init) {
            if line.hasSuffix(": OK"), valid[String(line.dropLast(4))] != nil {
                verdicts[String(line.dropLast(4))] = true
            } else if let path = paths.first(where: { line.hasPrefix($0 + ":") && line.contains(": error: ") }) {
                verdicts[path] = false
            } else {
                XCTFail("unexpected line: \(line)")
            }
        }
        for path in paths {
            XCTAssertEqual(verdicts[path], valid[path], path)
        }
    }

    func testLintTheBundledCorpus() throws {
        // The corpus holds .json and .txt files a walk would skip: --all-files reads them.
        let valid = try run(["lint", "-q", "--all-files", corpus("foundation"), corpus("json"), corpus("openstep"), corpus("encodings")])
        XCTAssertEqual(valid.status, 0, valid.stdout + valid.stderr)
        XCTAssertEqual(valid.stdout + valid.stderr, "")
        let malformed = try run(["lint", "--all-files", corpus("malformed")])
        XCTAssertEqual(malformed.status, 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus("malformed")).sorted()
        let lines = malformed.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, files.count, malformed.stdout)
        for (line, file) in zip(lines, files) {
            XCTAssertTrue(line.hasPrefix(corpus("malformed/\(file)") + ":"), String(line))
            XCTAssertTrue(line.contains(": error: "), String(line))
        }
    }
}
