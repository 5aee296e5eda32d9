import ArchivistTestSupport
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// Output into a closed pipe stops at the first failed write (EPIPE): a
/// `dump` of every row of a store whose reader left after 100 bytes reads
/// no further row. Counted by strace: the store's reads (`pread64`) after
/// the write that failed.
extension CLITests {
    func testADumpIntoAClosedPipeStopsReadingAtTheFirstFailedWrite() throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("strace is not installed")
        }
        let db = try SQLiteDatabase.create(path: work.appendingPathComponent("rows.sqlite").path)
        try db.execute("CREATE TABLE T (id INTEGER PRIMARY KEY, Z BLOB)")
        let insert = try db.prepare("INSERT INTO T (Z) VALUES (?)")
        for i in 0..<1_500 {
            insert.reset()
            try insert.bind(1, blob: try PropertyList.write(.dictionary(PlistDictionary([("text", .string(String(repeating: "row \(i) ", count: 300)))])), as: .binary))
            _ = try insert.step()
        }
        for format in [["--json"], []] {
            let (head, stderr, status, lines) = try runIntoClosedPipe(strace, tracing: "write,pread64",
                                                                     ["dump"] + format + ["--sqlite", "rows.sqlite", "--table", "T", "--column", "Z"])
            XCTAssertEqual(head.count, 100)
            XCTAssertEqual(status, 1, "\(format)")
            XCTAssertEqual(stderr, "error: cannot write standard output: Broken pipe\n", "\(format)")
            let failed = try XCTUnwrap(lines.firstIndex { $0.contains("write(1,") && $0.contains("EPIPE") }, "\(format)")
            let readsBefore = lines[..<failed].filter { $0.contains("pread64(") }.count
            let readsAfter = lines[(failed + 1)...].filter { $0.contains("pread64(") }.count
            XCTAssertGreaterThan(readsBefore, 10, "\(format): the store is read page by page")
            XCTAssertLessThanOrEqual(readsAfter, 2, "\(format): rows read after the pipe closed (the next row at most)")
            // Writes before the failure fill the pipe's buffer while the reader
            // is slow to leave (a loaded machine): only those after it count.
            let writesAfter = lines[(failed + 1)...].filter { $0.contains("write(1,") }.count
            XCTAssertEqual(writesAfter, 0, "\(format): standard output written after it failed")
        }
    }

    /// `lint DIR | head -n 1`: a command that writes no file ends at the
    /// first failed write, so the files after it are not opened (all 3,000
    /// were before). Counted by strace: the inputs opened, which the lines
    /// buffered before the failed write (64 KB, about 600 lines here) and the
    /// jobs' look-ahead bound.
    func testALintIntoAClosedPipeStopsOpeningFiles() throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("strace is not installed")
        }
        let count = 3_000
        let folder = work.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plist = Data(#"{"v": 1}"#.utf8)
        // Long names: each line `big/NAME.plist: OK` is about 100 bytes.
        let stem = String(repeating: "n", count: 80)
        for i in 0..<count { try plist.write(to: folder.appendingPathComponent("\(stem)\(i).plist")) }
        // Names in full (-s): the inputs are opened through their folder (openat2).
        let (head, stderr, status, lines) = try runIntoClosedPipe(strace, tracing: "openat,openat2,write", ["lint", "big", "--jobs", "2"],
                                                                 straceOptions: ["-s", "200"])
        XCTAssertTrue(String(decoding: head, as: UTF8.self).hasPrefix("big/"), String(decoding: head, as: UTF8.self))
        XCTAssertEqual(status, 1, stderr)
        XCTAssertEqual(stderr, "error: cannot write standard output: Broken pipe\n")
        let failed = try XCTUnwrap(lines.firstIndex { $0.contains("write(1,") && $0.contains("EPIPE") })
        let opened = lines.filter { $0.contains("openat") && $0.contains(stem) }.count
        let openedAfter = lines[(failed + 1)...].filter { $0.contains("openat") && $0.contains(stem) }.count
        XCTAssertGreaterThan(opened, 100, "the lines that reached the pipe are of inputs opened")
        XCTAssertLessThan(opened, count / 2, "inputs opened in all")
        // The jobs' look-ahead (32 items a job) at most, and the listing's own reads.
        XCTAssertLessThanOrEqual(openedAfter, 2 * 32 + 2, "inputs opened after the failed write")
        XCTAssertEqual(lines.filter { $0.contains("write(1,") && $0.contains("EPIPE") }.count, 1, "one failed write, then the end")
    }

    /// Runs `archivist ARGS` under strace (the system calls `tracing`), reads
    /// 100 bytes of its standard output and closes it, as `| head -c 100`
    /// does; returns what was read, its standard error, its status and the
    /// trace's lines.
    private func runIntoClosedPipe(_ strace: String, tracing calls: String, _ args: [String], straceOptions: [String] = [])
        throws -> (head: Data, stderr: String, status: Int32, trace: [Substring]) {
        let trace = work.appendingPathComponent("trace.txt")
        let traced = try ProcessRunner.start(URL(fileURLWithPath: strace), ["-f", "-qq"] + straceOptions + ["-o", trace.path, "-e", "trace=" + calls,
                                                                                                      ProcessRunner.archivist.path] + args,
                                             in: work, stdin: .inherit)
        let out = try XCTUnwrap(traced.out)
        let head = try out.fileHandleForReading.read(upToCount: 100) ?? Data()
        try out.fileHandleForReading.close()
        let stderr = String(decoding: try XCTUnwrap(traced.err).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        traced.process.waitUntilExit()
        return (head, stderr, traced.process.terminationStatus, try String(contentsOf: trace, encoding: .utf8).split(separator: "\n"))
    }
}
