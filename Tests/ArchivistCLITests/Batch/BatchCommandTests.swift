import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest

/// Folders of thousands of files: jobs, reports, shards and interruption.
extension CLITests {
    /// 2,000 files of every format in nested folders, a few images and one broken file.
    func makeTree(_ name: String, count: Int = 2_000) throws {
        let root = work.appendingPathComponent(name)
        for i in 0..<count {
            let folder = root.appendingPathComponent("group\(i % 7)/set\(i % 3)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let value = PlistValue.dictionary(PlistDictionary([
                ("index", .int(Int64(i))), ("name", .string("item \(i) ü")), ("ratio", .double(Double(i) / 7)),
                ("flags", .array([.bool(i % 2 == 0), .int(Int64(i % 5))])),
            ]))
            let bytes: [UInt8]
            let ext: String
            switch i % 4 {
            case 0: bytes = try PropertyList.write(value, as: .xml); ext = "plist"
            case 1: bytes = try PropertyList.write(value, as: .binary); ext = "bplist"
            // JSON named .plist: a walk reads a .json only when asked (--all-files, --include).
            case 2: bytes = try PropertyList.write(value, as: .json); ext = "plist"
            default: bytes = try PropertyList.write(.dictionary(PlistDictionary([("name", .string("item \(i)"))])), as: .openstep); ext = "strings"
            }
            try Data(bytes).write(to: folder.appendingPathComponent("file\(i).\(ext)"))
        }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: root.appendingPathComponent("group0/thumb.png"))
        try Data("<plist><dict><key>a</key></plist>".utf8).write(to: root.appendingPathComponent("group1/broken.plist"))
    }

    /// Every file below a folder with its bytes.
    func tree(_ name: String) throws -> [String: Data] {
        let root = work.appendingPathComponent(name)
        var out: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return out }
        for case let path as String in walker {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDir), !isDir.boolValue {
                out[path] = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
            }
        }
        return out
    }

    func testJobsDoNotChangeResults() throws {
        try makeTree("in")
        let one = try run(["convert", "in", "-r", "--to", "binary", "--output-dir", "one", "--jobs", "1", "--report", "one.json"])
        let two = try run(["convert", "in", "-r", "--to", "binary", "--output-dir", "two", "--jobs", "2"])
        XCTAssertEqual(one.status, 1, "the broken file fails")
        XCTAssertEqual(two.status, 1)
        let a = try tree("one"), b = try tree("two")
        XCTAssertEqual(a.count, 2_000)
        XCTAssertEqual(a, b, "the same outputs with 1 and 2 jobs")
        XCTAssertEqual(a["group3/set0/file3.plist"]?.prefix(8), Data("bplist00".utf8))
        XCTAssertEqual(one.stdout, two.stdout)
        // Errors print in item order whatever the jobs; then the summary.
        XCTAssertEqual(one.stderr.split(separator: "\n").dropLast(), two.stderr.split(separator: "\n").dropLast())
        XCTAssertTrue(one.stderr.contains("in/group1/broken.plist:1:"), one.stderr)
        XCTAssertTrue(one.stderr.split(separator: "\n").last?.hasPrefix("2000 converted, 0 unchanged, 1 skipped, 1 failed; ") == true, one.stderr)

        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: try XCTUnwrap(contents("one.json"))) as? [[String: Any]])
        XCTAssertEqual(report.count, 2_002, "one entry per input file")
        let statuses = Dictionary(grouping: report, by: { $0["status"] as? String ?? "" }).mapValues(\.count)
        XCTAssertEqual(statuses, ["converted": 2_000, "skipped": 1, "failed": 1])
        let broken = try XCTUnwrap(report.first { ($0["path"] as? String) == "in/group1/broken.plist" })
        XCTAssertTrue(((broken["errors"] as? [String])?.first ?? "").hasPrefix("in/group1/broken.plist:1:"))

        // A second run finds every result in place: nothing is rewritten.
        let again = try run(["convert", "in", "-r", "--to", "binary", "--output-dir", "one", "--include", "*.bplist"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.hasPrefix("0 converted, 500 unchanged, 0 skipped, 0 failed; "), again.stderr)

        // Shards split the work with no overlap.
        var sharded = 0
        for i in 1...3 {
            let r = try run(["convert", "in", "-r", "--to", "xml", "--output-dir", "shards", "--shard", "\(i)/3", "--exclude", "broken.plist"])
            XCTAssertEqual(r.status, 0, r.stderr)
            sharded += Int(r.stderr.prefix { $0 != " " }) ?? 0
        }
        XCTAssertEqual(sharded, 2_000)
        XCTAssertEqual(try tree("shards").count, 2_000)
    }

    func testFailFastAndUsage() throws {
        try makeTree("in", count: 40)
        let r = try run(["convert", "in", "-r", "--to", "xml", "--output-dir", "out", "--fail-fast", "--jobs", "1"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("stopped at the first failure"), r.stderr)
        XCTAssertEqual(try run(["convert", "in", "-r", "--to", "xml"]).status, 64, "a folder cannot go to standard output")
        XCTAssertEqual(try run(["convert", "in", "--to", "xml", "--output-dir", "o", "--shard", "4/3"]).status, 64)
        XCTAssertEqual(try run(["convert", "in", "--to", "xml", "--output-dir", "o", "--jobs", "0"]).status, 64)
    }

    /// Ctrl-C stops the run after the files under way: no partial files, the
    /// summary says what was done, and the status is 130 (128 + SIGINT).
    func testInterruptLeavesNoPartialFiles() throws {
        try makeTree("in")
        let batch = try ProcessRunner.start(ProcessRunner.archivist, ["convert", "in", "-r", "--to", "xml", "--output-dir", "out", "--jobs", "2"],
                                            in: work, stdin: .inherit, stdout: .null)
        let process = batch.process, err = try XCTUnwrap(batch.err)
        let outDir = work.appendingPathComponent("out").path
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning, (try? tree("out").count) ?? 0 < 50 { usleep(5_000) }
        process.interrupt()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let files = try tree("out")
        XCTAssertTrue(files.keys.allSatisfy { !$0.contains(".archivist-") }, "no temporary files left")
        for (path, data) in files {
            XCTAssertNoThrow(try PropertyList.read([UInt8](data)), "\(path) is complete")
        }
        if files.count < 2_000 {
            XCTAssertEqual(process.terminationStatus, 130)
            XCTAssertTrue(stderr.contains("interrupted:"), stderr)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: outDir))
    }
}

