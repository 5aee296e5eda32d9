import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Exit statuses and signals as tools of this kind use them, and colour as
/// no-color.org and terminals ask.
extension CLITests {
    func testDiffExitsTwoWhenItCannotCompare() throws {
        let a = try PropertyListSerialization.data(fromPropertyList: ["v": "42"], format: .binary, options: 0)
        let b = try PropertyListSerialization.data(fromPropertyList: ["v": "43"], format: .xml, options: 0)
        try a.write(to: work.appendingPathComponent("a.plist"))
        try b.write(to: work.appendingPathComponent("b.plist"))
        XCTAssertEqual(try run(["diff", "a.plist", "a.plist"]).status, 0)
        let different = try run(["diff", "a.plist", "b.plist"])
        XCTAssertEqual(different.status, 1)
        XCTAssertEqual(different.stdout, "~ v: string \"42\" -> string \"43\"\n")
        let missing = try run(["diff", "a.plist", "missing.plist"])
        XCTAssertEqual(missing.status, 2, "could not compare")
        XCTAssertTrue(missing.stderr.hasPrefix("missing.plist: error: "), missing.stderr)
        make("broken.json", "[1,")
        XCTAssertEqual(try run(["diff", "broken.json", "a.plist"]).status, 2)
    }

    /// Starts `archivist` with standard input held open, and waits until it
    /// catches SIGINT (its handler is installed once the batch starts).
    func startBlockedBatch() throws -> (Process, Pipe, Pipe) {
        make("in/a.plist", "<plist><string>a</string></plist>")
        make("in/b.plist", "<plist><string>b</string></plist>")
        let batch = try ProcessRunner.start(ProcessRunner.archivist, ["convert", "-", "in", "--to", "xml", "--output-dir", "out", "--jobs", "1"],
                                            in: work, stdin: .open, stdout: .null)
        let process = batch.process, input = try XCTUnwrap(batch.input), err = try XCTUnwrap(batch.err)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !Self.catchesSIGINT(process.processIdentifier) { usleep(2_000) }
        XCTAssertTrue(Self.catchesSIGINT(process.processIdentifier), "the batch catches Ctrl-C")
        // The first item has started: it is blocked reading standard input.
        while Date() < deadline, !Self.isReadingStandardInput(process.processIdentifier) { usleep(2_000) }
        XCTAssertTrue(Self.isReadingStandardInput(process.processIdentifier), "the first item reads standard input")
        return (process, input, err)
    }

    /// True when the process's main thread is in read(0, ...) (`/proc/PID/syscall`:
    /// the system call's number, then its arguments).
    static func isReadingStandardInput(_ pid: Int32) -> Bool {
        #if arch(x86_64)
        let read = "0"
        #else
        let read = "63"
        #endif
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return false }
        let fields = text.split(separator: " ")
        return fields.count > 1 && fields[0] == read && fields[1] == "0x0"
    }

    /// True when the process has a handler for SIGINT (`SigCgt` in /proc).
    static func catchesSIGINT(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGINT) - 1)) != 0
    }

    /// Ctrl-C: the file under way is finished, the others are not started,
    /// and the status is 130.
    func testInterruptedBatchExits130() throws {
        let (process, input, err) = try startBlockedBatch()
        kill(process.processIdentifier, SIGINT)
        input.fileHandleForWriting.write(Data("<plist><string>stdin</string></plist>".utf8))
        try input.fileHandleForWriting.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertTrue(stderr.contains("1 converted, 0 unchanged, 0 skipped, 0 failed;"), stderr)
        XCTAssertTrue(stderr.hasSuffix("; interrupted: 2 not started\n"), stderr)
        XCTAssertEqual(try listing("out"), ["stdin.plist"])
    }

    /// A second Ctrl-C stops at once, while the first file is still under way.
    func testSecondInterruptStopsAtOnce() throws {
        let (process, input, _) = try startBlockedBatch()
        kill(process.processIdentifier, SIGINT)
        usleep(50_000)
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning { usleep(5_000) }
        XCTAssertFalse(process.isRunning, "stopped without waiting for its input")
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertEqual((try? listing("out")) ?? [], [], "nothing was renamed into place")
    }

    /// Runs `archivist` with standard output on a pseudo-terminal and returns what it wrote there.
    func runOnTerminal(_ args: [String], environment: [String: String]) throws -> String {
        // glibc's pseudo-terminal calls, which its Swift module does not export.
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            unsafeBitCast(try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), name), to: type)
        }
        let master = try symbol("posix_openpt", as: OpenPT.self)(O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(master, 0)
        defer { close(master) }
        XCTAssertEqual(try symbol("grantpt", as: OpenPT.self)(master), 0)
        XCTAssertEqual(try symbol("unlockpt", as: OpenPT.self)(master), 0)
        let name = String(cString: try XCTUnwrap(try symbol("ptsname", as: PTSName.self)(master)))
        let slave = open(name, O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(slave, 0)
        _ = try ProcessRunner.run(ProcessRunner.archivist, args, in: work, environment: environment, stdin: .inherit,
                                  stdout: .handle(FileHandle(fileDescriptor: slave, closeOnDealloc: true)), stderr: .null)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var flags = fcntl(master, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(master, F_SETFL, flags)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    func testColourFollowsNoColorTermAndTheOption() throws {
        let file = corpus("archives/computer.plist")
        let escape = "\u{1B}["
        let base = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]
        XCTAssertTrue(try runOnTerminal(["dump", file], environment: base).contains(escape), "a terminal is coloured")
        XCTAssertTrue(try runOnTerminal(["dump", file], environment: base.merging(["NO_COLOR": ""]) { $1 }).contains(escape),
                      "an empty NO_COLOR does not turn colour off (no-color.org)")
        XCTAssertFalse(try runOnTerminal(["dump", file], environment: base.merging(["NO_COLOR": "1"]) { $1 }).contains(escape))
        XCTAssertFalse(try runOnTerminal(["dump", file], environment: ["TERM": "dumb"]).contains(escape), "TERM=dumb has no colour")
        XCTAssertFalse(try runOnTerminal(["dump", file, "--color", "never"], environment: base).contains(escape))
        XCTAssertTrue(try run(["dump", file, "--color", "always"]).stdout.contains(escape), "always, even into a pipe")
        XCTAssertFalse(try run(["dump", file]).stdout.contains(escape), "auto: a pipe has no colour")
        XCTAssertEqual(try run(["dump", file, "--color", "sometimes"]).status, 64)
    }
}
