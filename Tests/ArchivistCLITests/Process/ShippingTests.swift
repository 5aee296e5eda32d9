import Foundation
import XCTest

/// What ships beside the binary: the version, the changelog entry for it and
/// completion scripts that offer every enumerated option's values.
extension CLITests {
    func testVersionHasAChangelogSection() throws {
        let version = try run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, version)
        let changelog = try String(contentsOf: Self.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        XCTAssertTrue(changelog.contains("\n## [\(version)] - "), "CHANGELOG.md has no section for \(version)")
        XCTAssertTrue(changelog.contains("\n[\(version)]: "), "CHANGELOG.md has no link definition for \(version)")
        XCTAssertTrue(changelog.contains("\n## [Unreleased]"), "CHANGELOG.md has no [Unreleased] section")
    }

    func testCompletionOffersTheValuesOfEveryEnumeratedOption() throws {
        // Each enumerated option with the values it takes and one value to look for.
        let options: [(command: String, option: String, value: String)] = [
            ("convert", "--to", "codable-json"), ("convert", "--to", "openstep"),
            ("convert", "--dates", "milliseconds1970"), ("convert", "--cycles", "omit"),
            ("lint", "--format", "github"), ("lint", "--require-format", "binary"),
            ("migrate", "--to", "xml"), ("get", "--to", "json"), ("codegen", "--encoding", "binary"),
        ]
        let bash = try run(["--generate-completion-script", "bash"]).stdout
        for (command, option, value) in options {
            let function = try XCTUnwrap(bash.range(of: "\n_archivist_\(command)() {"), command)
            let body = bash[function.upperBound...].prefix { _ in true }
            let end = body.range(of: "\n}\n")?.lowerBound ?? body.endIndex
            let caseStart = try XCTUnwrap(body[..<end].range(of: "'\(option)')"), "\(command) \(option)")
            let arm = body[caseStart.upperBound..<end].prefix(while: { $0 != ";" })
            XCTAssertTrue(arm.contains("'\(value)'"), "bash: \(command) \(option) does not offer \(value): \(arm)")
        }
        for shell in ["zsh", "fish"] {
            let script = try run(["--generate-completion-script", shell]).stdout
            for (_, _, value) in options {
                XCTAssertTrue(script.contains(value), "\(shell) does not offer \(value)")
            }
        }
    }
}