/// Long input lists take a fast path around ArgumentParser's quadratic
/// positional parsing; it must give the same results and the same usage errors
/// for every option of the command, including ones added after it was written.
extension CLITests {
    func testLongInputListsBehaveAsShortOnes() throws {
        var names: [String] = []
        for i in 0..<40 {
            names.append(make("in/f\(i).plist", i == 7 ? "<plist><dict><key>a</key></dict></plist>" : "<plist><integer>\(i)</integer></plist>"))
        }
        // convert with options a hand-kept list once missed: --jobs, --report, --max-depth.
        let converted = try run(["convert"] + names + ["--to", "json", "--output-dir", "out", "--jobs", "1", "--report", "report.json", "--max-depth", "8"])
        XCTAssertEqual(converted.status, 1, converted.stderr)
        XCTAssertTrue(converted.stderr.contains("in/f7.plist:1:"), converted.stderr)
        XCTAssertEqual(try listing("out").count, 39)
        let report = try XCTUnwrap(contents("report.json"))
        guard case .array(let entries) = try PropertyList.read([UInt8](report)).tree.value else { return XCTFail("report") }
        XCTAssertEqual(entries.count, 40)

        // lint: the same lines as one file at a time, in input order.
        let long = try run(["lint", "--format", "github"] + names)
        var expected = ""
        for name in names { expected += try run(["lint", "--format", "github", name]).stdout }
        XCTAssertEqual(long.status, 1)
        XCTAssertEqual(long.stdout, expected)

        // Options among the inputs: a flag just before an input, and an
        // option's value; every input's line in its place (`PATH: OK` lines).
        var plain = ""
        for name in names { plain += try run(["lint", name]).stdout }
        let mixed = try run(["lint"] + names[0..<10] + ["--hidden"] + names[10..<25] + ["--jobs", "2"] + names[25...])
        XCTAssertEqual(mixed.status, 1)
        XCTAssertEqual(mixed.stdout, plain)

        // A usage error in a long line is the one a short line gets.
        let bad = try run(["convert"] + names + ["--to", "nope"])
        let short = try run(["convert", names[0], "--to", "nope"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, short.stderr)
        let unknown = try run(["lint"] + names + ["--no-such-option"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("--no-such-option"), unknown.stderr)
        // A value before the inputs is the option's, not an input.
        let valued = try run(["convert", "--output-dir", "out2"] + names + ["--to", "xml"])
        XCTAssertEqual(valued.status, 1, valued.stderr)
        XCTAssertEqual(try listing("out2").count, 39)
    }

    /// The fast path takes a word that neither starts with `-` nor follows
    /// such a word for an input: it holds while every option of the commands
    /// that take it reads one value, the next word, and their inputs are
    /// their one positional argument.
    func testLongInputCommandsTakeOneValuePerOption() throws {
        for command in ["convert", "lint", "migrate"] {
            let dumped = try run([command, "--experimental-dump-help"])
            XCTAssertEqual(dumped.status, 0, dumped.stderr)
            let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dumped.stdout.utf8)) as? [String: Any])
            let arguments = try XCTUnwrap((root["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
            var positionals = 0
            for argument in arguments {
                let kind = argument["kind"] as? String ?? "", strategy = argument["parsingStrategy"] as? String ?? ""
                let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                switch kind {
                case "flag": continue
                case "option": XCTAssertTrue(["default", "unconditional"].contains(strategy), "\(command) \(names): \(strategy)")
                case "positional":
                    positionals += 1
                    XCTAssertEqual(strategy, "default", "\(command) \(names)")
                    XCTAssertEqual(argument["isRepeating"] as? Bool, true, "\(command) \(names)")
                default: XCTFail("\(command) \(names): \(kind)")
                }
            }
            XCTAssertEqual(positionals, 1, command)
        }
    }
}
