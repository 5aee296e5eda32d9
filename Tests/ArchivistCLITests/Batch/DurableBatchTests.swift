import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest

/// What a batch promises about the disk: one flush for the whole batch, no
/// temporary file left, and after a crash each result old or new.
extension CLITests {
    /// `count` XML plists written by Foundation in `folder`, spread over two subfolders.
    func makeFoundationInputs(_ folder: String, count: Int) throws -> [String: Data] {
        var written: [String: Data] = [:]
        for i in 0..<count {
            let name = "\(folder)/\(i % 2 == 0 ? "even" : "odd")/f\(i).plist"
            let data = try PropertyListSerialization.data(fromPropertyList: ["index": i, "name": "file \(i) é", "ratio": Double(i) / 3],
                                                          format: .xml, options: 0)
            let url = work.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            written[name] = data
        }
        return written
    }

    /// The system calls `archivist ARGS` makes, counted by name (strace);
    /// nil (after a skip) where strace cannot run, a failure under CI.
    func syscallCounts(_ args: [String], calls: [String]) throws -> [String: Int]? {
        guard let lines = try syscallLog(args, calls: calls) else { return nil }
        var counts: [String: Int] = [:]
        for line in lines {
            // "PID call(args) = result", the PID padded with spaces.
            let call = line.drop { $0.isNumber || $0 == " " }.prefix { $0 != "(" }
            guard !call.isEmpty, !call.hasPrefix("+++"), !call.hasPrefix("---") else { continue }
            counts[String(call), default: 0] += 1
        }
        return counts
    }

    /// The lines strace writes for the system calls `calls` of
    /// `archivist ARGS`; nil (after a skip) where strace cannot run.
    func syscallLog(_ args: [String], calls: [String]) throws -> [Substring]? {
        let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
        guard let strace else {
            if isCI { XCTFail("strace is not installed") }
            return nil
        }
        let log = work.appendingPathComponent("strace.log").path
        let traced = try ProcessRunner.run(URL(fileURLWithPath: strace), ["-f", "-qq", "-o", log, "-e", "trace=" + calls.joined(separator: ","),
                                                                          ProcessRunner.archivist.path] + args,
                                           in: work, stdin: .inherit, stdout: .null, stderr: .null)
        guard let text = try? String(contentsOfFile: log, encoding: .utf8), traced.status == 0 else {
            // strace itself may be refused (no ptrace in some containers).
            if isCI { XCTFail("strace could not trace archivist (status \(traced.status))") }
            return nil
        }
        return text.split(separator: "\n")
    }

