import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// `get`, `set`, `remove`, `info`, `diff`, `dump --stable` as a git diff
/// driver, and shell completions, on the built binary.
extension CLITests {
    func testGetOnEveryFormat() throws {
        for file in ["foundation/info-plist.bplist", "foundation/info-plist.xml.plist"] {
            XCTAssertEqual(try run(["get", corpus(file), "CFBundleIdentifier"]).stdout, "org.example.Archivist\n")
            XCTAssertEqual(try run(["get", corpus(file), "CFBundleURLTypes.0.CFBundleURLSchemes.0"]).stdout, "archivist\n")
            XCTAssertEqual(try run(["get", corpus(file), "LSRequiresIPhoneOS", "--type"]).stdout, "bool\n")
            XCTAssertEqual(try run(["get", corpus(file), "CFBundleURLTypes.0", "--to", "json"]).stdout, "{\n  \"CFBundleURLSchemes\": [\n    \"archivist\"\n  ]\n}\n")
        }
        let missing = try run(["get", corpus("foundation/info-plist.bplist"), "CFBundleURLTypes.3"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "\(corpus("foundation/info-plist.bplist")): error: CFBundleURLTypes.3: index 3 out of range (array of 1)\n")
        let expect = try run(["get", corpus("foundation/info-plist.bplist"), "CFBundleVersion", "--expect", "integer"])
        XCTAssertEqual(expect.status, 1)
        XCTAssertTrue(expect.stderr.hasSuffix("error: CFBundleVersion: expected integer, found string\n"), expect.stderr)
        XCTAssertEqual(try run(["get", corpus("foundation/info-plist.bplist"), "CFBundleVersion", "--expect", "string"]).status, 0)
        // Through archives and archives nested in data.
        XCTAssertEqual(try run(["get", corpus("archives/computer.plist"), "root.cpu_coder.cores.1.coreID"]).stdout, "C3D4\n")
        XCTAssertEqual(try run(["get", corpus("archives/computer.plist"), "root.cpu_coder", "--type"]).stdout, "MusicBox.CPU.CPUCoder\n")
        XCTAssertEqual(try run(["get", corpus("archives/preferences-with-user.plist"), "currentUser.root.age"]).stdout, "36\n")
        XCTAssertEqual(try run(["get", corpus("json/strings.json"), "ascii"]).stdout, "plain\n")
        let data = try run(["get", corpus("archives/foundation-values.plist"), "root.data", "--raw"])
        XCTAssertEqual(data.output, Data([1, 2, 3]))
        XCTAssertEqual(try run(["get", corpus("archives/foundation-values.plist"), "root.data"]).stdout, "AQID\n")
        // The shared corpus: an Apple-made archive and an Xcode project.
        let shared = TestPaths.sharedCorpus
        if FileManager.default.fileExists(atPath: shared.path) {
            let url = try run(["get", shared.path + "/corelibs-foundation/Tests/Foundation/Resources/NSKeyedUnarchiver-URLTest.plist", "root", "--type"])
            XCTAssertEqual(url.status, 0, url.stderr)
            let project = try run(["get", shared.path + "/alamofire/Alamofire.xcodeproj/project.pbxproj", "objectVersion"])
            XCTAssertEqual(project.status, 0, project.stderr)
        }
    }

    func testSetAndRemoveKeepTheFormat() throws {
        try FileManager.default.copyItem(atPath: corpus("foundation/info-plist.bplist"), toPath: work.appendingPathComponent("Info.plist").path)
        XCTAssertEqual(try run(["set", "Info.plist", "CFBundleVersion", "43", "--type", "string"]).status, 0)
        XCTAssertEqual(try run(["set", "Info.plist", "UISupportedInterfaceOrientations", "Landscape", "--type", "string", "--append"]).status, 0)
        XCTAssertEqual(try run(["set", "Info.plist", "Build.date", "2024-05-01T12:00:00Z", "--type", "date", "--create"]).status, 0)
        XCTAssertEqual(try run(["set", "Info.plist", "Extra", #"{"a": [1, 2]}"#, "--type", "json"]).status, 0)
        make("blob.bin", "\u{01}\u{02}")
        XCTAssertEqual(try run(["set", "Info.plist", "Blob", "--type", "data", "--from-file", "blob.bin"]).status, 0)
        XCTAssertEqual(try run(["remove", "Info.plist", "CFBundleURLTypes"]).status, 0)
        let bytes = try XCTUnwrap(contents("Info.plist"))
        XCTAssertEqual(bytes.prefix(8), Data("bplist00".utf8), "binary stays binary")
        let dict = try XCTUnwrap(try PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any])
        XCTAssertEqual(dict["CFBundleVersion"] as? String, "43")
        XCTAssertEqual(dict["UISupportedInterfaceOrientations"] as? [String], ["UIInterfaceOrientationPortrait", "Landscape"])
        XCTAssertEqual((dict["Build"] as? [String: Any])?["date"] as? Date, Date(timeIntervalSince1970: 1_714_564_800))
        XCTAssertEqual((dict["Extra"] as? [String: Any])?["a"] as? [Int], [1, 2])
        XCTAssertEqual(dict["Blob"] as? Data, Data([1, 2]))
        XCTAssertNil(dict["CFBundleURLTypes"])
        XCTAssertEqual(dict["CFBundleIdentifier"] as? String, "org.example.Archivist", "the rest is as it was")

        let bad = try run(["set", "Info.plist", "x", "nope", "--type", "integer"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, "error: \"nope\" is not an integer\n")
        let missing = try run(["remove", "Info.plist", "a.b"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "Info.plist: error: a: no key \"a\" (dictionary of 7 keys; --create makes missing dictionaries)\n")
        XCTAssertEqual(contents("Info.plist"), bytes, "a failed edit leaves the file as it was")

        // -o writes elsewhere; archives and nested archives are edited in place.
        try FileManager.default.copyItem(atPath: corpus("archives/preferences-with-user.plist"), toPath: work.appendingPathComponent("prefs.plist").path)
        XCTAssertEqual(try run(["set", "prefs.plist", "currentUser.root.name", "Grace", "--type", "string", "-o", "edited.plist"]).status, 0)
        XCTAssertEqual(try run(["get", "edited.plist", "currentUser.root.name"]).stdout, "Grace\n")
        XCTAssertEqual(try run(["get", "prefs.plist", "currentUser.root.name"]).stdout, "Ada\n")
    }

    func testInfoAndDiff() throws {
        let info = try run(["info", corpus("archives/computer.plist")])
        XCTAssertEqual(info.status, 0)
        XCTAssertTrue(info.stdout.contains("  trailer: offset size "), info.stdout)
        XCTAssertTrue(info.stdout.contains("  keyed archive: NSKeyedArchiver version 100000, top keys: root, 5 objects in 15 entries\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("secure coding: fails lint --secure (allow MusicBox.Computer, MusicBox.CPU.CPUCoder, MusicBox.CPUCore; box 2 inline primitives)"), info.stdout)
        let json = try run(["info", "--json", corpus("archives/preferences-with-user.plist"), corpus("json/strings.json")])
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(reports.map { $0["format"] as? String }, ["binary", "json"])
        XCTAssertEqual(((reports[0]["nestedArchives"] as? [[String: Any]])?.first)?["keyPath"] as? String, "currentUser")

        XCTAssertEqual(try run(["convert", corpus("foundation/info-plist.bplist"), "--to", "xml", "-o", "info.xml"]).status, 0)
        let same = try run(["diff", corpus("foundation/info-plist.bplist"), "info.xml"])
        XCTAssertEqual(same.status, 0)
        XCTAssertEqual(same.stdout, "")
        XCTAssertEqual(try run(["set", "info.xml", "CFBundleVersion", "43", "--type", "string"]).status, 0)
        let changed = try run(["diff", corpus("foundation/info-plist.bplist"), "info.xml"])
        XCTAssertEqual(changed.status, 1)
        XCTAssertEqual(changed.stdout, "~ CFBundleVersion: string \"42\" -> string \"43\"\n")
        let machine = try run(["diff", "--json", corpus("foundation/info-plist.bplist"), "info.xml"])
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: machine.output) as? [[String: Any]])
        XCTAssertEqual(entries.first?["change"] as? String, "changed")
        XCTAssertEqual(entries.first?["new"] as? String, "43")
    }

    /// `dump --stable` as git's textconv: `git diff` of a binary plist shows the changed key and value.
    func testGitDiffDriver() throws {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Self.productsDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["HOME"] = work.path
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        let repo = work.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        for args in [["git", "init", "-q"], ["git", "config", "user.email", "dev@example.com"], ["git", "config", "user.name", "Dev"],
                     ["git", "config", "diff.plist.textconv", "archivist dump --stable"]] {
            XCTAssertEqual(try shell(args, in: repo, environment: env).status, 0, "\(args)")
        }
        try "*.plist diff=plist\n".write(to: repo.appendingPathComponent(".gitattributes"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: corpus("foundation/info-plist.bplist"), toPath: repo.appendingPathComponent("Info.plist").path)
        XCTAssertEqual(try shell(["git", "add", "."], in: repo, environment: env).status, 0)
        XCTAssertEqual(try shell(["git", "commit", "-q", "-m", "init"], in: repo, environment: env).status, 0)
        let edit = try run(["set", "repo/Info.plist", "CFBundleVersion", "43", "--type", "string"])
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let diff = try shell(["git", "--no-pager", "diff", "--no-color"], in: repo, environment: env)
        XCTAssertEqual(diff.status, 0, diff.stdout)
        XCTAssertTrue(diff.stdout.contains("-  \"CFBundleVersion\" => \"42\""), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("+  \"CFBundleVersion\" => \"43\""), diff.stdout)
        XCTAssertFalse(diff.stdout.contains("Binary files"), diff.stdout)
    }

    func testCompletionScripts() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try run(["--generate-completion-script", shell])
            XCTAssertEqual(r.status, 0, shell)
            XCTAssertTrue(r.stdout.contains("archivist"), shell)
            XCTAssertTrue(r.stdout.contains("migrate"), shell)
        }
    }
}
