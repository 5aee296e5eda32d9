import ArchivistDatabase
import ArchivistTestSupport
import Foundation
import XCTest

/// Files that are not property lists are named by their content, never their
/// names: every command that refuses one says what it is (and the command to
/// use when Archivist has one), `info` prints the kind, and a folder walk
/// skips and counts the files that are not of the property-list family.
extension CLITests {
    /// Writes bytes into the scratch folder.
    private func makeBytes(_ name: String, _ bytes: [UInt8]) {
        let url = work.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    }

    /// Generated files of the common kinds users hand a plist tool, with the
    /// name each is given.
    private func makeOtherKinds() throws -> [(file: String, name: String)] {
        let db = try SQLiteDatabase.create(path: work.appendingPathComponent("sms.db").path)
        try db.execute("CREATE TABLE message (ROWID INTEGER PRIMARY KEY, attributedBody BLOB)")
        makeBytes("body.gz", [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        makeBytes("Shortcut.zip", Array("PK".utf8) + [5, 6] + [UInt8](repeating: 0, count: 18))
        makeBytes("icon.png", [UInt8](Self.png))
        makeBytes("report.pdf", Array("%PDF-1.4\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3] + Array("\n1 0 obj\n<< >>\nendobj\n%%EOF\n".utf8))
        // A 64-bit Mach-O header: magic, CPU type (arm64), subtype, MH_EXECUTE, no load commands.
        makeBytes("tool", [0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0, 0, 0x01, 0, 0, 0, 0, 2, 0, 0, 0] + [UInt8](repeating: 0, count: 16))
        makeBytes("Assets.car", Array("BOMStore".utf8) + [0, 0, 0, 1, 0, 0, 0, 0x10] + [UInt8](repeating: 0, count: 16))
        makeBytes("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [0])
        return [("sms.db", "an SQLite database; use --sqlite sms.db"), ("body.gz", "gzip data, which Archivist does not read"),
                ("Shortcut.zip", "a zip archive, which Archivist does not read"), ("icon.png", "a PNG image, which Archivist does not read"),
                ("report.pdf", "a PDF document, which Archivist does not read"), ("tool", "a Mach-O binary, which Archivist does not read"),
                ("Assets.car", "a compiled asset catalog (BOM), which Archivist does not read"),
                ("photo.jpg", "a JPEG image, which Archivist does not read")]
    }

    /// Every command that reads a file refuses each kind by name, with the
    /// data-error status (1; `diff`'s "could not compare" is 2).
    func testEveryCommandNamesAFileOfAnotherKind() throws {
        make("ok.plist", "<plist><dict><key>a</key><integer>1</integer></dict></plist>")
        make("rules.json", "{\"classes\": {}}")
        for (file, name) in try makeOtherKinds() {
            let expected = "\(file): error: not a property list: \(name)\n"
            let commands: [([String], Int32)] = [
                (["dump", file], 1), (["dump", "--json", file], 1), (["dump", "--format", "dot", file], 1),
                (["get", file, "a"], 1), (["set", file, "a", "2", "--type", "integer"], 1), (["remove", file, "a"], 1),
                (["classes", file], 1), (["lint", file], 1), (["convert", file, "--to", "xml1", "-o", "out.plist"], 1),
                (["convert", file, "--to", "xml1", "--in-place"], 1), (["migrate", file, "--rules", "rules.json", "-o", "out.plist"], 1),
                (["schema", file], 1), (["codegen", "--secure-coding", file], 1), (["diff", file, "ok.plist"], 2), (["diff", "ok.plist", file], 2),
            ]
            for (args, status) in commands {
                let r = try run(args)
                let said = args.first == "lint" ? r.stdout : r.stderr
                XCTAssertEqual(r.status, status, args.joined(separator: " ") + ": " + r.stderr)
                XCTAssertEqual(said, expected, args.joined(separator: " "))
            }
            XCTAssertNil(contents("out.plist"), "nothing written for \(file)")
            let info = try run(["info", file])
            XCTAssertEqual(info.status, 0, info.stderr)
            let hinted = name.components(separatedBy: ";")
            let kindLine = hinted.count == 2 ? "\(hinted[0]), not a property list;\(hinted[1])"
                : name.replacingOccurrences(of: ", which", with: ", not a property list, which")
            let size = try XCTUnwrap(contents(file)).count
            XCTAssertEqual(info.stdout, "\(file)\n  kind: \(kindLine)\n  size: \(size) bytes\n")
        }
        let json = try run(["info", "--json", "sms.db"])
        let entry = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(entry["kind"] as? String, "an SQLite database")
        XCTAssertEqual(entry["hint"] as? String, "use --sqlite sms.db")
        XCTAssertEqual(entry["propertyList"] as? Bool, false)
        // A path the shell would split is quoted in the hint.
        try FileManager.default.copyItem(at: work.appendingPathComponent("sms.db"), to: work.appendingPathComponent("my sms.db"))
        XCTAssertEqual(try run(["dump", "my sms.db"]).stderr, "my sms.db: error: not a property list: an SQLite database; use --sqlite 'my sms.db'\n")
        // The hint is what it says: the file reads with --sqlite.
        XCTAssertEqual(try run(["lint", "--sqlite", "sms.db"]).status, 0)
    }

    /// A file that starts like a property list but is broken keeps its
    /// located error: it is not named as another kind.
    func testABrokenPropertyListKeepsItsSyntaxError() throws {
        for (name, text) in [("a.plist", "<?xml version=\"1.0\"?><plist><dict>"), ("b.plist", "{ a = b;"), ("c.strings", "\"k\" = \"v\""),
                             ("d.plist", "( 1, 2"), ("e.json", "[1,")] {
            make(name, text)
            let r = try run(["lint", name])
            XCTAssertEqual(r.status, 1)
            XCTAssertFalse(r.stdout.contains("not a property list"), r.stdout)
            XCTAssertTrue(r.stdout.hasPrefix("\(name):1:"), r.stdout)
        }
        makeBytes("f.plist", Array("bplist00".utf8) + [0xD0, 8])
        XCTAssertTrue(try run(["lint", "f.plist"]).stdout.hasPrefix("f.plist: offset "))
    }

    /// Every file of a kind beside the plists in `../shared/real-world/beside`
    /// is named by `info` (status 0) and by a command that refuses it (`dump`,
    /// status 1); the plist-family files there are not named as another kind.
    func testRealFilesBesideThePlistsAreNamed() throws {
        let rows = try CorpusManifest.rowsOrSkip(at: TestPaths.realWorld.appendingPathComponent("beside"))
        // The kind each format is named by (until Archivist reads it: then its row goes).
        let names = ["alias": "alias"]
        var named = 0, plists = 0
        for row in rows {
            let path = row.file
            let info = try run(["info", path])
            // The Finder alias files (the oracle's valid=no alias rows) are read, as bookmarks.
            if let name = names[row.format], !(row.format == "alias" && !row.valid) {
                XCTAssertEqual(info.status, 0, path)
                XCTAssertTrue(info.stdout.hasPrefix("\(path)\n  kind: "), info.stdout)
                XCTAssertTrue(info.stdout.contains(name) && info.stdout.contains("not a property list, which Archivist does not read yet"), info.stdout)
                let dump = try run(["dump", path])
                XCTAssertEqual(dump.status, 1, path)
                XCTAssertTrue(dump.stderr.hasPrefix("\(path): error: not a property list: ") && dump.stderr.contains(name), dump.stderr)
                named += 1
            } else if row.valid {
                XCTAssertEqual(info.status, 0, path + ": " + info.stderr)
                // A signed profile's kind is its envelope's, holding a property list.
                XCTAssertTrue(info.stdout.contains("  format: ") && !info.stdout.contains("not a property list"), info.stdout)
                plists += 1
            }
        }
        XCTAssertGreaterThanOrEqual(named, 1)  // nibs, signed profiles and .DS_Store files are read now (their own tests)
        XCTAssertGreaterThanOrEqual(plists, 20)
    }

    /// `info` labels each class of the real-world nibs with the framework
    /// `classes` gives it (the class catalogue's): AppKit's classes as
    /// AppKit, Apple's private ones as Apple, not as custom.
    func testInfoLabelsClassesAsClassesDoes() throws {
        let rows = try CorpusManifest.rowsOrSkip(at: TestPaths.realWorld)
        var compared = 0
        for row in rows where row.format == "keyed-archive-binary" && row.kind.hasPrefix("Interface Builder nib") {
            let classes = try run(["classes", row.file])
            let info = try run(["info", row.file])
            XCTAssertEqual(classes.status, 0, row.file)
            for line in classes.stdout.split(separator: "\n") {
                // COUNT, NAME, FRAMEWORK, CHAIN, tab-separated.
                let fields = line.split(separator: "\t")
                guard fields.count >= 3 else { continue }
                XCTAssertTrue(info.stdout.contains("    class \(fields[1]): \(fields[0]) (\(fields[2]))\n"), "\(row.file): \(line)\n\(info.stdout)")
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 20)
    }

    /// `lint DIR` over a folder of mixed files: the plist family is read (by
    /// extension, or by first bytes whatever the name), other files are
    /// skipped and counted, a broken .plist is an error, a hidden .DS_Store is
    /// not walked; --all-files reads every file; a named file is always read.
    func testAFolderOfMixedFilesLintsWithTheOthersSkippedAndCounted() throws {
        make("mixed/Info.plist", "<plist><dict/></plist>")
        make("mixed/en.lproj/Localizable.strings", "\"k\" = \"v\";")
        make("mixed/App.ENTITLEMENTS", "<?xml version=\"1.0\"?><plist><dict/></plist>")
        make("mixed/broken.plist", "{ a = ")
        make("mixed/settings-without-extension", "<?xml version=\"1.0\"?>\n<plist><true/></plist>")
        make("mixed/style.css", "body { color: red; }")
        make("mixed/index.html", "<html><body>hi</body></html>")
        make("mixed/notes.txt", "hello")
        make("mixed/package.json", "{\"name\": \"x\"}")
        make("mixed/LICENSE", "MIT")
        makeBytes("mixed/icon.png", [UInt8](Self.png))
        makeBytes("mixed/.DS_Store", [0, 0, 0, 1] + Array("Bud1".utf8) + [0, 0, 0x10, 0])
        let r = try run(["lint", "mixed"])
        XCTAssertEqual(r.status, 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, r.stdout)
        XCTAssertEqual(lines.filter { $0.hasSuffix(": OK") }, ["mixed/App.ENTITLEMENTS: OK", "mixed/Info.plist: OK",
                                                              "mixed/en.lproj/Localizable.strings: OK", "mixed/settings-without-extension: OK"])
        XCTAssertTrue(lines.contains { $0.hasPrefix("mixed/broken.plist:1:7: error: unexpected end of input") }, r.stdout)
        XCTAssertEqual(r.stderr, "6 files skipped (not property lists; --verbose lists them)\n")
        let verbose = try run(["lint", "--verbose", "mixed"])
        XCTAssertEqual(verbose.stderr, """
            mixed/LICENSE: skipped: not a property list
            mixed/icon.png: skipped: not a property list
            mixed/index.html: skipped: not a property list
            mixed/notes.txt: skipped: not a property list
            mixed/package.json: skipped: not a property list
            mixed/style.css: skipped: not a property list
            6 files skipped (not property lists)

            """)
        // --all-files reads them all: the image is named, the stylesheet is broken OpenStep.
        let all = try run(["lint", "--all-files", "mixed"])
        XCTAssertEqual(all.stderr, "")
        XCTAssertTrue(all.stdout.contains("mixed/icon.png: error: not a property list: a PNG image, which Archivist does not read\n"), all.stdout)
        XCTAssertTrue(all.stdout.contains("mixed/package.json: OK\n"), all.stdout)
        XCTAssertTrue(all.stdout.contains("mixed/style.css:1:"), all.stdout)
        // Named files are always read; a .DS_Store is named by its content.
        XCTAssertEqual(try run(["lint", "mixed/package.json"]).stdout, "mixed/package.json: OK\n")
        XCTAssertEqual(try run(["lint", "mixed/.DS_Store"]).stdout,
                       "mixed/.DS_Store: offset 0: error: .DS_Store: truncated: the header of 36 bytes runs past the end (12 bytes)\n")
        // A store found in a walk is read (its signature is one Archivist reads), and says how.
        _ = try SQLiteDatabase.create(path: work.appendingPathComponent("mixed/sms.db").path)
        try Data("SQLite format 3\u{0}".utf8 + [UInt8](repeating: 0, count: 84)).write(to: work.appendingPathComponent("mixed/sms.db"))
        XCTAssertTrue(try run(["lint", "mixed"]).stdout.contains("mixed/sms.db: error: not a property list: an SQLite database; use --sqlite mixed/sms.db\n"))
        // convert skips the others too, rather than failing on them.
        let converted = try run(["convert", "mixed", "-r", "--to", "xml1", "--output-dir", "out"])
        XCTAssertTrue(converted.stderr.contains("4 converted, 0 unchanged, 6 skipped, 2 failed"), converted.stderr)
        XCTAssertFalse(converted.stderr.contains("style.css"), converted.stderr)
        // --include chooses files by name: they are read.
        let included = try run(["lint", "mixed", "--include", "*.json"])
        XCTAssertEqual(included.stdout, "mixed/package.json: OK\n")
        XCTAssertEqual(included.stderr, "")
    }
}