    /// `migrate` reads each input once: the documents its rules check reads
    /// are the ones it migrates (the input is opened once, not twice).
    func testMigrateReadsAnArchiveOnce() throws {
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        try copyCorpus("archives/scary-creature-v1.plist", to: "in/Data.plist")
        let args = ["migrate", "in/Data.plist", "--rules", "rules.json", "-o", "out.plist"]
        guard let lines = try syscallLog(args, calls: ["open", "openat"]) else { throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)") }
        let opens = lines.filter { $0.contains("\"in/Data.plist\"") }
        XCTAssertEqual(opens.count, 1, "\(opens)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("out.plist").path))
        // In place, with a backup: still one read, and the result replaces the input.
        let before = try XCTUnwrap(contents("in/Data.plist"))
        guard let inPlace = try syscallLog(["migrate", "in/Data.plist", "--rules", "rules.json", "--in-place", "--backup", ".v1"],
                                           calls: ["open", "openat"]) else { throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)") }
        // (The check that the original is unchanged before its backup is
        // placed reads it too, opened O_NONBLOCK; that is not a parse.)
        let reads = inPlace.filter { $0.contains("\"in/Data.plist\"") && !$0.contains("O_NONBLOCK") }
        XCTAssertEqual(reads.count, 1, "\(inPlace.filter { $0.contains("Data.plist") })")
        XCTAssertEqual(contents("in/Data.plist.v1"), before)
        XCTAssertNotEqual(contents("in/Data.plist"), before)
    }

    /// A file converted into a new folder costs: one stat while planning, one
    /// look at the destination, open + fstat + read + close of the input, and
    /// open + write + close + rename of the result; the temporary file is
    /// created with its final permissions (no fchmod) and the output folder
    /// is checked once, not once per file.
    func testPerFileSystemCallsOfABatch() throws {
        _ = try makeFoundationInputs("in", count: 40)
        let names = (0..<40).map { "in/\($0 % 2 == 0 ? "even" : "odd")/f\($0).plist" }
        let calls = ["fchmod", "openat", "newfstatat", "stat", "lstat", "fstat", "statx"]
        guard let counts = try syscallCounts(["convert"] + names + ["--to", "binary", "--output-dir", "out", "--jobs", "2"], calls: calls) else {
            throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)")
        }
        XCTAssertNil(counts["fchmod"], "\(counts)")
        let stats = ["newfstatat", "stat", "lstat", "fstat", "statx"].reduce(0) { $0 + (counts[$1] ?? 0) }
        // Start-up (shared libraries, CPU count) makes a fixed number more.
        let baseline = try syscallCounts(["convert", names[0], "--to", "binary", "--output-dir", "out1", "--jobs", "2"], calls: calls) ?? [:]
        let baseStats = ["newfstatat", "stat", "lstat", "fstat", "statx"].reduce(0) { $0 + (baseline[$1] ?? 0) }
        // With two threads the runtime's own start-up calls vary by a few
        // from run to run (seen: one more stat); a call more per file would
        // add 39.
        let startUpVariation = 8
        XCTAssertLessThanOrEqual(stats - baseStats, 39 * 3 + startUpVariation, "\(counts) vs \(baseline)")
        XCTAssertLessThanOrEqual((counts["openat"] ?? 0) - (baseline["openat"] ?? 0), 39 * 2 + startUpVariation, "\(counts) vs \(baseline)")
    }

