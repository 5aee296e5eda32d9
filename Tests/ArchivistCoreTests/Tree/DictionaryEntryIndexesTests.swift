import XCTest
@testable import ArchivistCore

/// `DictionaryEntryIndexes` finds every entry stored under a key, in tables
/// that nest, grow and close as dictionaries do, checked against a plain
/// model of each open dictionary's entries.
final class DictionaryEntryIndexesTests: XCTestCase {
    /// Entries of table `table` under `key`, asked one by one.
    private func positions(_ indexes: DictionaryEntryIndexes, _ key: UInt64, in table: Int) -> Set<Int> {
        var asked = Set<Int>()
        _ = indexes.first(key, in: table) { asked.insert($0); return false }
        return asked
    }

    func testNestedTablesAgainstAModel() {
        var generator = SystemRandomNumberGenerator()
        var indexes = DictionaryEntryIndexes()
        // Open dictionaries, innermost last: table number and keys by position.
        var model: [(table: Int, keys: [UInt64])] = []
        for step in 0..<20_000 {
            let roll = Int.random(in: 0..<100, using: &generator)
            if model.isEmpty || (roll < 3 && model.count < 6) {
                let expected = [0, 5, 40, 200].randomElement(using: &generator) ?? 0
                model.append((indexes.open(expecting: expected), []))
                XCTAssertEqual(model.last?.table, model.count - 1)
            } else if roll < 6 {
                if let top = model.popLast() { indexes.close(top.table) }
            } else {
                // Few distinct keys, so keys repeat; some near each other, some far.
                let key = roll < 50 ? UInt64.random(in: 0..<40, using: &generator) : UInt64.random(in: 0...UInt64.max, using: &generator)
                let top = model.count - 1
                let found = positions(indexes, key, in: model[top].table)
                let expected = Set(model[top].keys.indices.filter { model[top].keys[$0] == key })
                XCTAssertEqual(found, expected, "step \(step)")
                indexes.insert(key, position: model[top].keys.count, into: model[top].table)
                model[top].keys.append(key)
            }
        }
        // Every open table still answers for all its keys.
        for (table, keys) in model {
            for (position, key) in keys.enumerated() {
                XCTAssertTrue(positions(indexes, key, in: table).contains(position))
            }
        }
    }

    /// A count is a hint: 100 nested dictionaries that each claim a billion
    /// entries hold 4,096 slots each until entries come.
    func testClaimedCountsCostNoMoreThanTheHintsCap() {
        var indexes = DictionaryEntryIndexes()
        for _ in 0..<100 { _ = indexes.open(expecting: 1_000_000_000) }
        XCTAssertEqual(indexes.slotCount, 100 * 4096)
        for i in 0..<5000 { indexes.insert(UInt64(i), position: i, into: 99) }
        XCTAssertEqual(indexes.slotCount, 99 * 4096 + 16384, "the innermost grew for its entries")
        XCTAssertEqual(indexes.first(4999, in: 99) { _ in true }, 4999)
    }

    /// A dictionary left open (its reader stopped at an error) is dropped when
    /// the dictionary around it takes an entry or a new one opens.
    func testTablesLeftOpenAreDropped() {
        var indexes = DictionaryEntryIndexes()
        let outer = indexes.open(expecting: 0)
        indexes.insert(7, position: 0, into: outer)
        let inner = indexes.open(expecting: 0)
        for i in 0..<100 { indexes.insert(UInt64(i), position: i, into: inner) }
        indexes.insert(8, position: 1, into: outer)
        XCTAssertNil(indexes.first(3, in: inner) { _ in true }, "the inner table is gone")
        XCTAssertEqual(indexes.first(7, in: outer) { _ in true }, 0)
        XCTAssertEqual(indexes.first(8, in: outer) { _ in true }, 1)
        XCTAssertEqual(indexes.open(expecting: 0), 1)
        XCTAssertNil(indexes.first(8, in: 5) { _ in true }, "no such table")
    }
}
