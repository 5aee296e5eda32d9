import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Every file of `Corpus/hostile/` gives its expected verdict from the built
/// `archivist lint` within 1 second of CPU and 200 MB, and never crashes.
extension CLITests {
    /// Runs `archivist ARGS` and returns its exit status, output, CPU seconds
    /// (user and system: what the work cost, whatever else the machine is
    /// doing) and peak resident memory in KiB.
    ///
    /// The peak comes from GNU time (`%M`), which forks the command from its
    /// own small process, when it is installed (`tools/test` installs it):
    /// posix_spawn starts a child in the test process's memory (vfork), and
    /// Linux carries that memory's peak across `exec` into the child's
    /// `ru_maxrss`, so wait4's figure is the test process's size, not the
    /// command's, once the test process has grown.
    func measured(_ args: [String]) throws -> (status: Int32, output: String, seconds: Double, maxRSSKiB: Int) {
        let out = work.appendingPathComponent("measured-\(UUID().uuidString).txt").path
        let peakFile = work.appendingPathComponent("peak-\(UUID().uuidString).txt").path
        let time = "/usr/bin/time"
        let timed = FileManager.default.isExecutableFile(atPath: time)
        let argv = (timed ? [time, "-f", "%M", "-o", peakFile] : []) + [Self.productsDirectory.appendingPathComponent("archivist").path] + args
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
        XCTAssertEqual(rc, 0)
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        var peak = Int(usage.ru_maxrss)
        if timed {
            // GNU time's last line is the figure (a line before it reports a signal or an exit status).
            let text = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
            peak = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? peak
        }
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output, seconds, peak)
    }

    func testHostileCorpus() throws {
        let root = TestPaths.corpus.appendingPathComponent("hostile")
        let table = try String(contentsOf: root.appendingPathComponent("EXPECTED.tsv"), encoding: .utf8)
        var checked = 0
        for line in table.split(separator: "\n").dropFirst() {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 4 else { continue }
            let path = root.appendingPathComponent(cols[0]).path
            let r = try measured(["lint", path])
            let name = cols[0]
            XCTAssertLessThan(r.status, 128, "\(name) crashed: \(r.output)")
            XCTAssertLessThan(r.seconds, 1.0, "\(name) took \(r.seconds) s of CPU")
            XCTAssertLessThan(r.maxRSSKiB, 200 * 1024, "\(name) peaked at \(r.maxRSSKiB) KiB")
            XCTAssertFalse(r.output.contains("root:x:0"), "\(name): a local file was read")
            switch cols[1] {
            case "ok":
                XCTAssertEqual(r.status, 0, "\(name): \(r.output)")
            default:
                XCTAssertEqual(r.status, 1, "\(name): \(r.output)")
                XCTAssertTrue(r.output.hasPrefix(path + ":") && r.output.contains(": error: "), "\(name) is located: \(r.output)")
                XCTAssertTrue(r.output.contains(cols[2]), "\(name) should say \"\(cols[2])\": \(r.output)")
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 25)
    }

    /// A small valid binary plist cut at every byte: each prefix is a located
    /// error, never a crash.
    func testTruncatedBinaryAtEveryByte() throws {
        let bytes = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: corpus("foundation/info-plist.bplist"))))
        // Up to "bplis", a prefix is a valid OpenStep string (an unquoted word).
        for n in 1..<6 {
            XCTAssertEqual(try PropertyList.read(Array(bytes[..<n])).tree.value, .string(String(decoding: bytes[..<n], as: UTF8.self)))
        }
        for n in [0] + Array(6..<bytes.count) {
            XCTAssertThrowsError(try PropertyList.read(Array(bytes[..<n])), "\(n) bytes") { error in
                guard let e = error as? PlistError else { return XCTFail("\(n): \(error)") }
                switch e.location {
                case .binary, .text, .unknown: break
                case .archive: XCTFail("\(n): \(e)")
                }
            }
        }
        // And through the command, in one process per length would be slow: a few.
        for n in [0, 8, bytes.count / 2, bytes.count - 1] {
            let file = "cut\(n).bplist"
            try Data(bytes[..<n]).write(to: work.appendingPathComponent(file))
            let r = try measured(["lint", work.appendingPathComponent(file).path])
            XCTAssertEqual(r.status, 1, r.output)
        }
    }
}