    func testABatchFlushesOnceNotOncePerFile() throws {
        _ = try makeFoundationInputs("in", count: 40)
        let calls = ["fsync", "fdatasync", "syncfs", "rename", "renameat", "renameat2"]
        guard let counts = try syscallCounts(["convert", "in", "-r", "--to", "binary", "--output-dir", "out", "--jobs", "2"], calls: calls) else {
            throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)")
        }
        // Each result renamed relative to its folder's descriptor.
        XCTAssertEqual(counts["renameat"], 40, "\(counts)")
        XCTAssertNil(counts["rename"])
        // One flush of the file system for all 40 results (one chunk of up to
        // 1,000 items, see below), then one of each of the two folders the
        // results were renamed into.
        XCTAssertEqual(counts["syncfs"], 1, "\(counts)")
        XCTAssertEqual(counts["fsync"], 2, "\(counts)")
        XCTAssertNil(counts["fdatasync"])
        for folder in ["out/even", "out/odd"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent(folder).path)
            XCTAssertEqual(names.count, 20)
            XCTAssertFalse(names.contains { $0.hasPrefix(".") }, "no temporary file is left: \(names)")
        }
        // The results are what Foundation reads from the inputs.
        let result = try Data(contentsOf: work.appendingPathComponent("out/odd/f7.plist"))
        var format = PropertyListSerialization.PropertyListFormat.xml
        let read = try PropertyListSerialization.propertyList(from: result, format: &format) as? NSDictionary
        XCTAssertEqual(format, .binary)
        XCTAssertEqual(read, ["index": 7, "name": "file 7 é", "ratio": 7.0 / 3] as NSDictionary)

        // A single file (`set`) is flushed on its own: the file, then its folder.
        guard let single = try syscallCounts(["set", "in/even/f0.plist", "name", "renamed", "--type", "string"], calls: calls) else {
            throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)")
        }
        XCTAssertEqual(single["fsync"], 2, "\(single)")
        // Replaced in place: the new file is exchanged with the old in one
        // step (renameat2), which is then checked and removed.
        XCTAssertEqual((single["rename"] ?? 0) + (single["renameat2"] ?? 0), 1, "\(single)")
    }

    /// A large batch puts its results in place a chunk of 1,000 items at a
    /// time, so what it keeps of them stays bounded: one flush of the file
    /// system per chunk (ceil(files / 1,000)), then one of each folder the
    /// chunk's results went into.
    func testALargeBatchFlushesOncePerChunk() throws {
        let count = 2_100
        _ = try makeFoundationInputs("in", count: count)
        let calls = ["fsync", "fdatasync", "syncfs", "renameat2"]
        guard let counts = try syscallCounts(["convert", "in", "-r", "--to", "binary", "--in-place", "--jobs", "2"], calls: calls) else {
            throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)")
        }
        let chunks = (count + 999) / 1_000
        XCTAssertEqual(counts["syncfs"], chunks, "\(counts)")
        // Each chunk flushes the folders its items are in: one or both.
        XCTAssertGreaterThanOrEqual(counts["fsync"] ?? 0, chunks, "\(counts)")
        XCTAssertLessThanOrEqual(counts["fsync"] ?? 0, 2 * chunks, "\(counts)")
        XCTAssertNil(counts["fdatasync"])
        // Each result exchanged with its input in one step.
        XCTAssertEqual(counts["renameat2"], count, "\(counts)")
        for folder in ["in/even", "in/odd"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent(folder).path)
            XCTAssertEqual(names.count, count / 2)
            XCTAssertFalse(names.contains { $0.hasPrefix(".") }, "no temporary file is left")
        }
        let result = try Data(contentsOf: work.appendingPathComponent("in/odd/f1999.plist"))
        var format = PropertyListSerialization.PropertyListFormat.xml
        let read = try PropertyListSerialization.propertyList(from: result, format: &format) as? NSDictionary
        XCTAssertEqual(format, .binary)
        XCTAssertEqual(read?["index"] as? Int, 1999)
    }

    /// A batch killed at any moment (as a power loss would stop it) leaves
    /// every destination either the old file or the complete new one.
    func testAKilledBatchLeavesEveryFileOldOrNew() throws {
        let inputs = try makeFoundationInputs("tree", count: 600)
        for delay in [30_000, 120_000, 300_000] as [useconds_t] {
            let batch = try ProcessRunner.start(ProcessRunner.archivist, ["convert", "tree", "-r", "--to", "binary", "--in-place", "--jobs", "2"],
                                                in: work, stdin: .inherit, stdout: .null, stderr: .null)
            usleep(delay)
            kill(batch.pid, SIGKILL)
            batch.process.waitUntilExit()
            for (name, old) in inputs {
                let now = try Data(contentsOf: work.appendingPathComponent(name))
                if now == old { continue }
                var format = PropertyListSerialization.PropertyListFormat.xml
                let new = try PropertyListSerialization.propertyList(from: now, format: &format) as? NSDictionary
                let expected = try PropertyListSerialization.propertyList(from: old, format: nil) as? NSDictionary
                XCTAssertEqual(format, .binary, name)
                XCTAssertEqual(new, expected, name)
            }
            // Restore the inputs for the next round, without the temporary
            // files a kill may leave (hidden, so folder walks skip them).
            for (name, old) in inputs { try old.write(to: work.appendingPathComponent(name)) }
            for folder in ["tree/even", "tree/odd"] {
                let url = work.appendingPathComponent(folder)
                for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasPrefix(".") {
                    XCTAssertTrue(name.contains(".archivist-"), name)
                    try FileManager.default.removeItem(at: url.appendingPathComponent(name))
                }
            }
        }
        // Uninterrupted, the same batch converts all and leaves no temporary file.
        XCTAssertEqual(try run(["convert", "tree", "-r", "--to", "binary", "--in-place"]).status, 0)
        for folder in ["tree/even", "tree/odd"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent(folder).path)
            XCTAssertFalse(names.contains { $0.hasPrefix(".") }, "no temporary file is left")
        }
    }
}
