import Foundation
import XCTest

/// Usage that points the right way: plutil's flag after `convert`, a word
/// that is no subcommand, negative numbers, misspelt keys, `lint -r`, and
/// colour on every command that prints results.
extension CLITests {
    /// plutil's `-convert FORMAT` after archivist's `convert` is answered as
    /// plutil's other spellings are: the archivist command that does it.
    func testPlutilConvertFlagAfterConvert() throws {
        make("Info.plist", "<plist><dict/></plist>")
        let r = try run(["convert", "Info.plist", "-convert", "xml1"])
        XCTAssertEqual(r.status, 64)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "Error: Unknown option '-convert' (archivist does not take plutil's options)\ndid you mean: archivist convert Info.plist --to xml1\n")
        let output = try run(["convert", "-convert", "json", "My Info.plist", "-o", "out.json"])
        XCTAssertEqual(output.stderr, "Error: Unknown option '-convert' (archivist does not take plutil's options)\ndid you mean: archivist convert 'My Info.plist' -o out.json --to json\n")
        // The suggestion works as it says.
        let suggested = try run(["convert", "Info.plist", "--to", "xml1"])
        XCTAssertEqual(suggested.status, 0, suggested.stderr)
    }

    /// A first word that is no subcommand says so, with the close ones.
    func testUnknownSubcommandIsNamed() throws {
        let cat = try run(["cat", "x"])
        XCTAssertEqual(cat.status, 64)
        XCTAssertEqual(cat.stderr, """
            Error: 'cat' is not an archivist subcommand; did you mean 'dump'?
            Subcommands: convert, lint, dump, classes, migrate, schema, codegen, get, set, remove, info, diff, merge (archivist help SUBCOMMAND says more)

            """)
        XCTAssertTrue(try run(["lnit", "x"]).stderr.hasPrefix("Error: 'lnit' is not an archivist subcommand; did you mean 'lint'?\n"))
        XCTAssertTrue(try run(["conv", "x"]).stderr.hasPrefix("Error: 'conv' is not an archivist subcommand; did you mean 'convert'?\n"))
        XCTAssertTrue(try run(["frobnicate"]).stderr.hasPrefix("Error: 'frobnicate' is not an archivist subcommand\nSubcommands: "))
        XCTAssertEqual(try run(["help", "lint"]).status, 0, "help is no unknown subcommand")
    }

    /// A negative number after an option that takes a number is that
    /// option's value, so the message says what the option takes.
    func testNegativeNumbersAreValues() throws {
        make("a.plist", "<plist><array/></plist>")
        let depth = try run(["dump", "--depth", "-1", "a.plist"])
        XCTAssertEqual(depth.status, 64)
        XCTAssertTrue(depth.stderr.hasPrefix("Error: --depth takes a number of levels, 0 or more.\n"), depth.stderr)
        let limit = try run(["lint", "--max-depth", "-5", "a.plist"])
        XCTAssertEqual(limit.status, 64)
        XCTAssertTrue(limit.stderr.hasPrefix("Error: --max-depth takes a number of at least 1.\n"), limit.stderr)
        let jobs = try run(["convert", "a.plist", "--to", "json", "--jobs", "-2"])
        XCTAssertTrue(jobs.stderr.contains("at least 1"), jobs.stderr)
    }

    /// `get` with a misspelt key suggests the close one.
    func testGetSuggestsTheKeyMeant() throws {
        let info = corpus("foundation/info-plist.xml.plist")
        let r = try run(["get", info, "CFBundleIdentifer"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(info): error: CFBundleIdentifer: no key \"CFBundleIdentifer\" (dictionary of 5 keys; did you mean \"CFBundleIdentifier\"?)\n")
        let nothingClose = try run(["get", info, "Unrelated"])
        XCTAssertEqual(nothingClose.stderr, "\(info): error: Unrelated: no key \"Unrelated\" (dictionary of 5 keys)\n")
        // Through an archive: a field of an object.
        let field = try run(["get", corpus("archives/scary-creature-v1.plist"), "root.Ratng"])
        XCTAssertTrue(field.stderr.contains("; did you mean \"Rating\"?)"), field.stderr)
    }

    /// `lint -r` is `convert -r`'s flag, accepted: lint always recurses.
    func testLintTakesRecursive() throws {
        make("docs/sub/a.plist", "<plist><array/></plist>")
        let plain = try run(["lint", "docs"])
        XCTAssertEqual(plain.stdout, "docs/sub/a.plist: OK\n")
        for flag in ["-r", "--recursive"] {
            let r = try run(["lint", flag, "docs"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, plain.stdout)
        }
    }

    /// lint and diff colour results as dump does: `--color always|never`,
    /// and on a terminal unless NO_COLOR is set.
    func testLintAndDiffColourResults() throws {
        make("good.plist", "<plist><array/></plist>")
        make("bad.json", "[1,]")
        make("other.plist", "<plist><array><integer>1</integer></array></plist>")
        let lint = try run(["lint", "--color", "always", "good.plist", "bad.json"])
        XCTAssertEqual(lint.stdout, "\u{1B}[32mgood.plist: OK\u{1B}[0m\n\u{1B}[31mbad.json:1:3: error: trailing comma before ']'\u{1B}[0m\n")
        XCTAssertEqual(try run(["lint", "--color", "never", "good.plist"]).stdout, "good.plist: OK\n")
        XCTAssertEqual(try run(["lint", "good.plist"]).stdout, "good.plist: OK\n", "auto: no colour into a pipe")
        let diff = try run(["diff", "--color", "always", "good.plist", "other.plist"])
        XCTAssertEqual(diff.status, 1)
        XCTAssertEqual(diff.stdout, "\u{1B}[32m+ 0: integer 1\u{1B}[0m\n")
        let removed = try run(["diff", "--color", "always", "other.plist", "good.plist"])
        XCTAssertEqual(removed.stdout, "\u{1B}[31m- 0: integer 1\u{1B}[0m\n")

        // On a terminal (util-linux's script(1) gives one), auto colours unless NO_COLOR is set.
        #if !os(Linux)
        throw XCTSkip("the terminal check uses util-linux's script(1)")
        #endif
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("needs script(1) for a terminal") }
        let archivist = Self.productsDirectory.appendingPathComponent("archivist").path
        func onTerminal(_ environment: String) throws -> String {
            try run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                    [environment, "/usr/bin/script", "-qec", "'\(archivist)' lint good.plist; '\(archivist)' diff good.plist other.plist", "/dev/null"]).stdout
        }
        let coloured = try onTerminal("NO_COLOR=")
        XCTAssertTrue(coloured.contains("\u{1B}[32mgood.plist: OK\u{1B}[0m"), coloured)
        XCTAssertTrue(coloured.contains("\u{1B}[32m+ 0: integer 1\u{1B}[0m"), coloured)
        let plain = try onTerminal("NO_COLOR=1")
        XCTAssertFalse(plain.contains("\u{1B}["), plain)
        XCTAssertTrue(plain.contains("good.plist: OK"), plain)
    }

    /// The subcommands, from the command's own description.
    private func subcommandNames() throws -> [String] {
        let dump = try run(["--experimental-dump-help"])
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: dump.output) as? [String: Any])
        let command = try XCTUnwrap(root["command"] as? [String: Any])
        return (command["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["commandName"] as? String }.filter { $0 != "help" }
    }

    /// Help text breaks lines where they are full or where a sentence ends,
    /// never mid-sentence with room left (`(diff: the files` / `differ)`),
    /// and lists an option's values once.
    func testHelpBreaksNoSentenceAndListsValuesOnce() throws {
        let names = try subcommandNames()
        XCTAssertEqual(names.count, 13, "\(names)")
        for name in [nil] + names.map(Optional.some) {
            let help = try run(name.map { ["help", $0] } ?? ["--help"])
            XCTAssertEqual(help.status, 0, help.stderr)
            let lines = help.stdout.components(separatedBy: "\n")
            for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ") {
                guard let word = next.split(separator: " ").first, let last = line.last else { continue }
                // ArgumentParser fills lines to 79 columns: a shorter one followed by a word that fits was broken by hand.
                XCTAssertTrue(".:;?!)".contains(last) || line.count + 1 + word.count > 79,
                              "\(name ?? "archivist"): a line broken mid-sentence: \"\(line)\" / \"\(next)\"")
            }
            XCTAssertFalse(help.stdout.contains("(values: "), "\(name ?? "archivist"): values are listed once, each with what it means")
        }
        let convert = try run(["convert", "--help"]).stdout
        XCTAssertTrue(convert.contains("""
              --to <FORMAT>           The format to write (plutil's xml1 and binary1 are
                                      taken too).
                    xml               - XML, as Foundation writes it (plutil's xml1)
            """), convert)
    }

    /// `archivist SUBCOMMAND --help` shows the same usage line as `archivist
    /// help SUBCOMMAND`, the command's name first: every subcommand names
    /// `archivist` as its super-command (which also spares a subcommand parsed
    /// alone at start-up ArgumentParser's completion-script check).
    func testSubcommandHelpNamesTheCommand() throws {
        for name in try subcommandNames() {
            let asked = try run([name, "--help"])
            XCTAssertEqual(asked.status, 0, asked.stderr)
            let usage = asked.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("USAGE: ") }
            XCTAssertEqual(usage.count, 1, "\(name): \(asked.stdout)")
            XCTAssertTrue(usage.first?.hasPrefix("USAGE: archivist \(name) ") ?? false, "\(name): \(usage)")
            XCTAssertEqual(usage, try run(["help", name]).stdout.components(separatedBy: "\n").filter { $0.hasPrefix("USAGE: ") }, name)
        }
        // A completion-script request after a subcommand is still answered, from the root.
        let script = try run(["lint", "--generate-completion-script", "bash"])
        XCTAssertEqual(script.status, 0, script.stderr)
        XCTAssertTrue(script.stdout.contains("_archivist()"), String(script.stdout.prefix(300)))
    }

    /// The manual page, made as tools/release/build and tools/install make it
    /// (tools/generate-manual: swift-argument-parser's generate-manual, then
    /// tools/manual-page), has nothing `mandoc -T lint` reports but the
    /// version on its .Os line.
    func testManualPageIsCleanForMandoc() throws {
        guard let mandoc = ["/usr/bin/mandoc", "/usr/local/bin/mandoc", "/opt/homebrew/bin/mandoc"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("needs mandoc (apt-get install mandoc)")
        }
        let root = Self.packageRoot
        let checkout = root.appendingPathComponent(".build/checkouts/swift-argument-parser")
        guard FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Package.swift").path) else {
            throw XCTSkip("needs swift-argument-parser's checkout in .build/checkouts")
        }
        // generate-manual is built once, into .build/manual-tool (tools/install reuses it).
        let archivist = Self.productsDirectory.appendingPathComponent("archivist")
        let generated = try run(executable: root.appendingPathComponent("tools/generate-manual"),
                                [root.appendingPathComponent(".build").path, archivist.path, work.path, "--date", "2026-01-01"])
        XCTAssertEqual(generated.status, 0, generated.stdout + generated.stderr)
        let page = try run(executable: root.appendingPathComponent("tools/manual-page"), [work.appendingPathComponent("archivist.1").path, "0.1.0"])
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertTrue(page.stdout.contains("\n.Os Archivist 0.1.0\n"), page.stdout)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("page.1").path, contents: page.output))
        let lint = try run(executable: URL(fileURLWithPath: mandoc), ["-T", "lint", "page.1"])
        // The version on the .Os line is on purpose (tools/release/test checks it); mandoc notes it as a style matter.
        let messages = (lint.stdout + lint.stderr).split(separator: "\n").filter { !$0.hasSuffix("STYLE: operating system explicitly specified: Os Archivist (NetBSD)") }
        XCTAssertEqual(messages, [], "mandoc -T lint")
        let warnings = try run(executable: URL(fileURLWithPath: mandoc), ["-T", "lint", "-W", "warning", "page.1"])
        XCTAssertEqual(warnings.stdout + warnings.stderr, "")
        XCTAssertEqual(warnings.status, 0)
    }
}
