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
            Subcommands: convert, lint, dump, classes, migrate, schema, codegen, get, set, remove, info, diff (archivist help SUBCOMMAND says more)

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

        // On a terminal (script(1) gives one), auto colours unless NO_COLOR is set.
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
}
