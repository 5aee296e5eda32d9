import XCTest
@testable import ArchivistCore

/// Keys made offline to share one probe start under the published FNV-1a
/// (what the tables used before `TableHash`) spread over the tables that
/// hold dictionary keys: the readers' key table and the entry indexes of
/// the binary view. Work is counted as the keys' distance from where their
/// probes start; all in one run it would be quadratic (0 + 1 + ... + n-1).
final class TableHashTests: XCTestCase {
    private static let published: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let count = 400

    /// `count` distinct five-letter keys whose published FNV-1a gives the
    /// same `slot` (searched in order, so the same keys every run).
    private func crafted(_ slot: (UInt64) -> Int) -> [String] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        var keys: [String] = []
        var word = [UInt8](repeating: 0, count: 5)
        var target: Int?
        var n = 0
        while keys.count < Self.count, n < 11_881_376 {
            var rest = n
            for i in 0..<5 { word[i] = letters[rest % 26]; rest /= 26 }
            n += 1
            let h = word.withUnsafeBytes { TableHash.text($0, basis: Self.published) }
            let s = slot(h)
            if target == nil { target = s }
            if s == target { keys.append(String(decoding: word, as: UTF8.self)) }
        }
        XCTAssertEqual(keys.count, Self.count, "enough keys found")
        return keys
    }

    func testReaderKeyTableSpreadsKeysMadeToCollide() {
        // The builder's probe start in any table of up to 4,096 slots.
        let keys = crafted { h in Int(truncatingIfNeeded: h ^ h >> 29) & 4095 }
        var builder = PlistTreeBuilder()
        var nodes = Set<Int>()
        for key in keys { nodes.insert(builder.key(key)) }
        XCTAssertEqual(nodes.count, keys.count, "each key stored once")
        for key in keys.prefix(10) { XCTAssertTrue(nodes.contains(builder.key(key)), "found again: \(key)") }
        XCTAssertLessThan(builder.keyDisplacement, 4 * keys.count)
    }

    func testBinaryViewKeyIndexSpreadsKeysMadeToCollide() {
        // The entry indexes' probe start (top bits of the key times 2^64/φ) in tables of up to 4,096 slots.
        let keys = crafted { h in Int(truncatingIfNeeded: (h &* 0x9E37_79B9_7F4A_7C15) >> 52) }
        var indexes = DictionaryEntryIndexes()
        let table = indexes.open(expecting: keys.count)
        for (i, key) in keys.enumerated() {
            var text = key
            let h = text.withUTF8 { TableHash.text(UnsafeRawBufferPointer($0), basis: TableHash.basis) }
            indexes.insert(h, position: i, into: table)
        }
        XCTAssertLessThan(indexes.displacement(of: table), 4 * keys.count)
    }

    func testBasisIsNotThePublishedOne() {
        XCTAssertNotEqual(TableHash.basis, Self.published)
        XCTAssertEqual(TableHash.basis & 1, 1)
    }
}
