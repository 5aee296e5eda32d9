import Foundation
import XCTest

/// `lint --format xcode`, `--config archivist.json` and `--stamp`: what the
/// build tool plugin runs.
extension CLITests {
    /// The text format's line for a problem without a line and column,
    /// `PATH: PLACE: error: MESSAGE`, as Xcode's line: `PATH:1:1: error: PLACE: MESSAGE`.
    private func xcodeLine(fromText line: String, path: String) throws -> String {
        let rest = try XCTUnwrap(line.hasPrefix(path + ": ") ? line.dropFirst(path.count + 2) : nil, line)
        let marker = try XCTUnwrap(rest.range(of: ": error: ") ?? rest.range(of: ": warning: "), line)
        let severity = rest[marker].dropFirst(2).dropLast(2)
        return "\(path):1:1: \(severity): \(rest[..<marker.lowerBound]): \(rest[marker.upperBound...])"
    }

    func testLintXcodeFormatPutsEveryProblemAtALineAndColumn() throws {
        make("good.plist", "<plist><dict><key>a</key><true/></dict></plist>")
        make("bad.json", "{\n \"a\": 1,\n \"a\": 2\n}")
        make("big.json", "{\"a\": 99999999999999999999}")
        let short = "short.bplist"
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent(short).path, contents: Data("bplist00".utf8) + Data([1, 2])))
        let archive = corpus("archives/coordinate.plist")

        // Text positions: the text format's lines, warnings included; valid files print nothing.
        let text = try run(["lint", "good.plist", "bad.json", "big.json"])
        let xcode = try run(["lint", "--format", "xcode", "good.plist", "bad.json", "big.json"])
        XCTAssertEqual(xcode.status, 1)
        XCTAssertEqual(text.status, 1)
        let expected = text.stdout.split(separator: "\n").filter { !$0.hasSuffix(": OK") }
        XCTAssertEqual(expected.count, 2, text.stdout)
        XCTAssertEqual(xcode.stdout, expected.joined(separator: "\n") + "\n")
        XCTAssertTrue(xcode.stdout.contains("bad.json:3:2: error: "), xcode.stdout)
        XCTAssertTrue(xcode.stdout.contains("big.json:1:7: warning: "), xcode.stdout)
        XCTAssertEqual(try run(["lint", "--format", "xcode", "big.json"]).status, 0, "a warning leaves the file valid")

        // A binary plist and an archive: at 1:1, the offset or object first in the message.
        for (path, extra) in [(short, [String]()), (archive, ["--secure"])] {
            let textLine = try run(["lint"] + extra + [path]).stdout.trimmingCharacters(in: .newlines)
            XCTAssertFalse(textLine.contains("\n"), textLine)
            let line = try run(["lint", "--format", "xcode"] + extra + [path])
            XCTAssertEqual(line.status, 1)
            XCTAssertEqual(line.stdout, try xcodeLine(fromText: textLine, path: path) + "\n")
        }
        XCTAssertTrue(try run(["lint", "--format", "xcode", short]).stdout.hasPrefix("short.bplist:1:1: error: offset 0"))

        // A file that cannot be read: Xcode's form on standard error.
        let missing = try run(["lint", "--format", "xcode", "missing.plist"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertTrue(missing.stderr.hasPrefix("missing.plist:1:1: error: "), missing.stderr)

        // Control characters in a key and in a file name are escaped: one line per problem.
        let odd = make("odd\nname.json", "{\"a\\u001b\": 1, \"a\\u001b\": 2}")
        let escaped = try run(["lint", "--format", "xcode", odd])
        XCTAssertEqual(escaped.status, 1)
        XCTAssertEqual(escaped.stdout.filter { $0 == "\n" }.count, 1, escaped.stdout)
        XCTAssertFalse(escaped.stdout.unicodeScalars.contains { $0.value == 0x1B }, escaped.stdout)
        XCTAssertEqual(escaped.stdout, try run(["lint", odd]).stdout)
        XCTAssertTrue(escaped.stdout.hasPrefix("odd\\nname.json:1:"), escaped.stdout)
    }

    func testLintConfigFile() throws {
        let archive = "Data/Location.archive"
        try FileManager.default.createDirectory(at: work.appendingPathComponent("Data"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus("archives/coordinate.plist"), toPath: work.appendingPathComponent(archive).path)
        let allowed = "Maps.EncodableCoordinate"
        XCTAssertEqual(try run(["lint", archive]).status, 0, "valid without a policy")

        // secure and allowedClasses, as --secure and --allow.
        make("archivist.json", #"{"secure": true}"#)
        let refused = try run(["lint", "--config", "archivist.json", archive])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, try run(["lint", "--secure", archive]).stdout)
        make("archivist.json", #"{"secure": true, "allowedClasses": ["\#(allowed)"]}"#)
        XCTAssertEqual(try run(["lint", "--config", "archivist.json", archive]).stdout, "\(archive): OK\n")
        // The command line wins: --allow replaces the file's classes.
        XCTAssertEqual(try run(["lint", "--config", "archivist.json", "--allow", "Other.Class", archive]).status, 1)

        // rules: taken from the configuration's folder, not the working one.
        make("cfg/rules.json", #"{"allowedClasses": ["\#(allowed)"]}"#)
        make("cfg/archivist.json", #"{"secure": true, "rules": "rules.json"}"#)
        let ruled = try run(["lint", "--config", "cfg/archivist.json", archive])
        XCTAssertEqual(ruled.status, 0, ruled.stdout + ruled.stderr)
        make("cfg/rules.json", #"{"allowedClasses": ["Other.Class"]}"#)
        XCTAssertEqual(try run(["lint", "--config", "cfg/archivist.json", archive]).status, 1)

        // requireFormat; --require-format wins.
        make("Data/Info.plist", "<plist><dict><key>a</key><true/></dict></plist>")
        make("archivist.json", #"{"requireFormat": "binary"}"#)
        let policy = try run(["lint", "--config", "archivist.json", "Data/Info.plist", archive])
        XCTAssertEqual(policy.status, 1)
        XCTAssertEqual(policy.stdout, "Data/Info.plist: error: the file is xml; this check requires binary\n\(archive): OK\n")
        XCTAssertEqual(try run(["lint", "--config", "archivist.json", "--require-format", "xml", "Data/Info.plist"]).stdout, "Data/Info.plist: OK\n")

        // exclude: named files and files found in folders, by name or by path from the configuration's folder.
        make("Data/Scratch/Broken.plist", "<plist><dict><key>a</key></dict></plist>")
        make("Data/broken.strings", "\"a\" = ")
        XCTAssertEqual(try run(["lint", "Data"]).status, 1)
        make("cfg/archivist.json", #"{"exclude": ["../Data/Scratch/*", "*.strings"]}"#)
        XCTAssertEqual(try run(["lint", "--config", "cfg/archivist.json", "Data"]).status, 1, "a path glob is taken from the configuration's folder")
        make("archivist.json", #"{"exclude": ["Data/Scratch/*", "*.strings"]}"#)
        let excluded = try run(["lint", "--config", "archivist.json", "Data", "Data/broken.strings", work.appendingPathComponent("Data/Scratch/Broken.plist").path])
        XCTAssertEqual(excluded.status, 0, excluded.stdout + excluded.stderr)
        XCTAssertEqual(excluded.stdout, "Data/Info.plist: OK\n\(archive): OK\n")
        make("cfg/archivist.json", #"{"exclude": ["Data/*"]}"#)
        XCTAssertEqual(try run(["lint", "--config", "cfg/archivist.json", "Data/Scratch/Broken.plist"]).status, 1, "a file outside the folder is not matched by path")

        // Usage errors: unknown keys (named, with a near miss), wrong types, rules without secure, no file.
        make("archivist.json", #"{"secur": true}"#)
        let unknown = try run(["lint", "--config", "archivist.json", archive])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssertTrue(unknown.stderr.hasPrefix("archivist.json: error: unknown key \"secur\" (did you mean \"secure\"?)"), unknown.stderr)
        for bad in [#"{"secure": "yes"}"#, #"{"allowedClasses": "A"}"#, #"{"requireFormat": "yaml"}"#, #"{"exclude": [1]}"#, "[]", "{"] {
            make("archivist.json", bad)
            let result = try run(["lint", "--config", "archivist.json", archive])
            XCTAssertEqual(result.status, 64, bad)
            XCTAssertTrue(result.stderr.hasPrefix("archivist.json"), bad + ": " + result.stderr)
        }
        make("archivist.json", #"{"allowedClasses": ["\#(allowed)"]}"#)
        XCTAssertEqual(try run(["lint", "--config", "archivist.json", archive]).status, 64)
        XCTAssertEqual(try run(["lint", "--config", "archivist.json", "--secure", archive]).status, 0)
        XCTAssertEqual(try run(["lint", "--config", "none.json", archive]).status, 64)
    }

    func testLintStampIsWrittenOnlyWhenEveryInputIsValid() throws {
        make("good.plist", "<plist><dict><key>a</key><true/></dict></plist>")
        make("bad.plist", "<plist><dict><key>a</key></dict></plist>")
        let ok = try run(["lint", "--quiet", "--format", "xcode", "--stamp", "out/lint.swift", "good.plist"])
        XCTAssertEqual(ok.status, 1, "the stamp's folder does not exist")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
        let written = try run(["lint", "--quiet", "--format", "xcode", "--stamp", "out/lint.swift", "good.plist"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout, "")
        let stamp = try XCTUnwrap(contents("out/lint.swift"))
        XCTAssertTrue(String(decoding: stamp, as: UTF8.self).hasPrefix("//"), "a comment, so a target may compile it")
        XCTAssertEqual(String(decoding: stamp, as: UTF8.self).filter { $0 == "\n" }.count, 1)
        let failed = try run(["lint", "--quiet", "--format", "xcode", "--stamp", "out/lint.swift", "good.plist", "bad.plist"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertNil(contents("out/lint.swift"), "a failed run removes the stamp")
    }
}
