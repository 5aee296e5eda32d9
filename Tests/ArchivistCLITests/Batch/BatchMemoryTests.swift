import Foundation
import XCTest

/// A batch holds memory flat: converting 8,000 files in place takes little
/// more memory than converting 2,000 (what the run keeps per file is small:
/// the plan's items, what `RunOutputs` keeps to catch collisions, a status
/// and a size). Measured as the peak resident size `/usr/bin/time -f %M`
/// reports (a memory count, not a timing).
extension CLITests {
    func testBatchMemoryGrowsLittlePerFile() throws {
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else { throw XCTSkip("no \(time) to measure the peak resident size with") }
        let archivist = Self.productsDirectory.appendingPathComponent("archivist").path
        /// The peak resident size (KB) of converting `count` files in place.
        func peak(_ count: Int) throws -> Int {
            let folder = "flat\(count)"
            for i in 0..<count {
                make("\(folder)/folder\(i % 50)/settings-file-\(i).plist",
                     "<plist version=\"1.0\"><dict><key>index</key><integer>\(i)</integer></dict></plist>")
            }
            let result = try run(executable: URL(fileURLWithPath: time),
                                 ["-f", "%M", "-o", "peak\(count).txt", archivist, "convert", folder, "-r", "--to", "binary",
                                  "--in-place", "--jobs", "2"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("\(count) converted"), result.stderr)
            let text = String(decoding: contents("peak\(count).txt") ?? Data(), as: UTF8.self)
            guard let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
                  kilobytes > 0
            else { throw XCTSkip("\(time) gave no peak resident size: \(text)") }
            return kilobytes
        }
        let small = try peak(2_000), large = try peak(8_000)
        let perFile = Double(large - small) / 6_000
        XCTAssertLessThan(perFile, 0.5, "peak \(small) KB for 2,000 files, \(large) KB for 8,000: \(perFile) KB a file")
    }
}
