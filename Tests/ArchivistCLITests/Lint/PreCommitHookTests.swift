import ArchivistTestSupport
import Foundation
import XCTest

/// The repository's `.pre-commit-hooks.yaml`, run by the real `pre-commit`
/// framework (from PyPI) in a temporary git repository.
extension CLITests {
    /// Runs a program found on PATH in the scratch folder.
    func shell(_ args: [String], in folder: URL, environment: [String: String]) throws -> Result {
        try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), args, in: folder, environment: environment, stdin: .null, stderr: .merged)
    }

    func testPreCommitHookRefusesABadPlist() throws {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Self.productsDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["PRE_COMMIT_HOME"] = work.appendingPathComponent("pre-commit-home").path
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["HOME"] = work.path
        let root = Self.packageRoot
        guard try shell(["pre-commit", "--version"], in: work, environment: env).status == 0 else {
            // CI installs pre-commit (tools/test): there a missing one is a failure, not a skip.
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("pre-commit is not installed") }
            throw XCTSkip("pre-commit is not installed (tools/test installs it into .build/ci-venv)")
        }
        let head = try shell(["git", "-C", root.path, "rev-parse", "HEAD"], in: work, environment: env)
        let rev = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try XCTSkipUnless(head.status == 0 && rev.count == 40, "the package is not a git checkout")
        let hooksAtHead = try shell(["git", "-C", root.path, "cat-file", "-e", "HEAD:.pre-commit-hooks.yaml"], in: work, environment: env)
        try XCTSkipUnless(hooksAtHead.status == 0, ".pre-commit-hooks.yaml is not committed yet")

        let repo = work.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        for args in [["git", "init", "-q"], ["git", "config", "user.email", "dev@example.com"], ["git", "config", "user.name", "Dev"]] {
            XCTAssertEqual(try shell(args, in: repo, environment: env).status, 0, "\(args)")
        }
        try """
            repos:
              - repo: \(root.path)
                rev: \(rev)
                hooks:
                  - id: archivist-lint-system
            """.write(to: repo.appendingPathComponent(".pre-commit-config.yaml"), atomically: true, encoding: .utf8)
        let install = try shell(["pre-commit", "install"], in: repo, environment: env)
        XCTAssertEqual(install.status, 0, install.stdout)
        try "<plist><dict><key>ok</key><true/></dict></plist>".write(to: repo.appendingPathComponent("Good.plist"), atomically: true, encoding: .utf8)
        try "<plist><dict><key>a</key><string>x</string><key>a</key><string>y</string></dict></plist>"
            .write(to: repo.appendingPathComponent("Bad.plist"), atomically: true, encoding: .utf8)
        // Entitlements and privacy manifests are property lists too.
        try "<plist><dict><key>com.apple.security.app-sandbox</key><true></dict></plist>"
            .write(to: repo.appendingPathComponent("App.entitlements"), atomically: true, encoding: .utf8)
        try "<plist><dict><key>NSPrivacyTracking</key><false/><key>NSPrivacyTracking</key><true/></dict></plist>"
            .write(to: repo.appendingPathComponent("PrivacyInfo.xcprivacy"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try shell(["git", "add", "."], in: repo, environment: env).status, 0)
        let refused = try shell(["git", "commit", "-q", "-m", "add plists"], in: repo, environment: env)
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stdout.contains("Bad.plist:1:"), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("error: duplicate key \"a\""), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("App.entitlements:1:"), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("PrivacyInfo.xcprivacy:1:"), refused.stdout)
        XCTAssertNotEqual(try shell(["git", "rev-parse", "HEAD"], in: repo, environment: env).status, 0, "nothing was committed")

        XCTAssertEqual(try shell(["git", "rm", "-q", "--cached", "Bad.plist", "App.entitlements", "PrivacyInfo.xcprivacy"], in: repo, environment: env).status, 0)
        let accepted = try shell(["git", "commit", "-q", "-m", "add a good plist"], in: repo, environment: env)
        XCTAssertEqual(accepted.status, 0, accepted.stdout)
    }
}
