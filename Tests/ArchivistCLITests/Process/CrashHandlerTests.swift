import ArchivistTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A crash runs nothing from the binary's folder: Swift's crash handler
/// would run a `swift-backtrace` found beside the binary, with the rights of
/// the process that crashed.
extension CLITests {
    func testPlantedBacktracerIsNotRunOnACrash() throws {
        let folder = work.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = folder.appendingPathComponent("archivist")
        try FileManager.default.copyItem(at: ProcessRunner.archivist, to: binary)
        let marker = work.appendingPathComponent("planted-program-ran")
        let planted = folder.appendingPathComponent("swift-backtrace")
        try "#!/bin/sh\necho ran > '\(marker.path)'\n".write(to: planted, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(planted.path, 0o755), 0)
        let fifo = work.appendingPathComponent("input.plist")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)

        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SWIFT_BACKTRACE")
        let running = try ProcessRunner.start(binary, ["lint", fifo.path], in: work, environment: environment)
        // Once `lint` has the fifo open (a non-blocking open for writing then
        // succeeds), it is past start-up and waits for bytes.
        var writer: Int32 = -1
        for _ in 0..<2_000 where writer < 0 {
            writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer < 0 { usleep(5_000) }
        }
        XCTAssertGreaterThanOrEqual(writer, 0, "lint opened its input")
        XCTAssertEqual(kill(running.pid, SIGSEGV), 0)
        // Swift's handler waits for its backtracer: a process still there
        // after 20 s is one that ran it.
        var waited = 0
        while running.process.isRunning, waited < 4_000 {
            usleep(5_000)
            waited += 1
        }
        XCTAssertFalse(running.process.isRunning, "it ended at the signal")
        if running.process.isRunning { kill(running.pid, SIGKILL) }
        let result = running.finish()
        if writer >= 0 { close(writer) }
        XCTAssertEqual(result.status, SIGSEGV, "it died of the signal: \(result.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the program beside the binary was not run")
    }
}
