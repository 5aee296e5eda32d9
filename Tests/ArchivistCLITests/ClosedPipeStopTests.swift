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
            let trace = work.appendingPathComponent("trace.txt")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: strace)
            process.arguments = ["-f", "-qq", "-o", trace.path, "-e", "trace=write,pread64",
                                 Self.productsDirectory.appendingPathComponent("archivist").path, "dump"] + format
                + ["--sqlite", "rows.sqlite", "--table", "T", "--column", "Z"]
            process.currentDirectoryURL = work
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // As `| head -c 100`: read 100 bytes, then leave.
            let head = try out.fileHandleForReading.read(upToCount: 100) ?? Data()
            try out.fileHandleForReading.close()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(head.count, 100)
            XCTAssertEqual(process.terminationStatus, 1, "\(format)")
            XCTAssertEqual(stderr, "error: cannot write standard output: Broken pipe\n", "\(format)")
            let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
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
}
