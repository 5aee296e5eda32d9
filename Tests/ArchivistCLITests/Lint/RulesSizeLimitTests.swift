import ArchivistCore
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rules files have their own small size limit (16 MiB): `--rules /dev/zero`
/// read 4 GiB before failing. Stand-ins only: a sparse file, and a FIFO this
/// test feeds and counts.
extension CLITests {
    func testRulesFileOverTheLimitIsRefusedFromItsSize() throws {
        make("plain.plist", "<plist><dict/></plist>\n")
        let sparse = work.appendingPathComponent("huge.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: sparse.path, contents: nil))
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        for args in [["lint", "--secure", "--rules", "huge.json", "plain.plist"],
                     ["migrate", "plain.plist", "--rules", "huge.json", "--dry-run"],
                     ["convert", "plain.plist", "--to", "codable-json", "--rules", "huge.json"]] {
            let result = try run(args)
            XCTAssertEqual(result.status, 64, "\(args)")
            XCTAssertEqual(result.stderr, "huge.json: error: cannot read huge.json: larger than the limit of 16777216 bytes\n", "\(args)")
        }
    }

    func testRulesFromAnEndlessPipeStopJustPastTheLimit() throws {
        make("plain.plist", "<plist><dict/></plist>\n")
        let fifo = work.appendingPathComponent("rules.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Fed until the reader goes away, or 64 MiB at most (so a reader with
        // no limit of its own ends too, and this test with it).
        signal(SIGPIPE, SIG_IGN)
        let written = Locked(0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 16)
            while written.withLock({ $0 }) < 64 << 20 {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { return }
                written.withLock { $0 += n }
            }
        }.start()
        let result = try run(["lint", "--secure", "--rules", "rules.fifo", "plain.plist"])
        // A writer still waiting for a reader (one that never opened the FIFO) is let go.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        if reader >= 0 { close(reader) }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "rules.fifo: error: cannot read rules.fifo: larger than the limit of 16777216 bytes\n")
        XCTAssertLessThan(written.withLock { $0 }, 18 << 20, "reading stopped just past the limit")
    }
}
