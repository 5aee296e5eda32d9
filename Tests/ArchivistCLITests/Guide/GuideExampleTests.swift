import ArchivistTestSupport
import Foundation
import XCTest

/// The examples of README.md and the guide (`docs/guide/*.md`) are run and
/// their output compared: every `console` block is a session whose `$ `
/// lines run in `bash`, one after another, in a fresh folder holding a copy
/// of `Corpus/` (and `../shared` beside it, as in a checkout), with the
/// built `archivist` first on `PATH`. What follows a command up to the next
/// `$ ` is its standard output and standard error, exactly; a line `...`
/// stands for any number of lines and a line ending in `...` for any line
/// that starts with what comes before it.
extension CLITests {
    func testGuideExamplesPrintWhatTheySay() throws {
        let files = try Self.documentationFiles()
        var examples = 0
        var failures: [String] = []
        var notRun: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for block in GuideExample.blocks(in: text) {
                let needsShared = block.commands.contains { $0.command.contains("../shared") }
                if needsShared && !FileManager.default.fileExists(atPath: TestPaths.shared.path) { continue }
                let missing = block.commands.flatMap { GuideExample.missingTools(in: $0.command) }
                if let first = block.commands.first, !missing.isEmpty {
                    notRun.append("\(file.lastPathComponent):\(first.line): \(Set(missing).sorted().joined(separator: ", "))")
                    continue
                }
                let folder = try makeExampleFolder()
                for command in block.commands {
                    examples += 1
                    let output = try runShell(command.command, in: folder)
                    if !GuideExample.matches(expected: command.expected, actual: output) {
                        failures.append("""
                            \(file.lastPathComponent):\(command.line): $ \(command.command)
                            expected:
                            \(command.expected.joined(separator: "\n"))
                            got:
                            \(output.joined(separator: "\n"))
                            """)
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(examples, 40, "the guide's console examples were not found")
        XCTAssert(failures.isEmpty, "\n" + failures.joined(separator: "\n\n"))
        // Examples that pipe into a tool this machine lacks are not run: a
        // skip that says which (tools/test installs them), a failure under CI.
        if failures.isEmpty, !notRun.isEmpty {
            let reason = "examples not run, a tool is not installed (tools/test installs it): " + notRun.joined(separator: "; ")
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail(reason) }
            throw XCTSkip(reason)
        }
    }

    func testAGuideExampleNeedingAMissingToolIsNotRun() {
        let absent = "archivist-test-no-such-tool"
        let tools = [absent: "a tool no machine has", "bash": "always there"]
        XCTAssertEqual(GuideExample.missingTools(in: "archivist dump --format dot Data.plist | \(absent) -Tsvg -o Data.svg", optional: tools),
                       ["\(absent) (a tool no machine has)"])
        XCTAssertEqual(GuideExample.missingTools(in: "cd x && \(absent) y", optional: tools), ["\(absent) (a tool no machine has)"])
        XCTAssertEqual(GuideExample.missingTools(in: "archivist dump --format \(absent) x", optional: tools), [], "an argument is no tool")
        XCTAssertEqual(GuideExample.missingTools(in: "archivist dump x | bash -c true", optional: tools), [], "bash is installed")
    }

    func testAGuideExampleWithOtherOutputFails() {
        let text = "```console\n$ echo one\ntwo\n```\n"
        let blocks = GuideExample.blocks(in: text)
        XCTAssertEqual(blocks.count, 1)
        XCTAssertEqual(blocks.first?.commands.first?.command, "echo one")
        XCTAssertFalse(GuideExample.matches(expected: ["two"], actual: ["one"]))
        XCTAssertTrue(GuideExample.matches(expected: ["a", "...", "d"], actual: ["a", "b", "c", "d"]))
        XCTAssertTrue(GuideExample.matches(expected: ["a", "...", "d"], actual: ["a", "d"]))
        XCTAssertFalse(GuideExample.matches(expected: ["a", "...", "d"], actual: ["a", "b"]))
        XCTAssertTrue(GuideExample.matches(expected: ["3 converted in ..."], actual: ["3 converted in 0.01 s"]))
        XCTAssertFalse(GuideExample.matches(expected: ["3 converted in ..."], actual: ["4 converted in 0.01 s"]))
    }

    static func documentationFiles() throws -> [URL] {
        let guide = packageRoot.appendingPathComponent("docs/guide")
        let pages = try FileManager.default.contentsOfDirectory(at: guide, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return [packageRoot.appendingPathComponent("README.md")] + pages
    }

    /// A folder `w/` holding a copy of `Corpus/`, with `../shared` beside it.
    func makeExampleFolder() throws -> URL {
        let base = work.appendingPathComponent("example-\(UUID().uuidString)")
        let folder = base.appendingPathComponent("w")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.corpus,
                                         to: folder.appendingPathComponent("Corpus"))
        try FileManager.default.createSymbolicLink(at: base.appendingPathComponent("shared"),
                                                   withDestinationURL: TestPaths.shared)
        return folder
    }

    /// Runs `command` in `bash` in `folder`; its standard output and error, as lines.
    func runShell(_ command: String, in folder: URL) throws -> [String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Self.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["NO_COLOR"] = "1"
        environment["TZ"] = "UTC"
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", command], in: folder, environment: environment,
                                           stdin: .null, stderr: .merged)
        var text = result.stdout
        while text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? [] : text.components(separatedBy: "\n")
    }
}

/// The `console` blocks of a Markdown page.
enum GuideExample {
    struct Command {
        var command: String
        var expected: [String]
        var line: Int
    }

