/// Indexes of the entries of the open dictionaries of a reader, innermost
/// last, in one buffer kept from dictionary to dictionary: open addressing
/// from a 64-bit key (a key's hash, or its node number) to the entry's
/// position, for dictionaries large enough that scanning their keys costs
/// more. A `[UInt64: Int]` per dictionary hashed every key again and
/// allocated its storage as it grew; here a table is a slice of one array.
///
/// Only the innermost table takes entries (`insert` and `open` work on the
/// top). A table above the one asked for belongs to a dictionary that was
/// opened later and left without `close` (its reader stopped at an error):
/// it is dropped.
package struct DictionaryEntryIndexes {
    private struct Slot {
        var key: UInt64
        /// The entry's position + 1; 0: an empty slot.
        var position: Int32
    }

    private struct Table {
        var start: Int
        /// Slots - 1 (a power of two - 1), and 64 - log2(slots).
        var mask: Int
        var shift: UInt64
        var count: Int
        var size: Int { mask + 1 }
    }

    private var slots: [Slot] = []
    private var tables: [Table] = []

    package init() {}

    /// Slots of every open table (for tests that count memory).
    package var slotCount: Int { slots.count }

    /// Opens a table for a dictionary of about `expected` entries and returns
    /// its number. The hint counts up to 2,048 entries; past them the table
    /// grows as entries come, so a dictionary that claims more entries than
    /// it has (a hostile count, in each of many nested dictionaries) costs no
    /// more than the entries it gives.
    package mutating func open(expecting expected: Int) -> Int {
        var bits = 6
        while bits < 12, 1 << bits < 2 * expected { bits += 1 }
        let start = tables.last.map { $0.start + $0.size } ?? 0
        slots.removeSubrange(min(start, slots.count)...)
        slots.append(contentsOf: repeatElement(Slot(key: 0, position: 0), count: 1 << bits))
        tables.append(Table(start: start, mask: (1 << bits) - 1, shift: UInt64(64 - bits), count: 0))
        return tables.count - 1
    }

    /// Closes table `table` (and any left open above it).
    package mutating func close(_ table: Int) {
        guard table >= 0, table < tables.count else { return }
        slots.removeSubrange(tables[table].start...)
        tables.removeSubrange(table...)
    }

    /// Adds the entry at `position` under `key` to table `table`; keys may repeat.
    package mutating func insert(_ key: UInt64, position: Int, into table: Int) {
        guard table >= 0, table < tables.count else { return }
        if table + 1 < tables.count { close(table + 1) }
        if (tables[table].count + 1) * 2 > tables[table].size { grow(table) }
        tables[table].count += 1
        let t = tables[table]
        let mask = t.mask
        var i = DictionaryEntryIndexes.home(key, t.shift)
        slots.withUnsafeMutableBufferPointer { all in
            guard let base = all.baseAddress, t.start + t.size <= all.count else { return }
            let slot = base + t.start
            while slot[i].position != 0 { i = (i + 1) & mask }
            slot[i] = Slot(key: key, position: Int32(truncatingIfNeeded: position + 1))
        }
    }

    /// An entry of table `table` stored under `key` for which `matches` is
    /// true (each entry under `key` is asked until one matches).
    @inline(__always)
    package func first(_ key: UInt64, in table: Int, where matches: (Int) throws -> Bool) rethrows -> Int? {
        guard table >= 0, table < tables.count else { return nil }
        let t = tables[table]
        let mask = t.mask
        var i = DictionaryEntryIndexes.home(key, t.shift)
        return try slots.withUnsafeBufferPointer { all -> Int? in
            guard let base = all.baseAddress, t.start + t.size <= all.count else { return nil }
            let slot = base + t.start
            while true {
                let position = Int(slot[i].position) - 1
                if position < 0 { return nil }
                if slot[i].key == key, try matches(position) { return position }
                i = (i + 1) & mask
            }
        }
    }

    /// How far the entries of table `table` lie from where their probes
    /// start, in slots, all together: about one per entry when the keys
    /// spread (for tests that count work).
    package func displacement(of table: Int) -> Int {
        guard table >= 0, table < tables.count else { return 0 }
        let t = tables[table]
        var total = 0
        for s in t.start..<(t.start + t.size) where slots[s].position != 0 {
            total += (s - t.start - DictionaryEntryIndexes.home(slots[s].key, t.shift)) & t.mask
        }
        return total
    }

    /// Where `key` starts its probe: the top bits of the key times 2^64 / φ,
    /// so node numbers in a row and hashes alike spread over the table.
    @inline(__always)
    private static func home(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Doubles the top table `table` in place.
    private mutating func grow(_ table: Int) {
        let old = tables[table]
        let oldEnd = old.start + old.size
        let newSize = old.size * 2
        let newShift = old.shift - 1
        // The new table is built after the old one, then moved down.
        slots.append(contentsOf: repeatElement(Slot(key: 0, position: 0), count: newSize))
        let mask = newSize - 1
        for s in old.start..<oldEnd where slots[s].position != 0 {
            let slot = slots[s]
            var i = DictionaryEntryIndexes.home(slot.key, newShift)
            while slots[oldEnd + i].position != 0 { i = (i + 1) & mask }
            slots[oldEnd + i] = slot
        }
        slots.removeSubrange(old.start..<oldEnd)
        tables[table].shift = newShift
        tables[table].mask = newSize - 1
    }
}
