import Foundation
import XCTest
@testable import ArchivistCore

/// The count of references to each object, read before the tree is built,
/// for every size a reference may take.
final class BinaryReferenceCountsTests: XCTestCase {
    /// Objects: 0 = an array of 1, 1, 2, 3, 3, 3 and `stray` (a reference
    /// past the objects, which counts for none); 1 = "a", 2 = "b", 3 = 7.
    private func bplist(referenceSize size: Int, stray: UInt64? = nil) -> [UInt8] {
        var refs: [UInt64] = [1, 1, 2, 3, 3, 3]
        if let stray { refs.append(stray) }
        func be(_ v: UInt64) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * (size - 1 - $0))) } }
        let objects: [[UInt8]] = [[0xA0 | UInt8(refs.count)] + refs.flatMap(be), [0x51, 0x61], [0x51, 0x62], [0x10, 7]]
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects { offsets.append(UInt8(out.count)); out += o }
        let table = out.count
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 1, UInt8(size)]
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

    func testEveryReferenceSizeCountsTheSameShares() throws {
        for size in 1...8 {
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
