import ArchivistTestSupport
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A FIFO in an output folder neither hangs a batch nor survives one
/// SIGTERM: a FIFO, device or socket planted where a result would go is
/// refused (the other files are converted), and a FIFO written directly is
/// opened without blocking, so a reader that stops reading leaves the write
/// waiting where a stop request ends it.
extension CLITests {
    func testAFIFOPlantedInTheOutputFolderIsRefused() throws {
        // Named .plist: a walk reads the property-list family (JSON text in them is read by content).
        make("in/a.plist", #"{"a": 1}"#)
        make("in/b.plist", #"{"b": 1}"#)
        try FileManager.default.createDirectory(at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(work.appendingPathComponent("out/a.plist").path, 0o600), 0)
        let result = try run(["convert", "in", "--to", "xml", "--output-dir", "out"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("in/a.plist: error: refusing to write into out/a.plist in the output folder: not a regular file (a FIFO, device or socket)\n"), result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("out/b.plist").path))
        var st = stat()
        XCTAssertEqual(lstat(work.appendingPathComponent("out/a.plist").path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "left as it was")
    }

    /// `-o FIFO` whose reader holds it open and reads nothing: once the
    /// FIFO is full (the writer waits), one SIGTERM ends the run (143).
    func testOneSIGTERMEndsAWriteIntoAFIFONobodyReads() throws {
        let texts = (0..<4_000).map { "\"" + String(repeating: "x", count: 100) + "\($0)\"" }
        make("big.json", "[" + texts.joined(separator: ",") + "]")
        let fifo = work.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let convert = try ProcessRunner.start(ProcessRunner.archivist, ["convert", "big.json", "--to", "xml", "-o", "fifo"], in: work,
                                              stdin: .inherit, stdout: .inherit)
        let process = convert.process, err = try XCTUnwrap(convert.err)
        // Until the FIFO holds all it can take: the writer then waits.
        var queued: Int32 = 0
        for _ in 0..<6_000 where queued < 65_536 && process.isRunning {
            _ = ioctl(reader, UInt(FIONREAD), &queued)
            usleep(10_000)
        }
        XCTAssertGreaterThanOrEqual(queued, 65_536, "the writer filled the FIFO")
        process.terminate()
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: killer)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        killer.cancel()
        XCTAssertEqual(process.terminationReason, .exit, "ended by its own exit, not by the watchdog's SIGKILL")
        XCTAssertEqual(process.terminationStatus, 143)
        XCTAssertTrue(stderr.contains("big.json: error: cannot write fifo: interrupted while its reader was not reading"), stderr)
    }
}
