import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore

/// A mapped binary plist is read through a window: the pages read are
/// handed back as the tree is built, so the input is not resident all at
/// once beside the tree, and the tree is the one read without the window.
final class InputPagesTests: XCTestCase {
    /// A binary plist of `count` distinct strings of about 100 bytes in an
    /// array, in a dictionary (so the window moves over both the objects and
    /// the offset table).
    private func bigBinaryPlist(count: Int) throws -> [UInt8] {
        let padding = String(repeating: "x", count: 88)
        let items = (0..<count).map { PlistValue.string("item \($0) \(padding)") }
        return try PropertyList.write(.dictionary(PlistDictionary([("items", .array(items)), ("name", .string("big"))])), as: .binary)
    }

    /// Kilobytes of the mapping that starts at `address` resident in this
    /// process, from `/proc/self/smaps` (nil where it is not available).
    private func residentKiB(ofMappingAt address: UInt) -> Int? {
        guard let bytes = try? FileIO.read("/proc/self/smaps") else { return nil }
        let smaps = String(decoding: bytes, as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16), line.contains(" ") {
                let end = line[line.index(after: dash)...].prefix { $0 != " " }
                inMapping = start <= address && address < (UInt(end, radix: 16) ?? 0)
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ")[1])
            }
        }
        return nil
    }

    func testAMappedBinaryPlistIsReadThroughAWindowAndReadsTheSame() throws {
        let scratch = try makeScratchFolder("archivist-input-pages")
        let bytes = try bigBinaryPlist(count: 120_000)
        XCTAssertGreaterThan(bytes.count, 12 << 20)
        let path = try scratch.write("big.plist", Data(bytes)).path

        let input = try FileIO.input(path)
        XCTAssertTrue(input.isMapped)
        let expected = try PropertyList.read(bytes).tree

        // Without the pages, the whole file is resident once read.
        let whole = try input.withUnsafeBytes { buffer -> (PlistTree, Int?) in
            let tree = try PropertyList.read(buffer, options: ReadOptions()).tree
            return (tree, residentKiB(ofMappingAt: UInt(bitPattern: buffer.baseAddress)))
        }
        XCTAssertEqual(whole.0.value, expected.value)
        input.releaseResidentPages()

        // With them, what is left resident is the window (about 1.25 MiB
        // of objects and as much of the offset table), not the 12 MiB read.
        let windowed = try input.withUnsafeBytes { buffer -> (PlistTree, Int?) in
            let tree = try PropertyList.read(buffer, options: input.readOptions(ReadOptions())).tree
            return (tree, residentKiB(ofMappingAt: UInt(bitPattern: buffer.baseAddress)))
        }
        XCTAssertEqual(windowed.0.value, expected.value)
        guard let before = whole.1, let after = windowed.1 else { throw XCTSkip("no /proc/self/smaps here") }
        XCTAssertGreaterThan(before, 11 << 10)
        XCTAssertLessThan(after, 4 << 10, "resident after a windowed read: \(after) KiB of \(bytes.count >> 10)")
    }

    func testOnlyTheMappingItWasMadeForIsHandedBack() throws {
        let bytes = try bigBinaryPlist(count: 1_000)
        let input = InputBytes(bytes)
        // Bytes in memory carry no pages: dropping them would lose them.
        XCTAssertNil(input.readOptions(ReadOptions()).inputPages)
        try bytes.withUnsafeBytes { buffer in
            let pages = InputPages(mapping: buffer)
            XCTAssertTrue(pages.isMapping(of: buffer))
            XCTAssertFalse(pages.isMapping(of: UnsafeRawBufferPointer(rebasing: buffer.dropFirst())))
            XCTAssertFalse(pages.isMapping(of: UnsafeRawBufferPointer(rebasing: buffer.dropLast())))
        }
    }
}
