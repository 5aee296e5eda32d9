import ArchivistTestSupport
import CArchivistSupport
import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore

/// Once a large input is opened, the allocator serves large blocks from
/// mappings of their own, which go back to the system when freed, instead
/// of from the heap (where a freed table leaves a hole).
final class LargeInputHeapTests: XCTestCase {
    private func heapBytes() -> (mapped: Int64, free: Int64) {
        var mapped: Int64 = 0, free: Int64 = 0
        _ = archivist_heap_bytes(&mapped, &free)
        return (mapped, free)
    }

    func testALargeInputHasLargeBlocksMappedOnTheirOwn() throws {
        #if !canImport(Glibc)
        throw XCTSkip("glibc's allocator only")
        #else
        let scratch = try makeScratchFolder("archivist-large-input-heap")
        let bytes = try PropertyList.write(.data([UInt8](repeating: 7, count: InputBytes.mapThreshold)), as: .binary)
        let path = try scratch.write("large.plist", Data(bytes)).path
        // A 30 MiB block freed: glibc's adjusting threshold rises to its
        // size, and smaller blocks then come from the heap.
        withExtendedLifetime([UInt8](repeating: 1, count: 30 << 20)) {}
        let input = try FileIO.input(path)
        XCTAssertGreaterThanOrEqual(input.count, InputBytes.mapThreshold)
        // Larger than all the heap's free space, so it cannot be carved
        // from a free chunk; above the threshold, so it is mapped.
        let before = heapBytes()
        XCTAssertGreaterThanOrEqual(before.free, 0)
        let size = max(LargeInputHeap.mappedFrom, Int(before.free)) + (1 << 20)
        let block = [UInt8](repeating: 2, count: size)
        let during = heapBytes()
        withExtendedLifetime(block) {}
        XCTAssertGreaterThanOrEqual(during.mapped - before.mapped, Int64(size), "a block of \(size) bytes is not mapped on its own")
        #endif
    }
}
