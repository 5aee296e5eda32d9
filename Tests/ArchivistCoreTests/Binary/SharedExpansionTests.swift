import ArchivistCore
import Foundation
import XCTest

/// A small binary plist whose shared data is referenced from thousands of
/// places expands to gigabytes when written out: its reuses count against
/// `Limits.maxSharedExpansion`.
final class SharedExpansionTests: XCTestCase {
    /// `[data, data, ...]`: an array of `references` 2-byte references to one
    /// data object of `length` bytes (4-byte offsets).
    func sharedData(length: Int, references: Int) -> [UInt8] {
        var out = Array("bplist00".utf8)
        let arrayOffset = out.count
        out += [0xAF, 0x11, UInt8(references >> 8), UInt8(references & 0xFF)]
        for _ in 0..<references { out += [0x00, 0x01] }
        let dataOffset = out.count
        out += [0x4F, 0x12, UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        out += [UInt8](repeating: 0x2A, count: length)
        let table = out.count
        for offset in [arrayOffset, dataOffset] {
            out += [UInt8(offset >> 24), UInt8((offset >> 16) & 0xFF), UInt8((offset >> 8) & 0xFF), UInt8(offset & 0xFF)]
        }
        out += [0, 0, 0, 0, 0, 0, 4, 2]
        out += [0, 0, 0, 0, 0, 0, 0, 2]
        out += [0, 0, 0, 0, 0, 0, 0, 0]
        out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: table >> ($0 * 8)) }
        return out
    }

    func testReusesOfSharedDataCountAgainstTheLimit() throws {
        // 1 MiB referenced 2,000 times: about 2 GB once written.
        let bomb = sharedData(length: 1 << 20, references: 2_000)
        XCTAssertLessThan(bomb.count, 1 << 21)
        XCTAssertThrowsError(try PropertyList.read(bomb)) { error in
            let e = error as? PlistError
            XCTAssertEqual(e?.kind, .limitExceeded)
            XCTAssertTrue(e?.message.hasPrefix("shared strings and data expand to more than 1073741824 bytes") ?? false, "\(error)")
        }
        // The same file under a higher limit reads (the tree shares the bytes).
        var limits = Limits()
        limits.maxSharedExpansion = 1 << 32
        let document = try PropertyList.read(bomb, options: ReadOptions(limits: limits))
        guard case .array(let items) = document.tree.value else { return XCTFail("an array") }
        XCTAssertEqual(items.count, 2_000)
        XCTAssertEqual(items.first, .data([UInt8](repeating: 0x2A, count: 1 << 20)))
        // Reuses of a small value are nothing to refuse, and the builder's
        // files are what Foundation reads too.
        let small = sharedData(length: 100, references: 1_000)
        guard case .array(let smallItems) = try PropertyList.read(small).tree.value else { return XCTFail("an array") }
        let foundation = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(small), format: nil) as? [Data])
        XCTAssertEqual(smallItems, foundation.map { .data([UInt8]($0)) })
    }
}