    struct Block {
        var commands: [Command]
    }

    static func blocks(in text: String) -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```console" else { index += 1; continue }
            index += 1
            var commands: [Command] = []
            while index < lines.count, lines[index] != "```" {
                let line = lines[index]
                if line.hasPrefix("$ ") {
                    var command = String(line.dropFirst(2))
                    let start = index + 1
                    while command.hasSuffix("\\"), index + 1 < lines.count {
                        index += 1
                        command = String(command.dropLast()) + "\n" + lines[index]
                    }
                    commands.append(Command(command: command, expected: [], line: start))
                } else if !commands.isEmpty {
                    commands[commands.count - 1].expected.append(line)
                }
                index += 1
            }
            for i in commands.indices {
                while commands[i].expected.last == "" { commands[i].expected.removeLast() }
            }
            blocks.append(Block(commands: commands))
            index += 1
        }
        return blocks
    }

    /// Tools the guide's examples pipe into that a machine may lack, with
    /// where they come from (tools/test installs them on Debian).
    static let optionalTools: [String: String] = [
        "dot": "Graphviz, apt-get install graphviz",
        "openssl": "OpenSSL, apt-get install openssl",
    ]

    /// The optional tools `command` runs (as the first word of a pipeline
    /// stage) that are not on `PATH`, each with where it comes from.
    static func missingTools(in command: String, optional: [String: String] = optionalTools) -> [String] {
        let stages = command.split(whereSeparator: { "|;&\n".contains($0) })
        return stages.compactMap { stage -> String? in
            guard let tool = stage.split(separator: " ").first.map(String.init),
                  let source = optional[tool], !isOnPath(tool) else { return nil }
            return "\(tool) (\(source))"
        }
    }

    static func isOnPath(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// Whether `actual` is what `expected` says, with its `...` lines.
    static func matches(expected: [String], actual: [String]) -> Bool {
        matches(expected[...], actual[...])
    }

    private static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        var expected = expected, actual = actual
        while let first = expected.first, first != "..." {
            guard let line = actual.first, lineMatches(first, line) else { return false }
            expected = expected.dropFirst()
            actual = actual.dropFirst()
        }
        if expected.isEmpty { return actual.isEmpty }
        let rest = expected.dropFirst()
        if rest.isEmpty { return true }
        // `...`: try every place the rest can start.
        for start in actual.indices + [actual.endIndex] where matches(rest, actual[start...]) {
            return true
        }
        return false
    }

    private static func lineMatches(_ expected: String, _ actual: String) -> Bool {
        if expected.hasSuffix("..."), expected.count > 3 {
            return actual.hasPrefix(expected.dropLast(3))
        }
        return expected == actual
    }
}
