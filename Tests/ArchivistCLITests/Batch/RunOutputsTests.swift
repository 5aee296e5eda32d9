import ArchivistCore
import Foundation
import XCTest

/// An output never lands on what the run reads or keeps (`RunOutputs`): not
/// on an input, a backup, the rules or configuration file, the store, or
/// another output of the same run, however spelled; and `-o` never makes a
/// folder. Each refused run leaves every file as it was.
extension CLITests {
    /// Copies a corpus file into the scratch folder as `name`.
    @discardableResult
    private func placeCorpusFile(_ path: String, to name: String) throws -> String {
        let url = work.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus(path), toPath: url.path)
        return name
    }

    /// Every file and folder of the scratch folder, with the contents of files.
    private func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        for name in FileManager.default.subpaths(atPath: work.path) ?? [] {
            files[name] = FileManager.default.contents(atPath: work.appendingPathComponent(name).path) ?? Data("folder".utf8)
        }
        return files
    }

    /// Runs `args`, expecting a refusal with `status` whose standard error
    /// contains `message`, and nothing in the scratch folder changed.
    private func assertRefused(_ args: [String], status: Int32, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = snapshot()
        let r = try run(args)
        XCTAssertEqual(r.status, status, "\(args): \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(snapshot(), before, "\(args) changed files", file: file, line: line)
    }

    func testAReportNeverReplacesABackup() throws {
        make("d/a.plist", Self.plainXML)
        // In one run: the report would be written over the backup just made.
        try assertRefused(["convert", "d", "--to", "binary", "--in-place", "--backup", ".orig", "--report", "d/a.plist.orig"], status: 64,
                          "Error: Refusing to write the report to d/a.plist.orig: it is the backup of d/a.plist")
        // The backup of an earlier run, spelled another way.
        let first = try run(["convert", "d", "--to", "binary", "--in-place", "--backup", ".orig"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(contents("d/a.plist.orig"), Data(Self.plainXML.utf8))
        try assertRefused(["convert", "d", "--to", "xml", "--in-place", "--backup", ".orig", "--report", "./d/../d/a.plist.orig"], status: 64,
                          "it is the backup of d/a.plist")
        // Nor an input, a result or the rules file.
        try assertRefused(["convert", "d", "--to", "xml", "--in-place", "--report", "d/a.plist"], status: 64,
                          "Error: Refusing to write the report to d/a.plist: it is the input d/a.plist")
        try assertRefused(["convert", "d/a.plist", "--to", "json", "--output-dir", "out", "--report", "out/a.json"], status: 64,
                          "Error: Refusing to write the report to out/a.json: it is the result of d/a.plist")
        let rules = try placeCorpusFile("rules/scary-creatures.json", to: "rules.json")
        try placeCorpusFile("archives/scary-creature-v1.plist", to: "v1.plist")
        try assertRefused(["migrate", "v1.plist", "--rules", rules, "-o", "v2.plist", "--report", rules], status: 64,
                          "it is the rules file rules.json")
        // Devices are exempt.
        let ok = try run(["convert", "d", "--to", "xml", "--in-place", "--report", "/dev/null"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    func testASuggestionNeverReplacesAnInputOrTheRules() throws {
        try placeCorpusFile("archives/scary-creature-v1.plist", to: "a.plist")
        let rules = try placeCorpusFile("rules/scary-creatures.json", to: "rules.json")
        try assertRefused(["convert", "a.plist", "--to", "codable-json", "--suggest-rules", "-o", "a.plist"], status: 64,
                          "Error: Refusing to write the suggested rules to a.plist: it is the input a.plist")
        symlink("a.plist", work.appendingPathComponent("link.plist").path)
        try assertRefused(["convert", "a.plist", "--to", "codable-json", "--suggest-rules", "-o", "link.plist"], status: 64,
                          "it is the input a.plist")
        try assertRefused(["convert", "a.plist", "--to", "codable-json", "--rules", rules, "--suggest-rules", "-o", rules], status: 64,
                          "it is the rules file")
        let ok = try run(["convert", "a.plist", "--to", "codable-json", "--suggest-rules", "-o", "suggested.json"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertNotNil(contents("suggested.json"))
    }

    func testRulesAndInputsAreNeverTheCodeOrJSONWritten() throws {
        try placeCorpusFile("archives/scary-creature-v1.plist", to: "in/a.plist")
        let rules = try placeCorpusFile("rules/scary-creatures.json", to: "rules.json")
        // codegen: the rules file, a named input, a file found in an input folder.
        try assertRefused(["codegen", "in/a.plist", "--rules", rules, "--secure-coding", "-o", rules], status: 64,
                          "Error: Refusing to write the result to rules.json: it is the rules file rules.json")
        try assertRefused(["codegen", "in/a.plist", "--rules", rules, "--secure-coding", "-o", "in/a.plist"], status: 64,
                          "it is the input in/a.plist")
        try assertRefused(["codegen", "in", "--rules", rules, "--secure-coding", "-o", "./in/a.plist"], status: 64,
                          "it is the input in/a.plist")
        // convert --to codable-json: the rules file (that item is refused).
        try assertRefused(["convert", "in/a.plist", "--to", "codable-json", "--rules", rules, "-o", rules], status: 1,
                          "in/a.plist: error: refusing to write the result of in/a.plist to rules.json: it is the rules file rules.json")
        // In place: a rules file among the inputs is never replaced; one that
        // holds no archive is skipped by a migration as before.
        try placeCorpusFile("rules/scary-creatures.json", to: "in/rules.json")
        let rulesBefore = contents("in/rules.json")
        let migrated = try run(["migrate", "in", "--rules", "in/rules.json", "--in-place", "--backup", ".v1"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertEqual(contents("in/rules.json"), rulesBefore)
        XCTAssertNotNil(contents("in/a.plist.v1"))
        let codable = try run(["convert", "in/rules.json", "--to", "codable-json", "--rules", "in/rules.json", "--in-place"])
        XCTAssertEqual(codable.status, 1)
        XCTAssertTrue(codable.stderr.contains("in/rules.json: error: refusing to write the result of in/rules.json to in/rules.json: it is the rules file in/rules.json"),
                      codable.stderr)
        XCTAssertEqual(contents("in/rules.json"), rulesBefore)
        // set and remove: the input of --from-file.
        make("p.plist", Self.plainXML)
        make("blob.bin", "bytes")
        try assertRefused(["set", "p.plist", "b", "--type", "data", "--from-file", "blob.bin", "-o", "blob.bin"], status: 64,
                          "it is the input blob.bin")
        // lint --stamp: never an input, the configuration or the rules (and
        // never removed after a failed check).
        make("bad.plist", "<plist><dict><key>a</key></plist>")
        try assertRefused(["lint", "bad.plist", "--stamp", "bad.plist"], status: 64, "it is the input bad.plist")
        make("archivist.json", #"{"requireFormat": "xml"}"#)
        try assertRefused(["lint", "p.plist", "--config", "archivist.json", "--stamp", "archivist.json"], status: 64,
                          "it is the configuration file archivist.json")
        try assertRefused(["lint", ".", "--stamp", "p.plist"], status: 64, "it is the input ./p.plist")
        // An earlier stamp in a linted folder is replaced.
        try FileManager.default.removeItem(at: work.appendingPathComponent("bad.plist"))
        for _ in 0..<2 {
            let stamped = try run(["lint", ".", "--stamp", "lint.stamp"])
            XCTAssertEqual(stamped.status, 0, stamped.stderr)
            XCTAssertEqual(contents("lint.stamp"), Data("// archivist lint: every input is valid\n".utf8))
        }
    }

    func testAnOutputFileNeverMakesFolders() throws {
        make("p.plist", Self.plainXML)
        let archive = corpus("archives/scary-creature-v1.plist"), rules = corpus("rules/scary-creatures.json")
        let commands: [[String]] = [
            ["convert", "p.plist", "--to", "json", "-o"], ["set", "p.plist", "name", "x", "--type", "string", "-o"],
            ["remove", "p.plist", "name", "-o"], ["migrate", archive, "--rules", rules, "-o"],
            ["codegen", archive, "--rules", rules, "--secure-coding", "-o"], ["convert", "p.plist", "--to", "swift", "-o"],
            ["convert", archive, "--to", "codable-json", "--suggest-rules", "-o"],
            ["convert", "p.plist", "--to", "xml", "--output-dir", "out", "--report"],
        ]
        for command in commands {
            try assertRefused(command + ["no/such/folder/x"], status: 1, "cannot write no/such/folder/x: no such folder no/such/folder")
        }
        try assertRefused(["convert", "p.plist", "--to", "json", "-o", "p.plist/x"], status: 1, "p.plist is not a folder")
        // An output folder is still made, with its parents (as the guide says).
        let r = try run(["convert", "p.plist", "--to", "json", "--output-dir", "new/out"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotNil(contents("new/out/p.json"))
    }
}
