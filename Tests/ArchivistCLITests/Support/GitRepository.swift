import Foundation
import XCTest

/// A git repository in a scratch folder, for the merge driver's tests: git
/// run with a private HOME and no system configuration, the built
/// `archivist` first on PATH.
struct GitRepository {
    let folder: URL
    let environment: [String: String]

    /// A new repository in `folder` with one user, or a skip when git is missing.
    init(in folder: URL) throws {
        self.folder = folder
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = CLITests.productsDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["HOME"] = folder.deletingLastPathComponent().path
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_AUTHOR_DATE"] = "2026-01-01T00:00:00Z"
        env["GIT_COMMITTER_DATE"] = "2026-01-01T00:00:00Z"
        environment = env
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard (try? run(["--version"]).status) == 0 else { throw XCTSkip("git is not installed (tools/test installs it)") }
        for args in [["init", "-q", "-b", "main"], ["config", "user.email", "dev@example.com"], ["config", "user.name", "Dev"],
                     ["config", "commit.gpgsign", "false"]] {
            let r = try run(args)
            guard r.status == 0 else { throw GitFailure(args: args, output: r.output) }
        }
    }

    struct GitFailure: Error, CustomStringConvertible {
        var args: [String]
        var output: String
        var description: String { "git \(args.joined(separator: " ")): \(output)" }
    }

    /// `git ARGS` in the repository: its status and its standard output and error together.
    @discardableResult
    func run(_ args: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + args
        process.currentDirectoryURL = folder
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `git ARGS`, which must succeed.
    @discardableResult
    func must(_ args: [String]) throws -> String {
        let r = try run(args)
        guard r.status == 0 else { throw GitFailure(args: args, output: r.output) }
        return r.output
    }

    /// Uses `archivist merge --git` for `patterns` (the documented setup, docs/guide/merging.md).
    func useMergeDriver(for patterns: [String]) throws {
        try must(["config", "merge.plist.name", "archivist: property lists merged by key"])
        try must(["config", "merge.plist.driver", "archivist merge --git %O %A %B %P"])
        try attributes(patterns.map { "\($0) merge=plist" })
    }

    /// Writes `.gitattributes` (committed with the next commit).
    func attributes(_ lines: [String]) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent(".gitattributes"))
    }

    /// Writes a file (folders made as needed).
    func write(_ bytes: [UInt8], to path: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
    }

    /// Commits everything as `message`.
    func commit(_ message: String) throws {
        try must(["add", "-A"])
        try must(["commit", "-q", "-m", message])
    }

    /// From `base`, a branch `ours` with `oursFiles` and a branch `theirs` with
    /// `theirsFiles`, each one commit; then `ours` checked out and `theirs`
    /// merged into it: git's status and output.
    func mergeBranches(base: [String: [UInt8]], ours: [String: [UInt8]], theirs: [String: [UInt8]]) throws -> (status: Int32, output: String) {
        for (path, bytes) in base { try write(bytes, to: path) }
        try commit("base")
        try must(["checkout", "-q", "-b", "theirs"])
        for (path, bytes) in theirs { try write(bytes, to: path) }
        try commit("theirs")
        try must(["checkout", "-q", "main"])
        try must(["checkout", "-q", "-b", "ours"])
        for (path, bytes) in ours { try write(bytes, to: path) }
        try commit("ours")
        return try run(["merge", "--no-edit", "theirs"])
    }

    /// The files git left unmerged.
    func unmerged() throws -> [String] {
        try must(["diff", "--name-only", "--diff-filter=U"]).split(separator: "\n").map(String.init)
    }
}
