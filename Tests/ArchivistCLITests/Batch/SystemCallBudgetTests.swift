import Foundation
import XCTest

/// The file-system calls `lint DIR` and `convert DIR --to binary
/// --output-dir OUT` make for each small file found, counted with
/// `strace -c` (skipped without it): the difference between a folder of 60
/// files and one of 20, over 40, so start-up does not count. Each call buys
/// a safety promise (docs/guide/performance.md lists them); a regression
/// that adds one per file fails here.
extension CLITests {
    func testLintAndConvertStayWithinTheirPerFileSystemCallBudget() throws {
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else { throw XCTSkip("strace is not installed") }
        let plist = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>A</key><integer>1</integer></dict></plist>"#
        /// File-system calls per kind for one run of `archivist ARGS`.
        func counts(_ args: [String]) throws -> [String: Int] {
            let report = work.appendingPathComponent("strace-\(UUID().uuidString).txt").path
            let traced = try run(executable: URL(fileURLWithPath: strace),
                                 ["-f", "-c", "-o", report, Self.productsDirectory.appendingPathComponent("archivist").path] + args)
            guard let text = try? String(contentsOfFile: report, encoding: .utf8), traced.status == 0 else {
                if traced.stderr.contains("ptrace") { throw XCTSkip("strace cannot trace here: \(traced.stderr)") }
                XCTFail("strace archivist \(args): \(traced.status) \(traced.stderr)")
                return [:]
            }
            let fileCalls: Set<String> = ["openat", "openat2", "open", "close", "read", "pread64", "write", "pwrite64",
                                          "newfstatat", "fstat", "stat", "lstat", "statx", "renameat", "renameat2",
                                          "flock", "fcntl", "dup", "dup2", "dup3", "prlimit64", "getdents64",
                                          "unlinkat", "fsync", "fdatasync", "syncfs", "lseek", "getpid", "getrandom",
                                          "fchmod", "fchown", "fsetxattr", "flistxattr", "fgetxattr", "mmap", "munmap", "madvise"]
            var out: [String: Int] = [:]
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count >= 5, let calls = Int(words[3]), let name = words.last, fileCalls.contains(String(name)) else { continue }
                out[String(name)] = calls
            }
            return out
        }
        /// Calls per file: (60 files - 20 files) / 40, by kind and in all.
        func perFile(_ makeArgs: (String, Int) -> [String]) throws -> (total: Double, byKind: [String: Double]) {
            var runs: [[String: Int]] = []
            for n in [20, 60] {
                let dir = "in\(n)"
                for k in 0..<n { make("\(dir)/f\(k).plist", plist) }
                runs.append(try counts(makeArgs(dir, n)))
            }
            var byKind: [String: Double] = [:]
            for name in Set(runs[0].keys).union(runs[1].keys) {
                let d = Double((runs[1][name] ?? 0) - (runs[0][name] ?? 0)) / 40
                if d != 0 { byKind[name] = d }
            }
            return (byKind.values.reduce(0, +), byKind)
        }
        let lint = try perFile { dir, _ in ["lint", "-q", "--jobs", "1", dir] }
        // open, fstat (size and kind), read, close.
        XCTAssertLessThanOrEqual(lint.total, 4.1, "lint: \(lint.byKind)")
        XCTAssertNil(lint.byKind["prlimit64"], "the address-space limit is read once: \(lint.byKind)")
        // Per result: stat of the input (the plan), lstat of the destination
        // and of its folder, open, fstat, read, close of the input; the
        // temporary file's exclusive create, lock, locked copy (F_DUPFD_CLOEXEC),
        // write, close; the rename; the copy's close once placed.
        let convert = try perFile { dir, n in ["convert", "--jobs", "1", dir, "--to", "binary", "--output-dir", "out\(n)"] }
        XCTAssertLessThanOrEqual(convert.total, 13.1, "convert: \(convert.byKind)")
        XCTAssertNil(convert.byKind["prlimit64"], "convert: \(convert.byKind)")
        XCTAssertEqual(convert.byKind["renameat"] ?? convert.byKind["renameat2"], 1, "one rename per result: \(convert.byKind)")
        XCTAssertEqual(convert.byKind["flock"], 1, "each temporary file is locked: \(convert.byKind)")
    }
}
