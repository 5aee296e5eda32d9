import Foundation
import XCTest
@testable import ArchivistCore

/// The count of references to each object, read before the tree is built,
/// for every size a reference and an offset may take.
final class BinaryReferenceCountsTests: XCTestCase {
    /// Objects: 0 = an array of 1, 1, 2, 3, 3, 3 and `stray` (a reference
    /// past the objects, which counts for none); 1 = "a", 2 = "b", 3 = 7.
    private func bplist(referenceSize size: Int, offsetSize: Int = 1, stray: UInt64? = nil) -> [UInt8] {
        var refs: [UInt64] = [1, 1, 2, 3, 3, 3]
        if let stray { refs.append(stray) }
        func be(_ v: UInt64, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * (width - 1 - $0))) } }
        let objects: [[UInt8]] = [[0xA0 | UInt8(refs.count)] + refs.flatMap { be($0, size) }, [0x51, 0x61], [0x51, 0x62], [0x10, 7]]
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects { offsets += be(UInt64(out.count), offsetSize); out += o }
        let table = out.count
        out += offsets
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(size)]
        out += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        out += [0, 0, 0, 0, 0, 0, 0, 0]
        out += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return out
    }

    private func shared(_ bytes: [UInt8]) throws -> [Bool] {
        try bytes.withUnsafeBytes { buffer in
            let counts = BinaryReferenceCounts(try BinaryObjectArea(buffer, limits: .default))
            return (0..<4).map(counts.isShared)
        }
    }

    private func inArea(_ bytes: [UInt8]) throws -> Bool {
        try bytes.withUnsafeBytes { BinaryReferenceCounts(try BinaryObjectArea($0, limits: .default)).offsetsInArea }
    }

    func testEveryReferenceSizeCountsTheSameShares() throws {
        for size in 1...8 {
            for offsetSize in 1...8 {
                let bytes = bplist(referenceSize: size, offsetSize: offsetSize)
                XCTAssertEqual(try shared(bytes), [false, true, false, true], "references of \(size) bytes, offsets of \(offsetSize)")
                XCTAssertEqual(try BinaryPlistReader.read(bytes).tree.value, try FoundationBridge.foundationRead(bytes),
                               "references of \(size) bytes, offsets of \(offsetSize)")
                // The last object's offset made to point at the offset table: outside the area.
                var outside = bytes
                let entry = bytes.count - 32 - offsetSize
                let table = bytes.count - 32 - 4 * offsetSize
                for k in 0..<offsetSize { outside[entry + k] = UInt8(truncatingIfNeeded: table >> (8 * (offsetSize - 1 - k))) }
                XCTAssertEqual(try inArea(bytes), true)
                XCTAssertEqual(try inArea(outside), false, "offsets of \(offsetSize) bytes")
                XCTAssertThrowsError(try BinaryPlistReader.read(outside))
            }
            let bytes = bplist(referenceSize: size)
            XCTAssertEqual(try shared(bytes), [false, true, false, true], "references of \(size) bytes")
            // And the tree shares what the file shares, read as Foundation reads it.
            let tree = try BinaryPlistReader.read(bytes).tree
            XCTAssertEqual(tree.nodeCount, 4, "references of \(size) bytes")
            XCTAssertEqual(tree.value, .array([.string("a"), .string("a"), .string("b"), .int(7), .int(7), .int(7)]))
            XCTAssertEqual(tree.value, try FoundationBridge.foundationRead(bytes), "references of \(size) bytes")
            // A reference past the objects is counted for none (the reader refuses it later).
            let stray = bplist(referenceSize: size, stray: size == 1 ? 0xFF : 0x0100)
            XCTAssertEqual(try shared(stray), [false, true, false, true], "a stray reference of \(size) bytes")
            XCTAssertThrowsError(try BinaryPlistReader.read(stray))
        }
    }
}
