import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// `lint --secure` prints its findings as it finds them: the memory of a run
/// with 100,000 findings does not grow with them (within 4 MiB of the same
/// file's run without findings; holding them took several times that), and
/// every one is printed, in `$objects` and field order.
extension CLITests {
    func testSecureFindingsStreamInBoundedMemory() throws {
        let count = 100_000
        // One custom object holding 100,000 inline integers, each a finding
        // (the class is allowed, so nothing else is reported).
        let pad = String(repeating: "p", count: 40)
        let fields = (0..<count).map { ("field\(pad)\($0)", PlistValue.int(Int64($0))) }
        let archive = ArchiveBuilder.archive(className: "App.Big", fields: fields)
        let bytes = try PropertyList.write(archive, as: .binary)
        try Data(bytes).write(to: work.appendingPathComponent("big.plist"))
        let args = ["lint", "--secure", "--allow", "App.Big", "big.plist"]

        let (result, peakKiB) = try runMeasuringPeak(args)
        XCTAssertEqual(result.status, 1, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, count)
        XCTAssertEqual(lines.first.map(String.init),
                       "big.plist: $objects[1] (root.field\(pad)0): error: field\(pad)0 of App.Big holds the integer 0 inline, which decodeObject(of:forKey:) cannot read; box it into an NSNumber")
        XCTAssertTrue(lines.last?.contains("(root.field\(pad)\(count - 1)): error: field\(pad)\(count - 1) of App.Big holds the integer \(count - 1) inline") == true,
                      String(lines.last ?? ""))
        // The same file without --secure reads and checks the same tree and
        // finds nothing: the 100,000 findings (25 MB printed) add little.
        let (plain, plainKiB) = try runMeasuringPeak(["lint", "big.plist"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertLessThan(peakKiB, plainKiB + 4 * 1024, "peak \(peakKiB) KiB with \(result.output.count) bytes of findings, \(plainKiB) KiB without")

        // A closed output ends the run at once, with one line on standard error.
        let closed = try ProcessRunner.run(ProcessRunner.archivist, args, in: work, stdout: .closed)
        XCTAssertNotEqual(closed.status, 0)
        XCTAssertLessThanOrEqual(closed.stderr.split(separator: "\n").count, 1, closed.stderr)
    }

    /// The run's result and its peak resident size in KiB: GNU time's `%M`
    /// when it is installed, else the child's `VmHWM` read from
    /// `/proc/PID/status` until it ends.
    private func runMeasuringPeak(_ args: [String]) throws -> (ProcessResult, Int) {
        let time = "/usr/bin/time"
        if FileManager.default.isExecutableFile(atPath: time) {
            let result = try run(executable: URL(fileURLWithPath: time), ["-f", "%M", "-o", "peak.txt", ProcessRunner.archivist.path] + args)
            let text = String(decoding: contents("peak.txt") ?? Data(), as: UTF8.self)
            guard let kib = text.split(whereSeparator: \.isNewline).last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), kib > 0 else {
                throw XCTSkip("\(time) gave no peak resident size: \(text)")
            }
            return (result, kib)
        }
        guard FileManager.default.fileExists(atPath: "/proc/self/status") else {
            throw XCTSkip("neither \(time) nor /proc to measure the peak resident size with")
        }
        // Standard output to a file: a pipe nobody reads while polling would stop the run.
        let outURL = work.appendingPathComponent("out.txt")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        defer { try? out.close() }
        let running = try ProcessRunner.start(ProcessRunner.archivist, args, in: work, stdin: .null, stdout: .handle(out), stderr: .pipe)
        var peak = 0
        let status = "/proc/\(running.pid)/status"
        while running.process.isRunning {
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kib = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber)) {
                peak = max(peak, kib)
            }
            usleep(2_000)
        }
        var result = running.finish()
        result.output = (try? Data(contentsOf: outURL)) ?? Data()
        guard peak > 0 else { throw XCTSkip("no VmHWM read from \(status)") }
        return (result, peak)
    }
}
