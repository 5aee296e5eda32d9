#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a `PlistTree` bottom-up, as every reader produces nodes: scalars as
/// they are read, a container when it closes. Children wait on one stack and
/// move into the tree's link array when their container closes, so nothing is
/// allocated per node; dictionary keys are stored once per document.
package struct PlistTreeBuilder {
    private var nodes: [PlistTree.Node] = []
    private var links: [UInt32] = []
    private var bytes: [UInt8] = []
    /// Children of the open containers, innermost last.
    private var pending: [UInt32] = []
    /// Open-addressing table of the keys stored so far: node number + 1, 0 = empty.
    private var keyTable: [UInt32] = []
    private var keyCount = 0
    /// The process's ``TableHash/basis``, kept where the probe reads it.
    private let keyBasis = TableHash.basis
    /// Positions of the entries of open dictionaries of 32 entries or more, by key node.
    private var entryIndexes = DictionaryEntryIndexes()
    /// Set when more nodes or links were made than 32-bit numbers reach.
    private var overflowed = false

    /// A builder expecting about `expectedNodes` nodes, `expectedLinks`
    /// children of containers (as many as nodes unless said) and
    /// `expectedBytes` bytes of text and data. An upper bound costs no
    /// memory until it is used (the pages are not touched), and spares the
    /// copies of growing.
    package init(expectedNodes: Int = 0, expectedLinks: Int? = nil, expectedBytes: Int = 0) {
        nodes.reserveCapacity(max(expectedNodes, 16))
        links.reserveCapacity(max(expectedLinks ?? expectedNodes, 16))
        bytes.reserveCapacity(max(expectedBytes, 64))
        // Room for about a key per four nodes, up to 2,048 keys (16 KiB)
        // before the table grows: a small document's keys are not rehashed.
        var slots = 64
        while slots < 4096, slots < expectedNodes / 2 { slots *= 2 }
        keyTable = [UInt32](repeating: 0, count: slots)
    }

    /// Nodes made so far.
    package var nodeCount: Int { nodes.count }

    @inline(__always)
    private mutating func add(_ node: PlistTree.Node) -> Int {
        let n = nodes.count
        if n >= Int(UInt32.max) { overflowed = true }
        nodes.append(node)
        return n
    }

    // MARK: - Scalars

    /// A string node from UTF-8 that the caller has validated.
    @inline(__always)
    package mutating func string(utf8: UnsafeRawBufferPointer) -> Int {
        let start = bytes.count
        bytes.append(contentsOf: utf8)
        return add(PlistTree.Node(.string, count: utf8.count, payload: UInt64(start)))
    }

    /// A string node.
    package mutating func string(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { string(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// A string node whose UTF-8 `write` appends to `bytes` (at most `maxCount`
    /// bytes; it returns how many it wrote), for readers that transcode or unescape.
    package mutating func string(maxCount: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        arenaNode(.string, maxCount: maxCount, write)
    }

    /// A string or data node whose bytes `write` appends to the arena.
    private mutating func arenaNode(_ kind: PlistKind, maxCount: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: maxCount))
        let written = bytes.withUnsafeMutableBytes { write(UnsafeMutableRawBufferPointer(rebasing: $0[start..<(start + maxCount)])) }
        bytes.removeLast(maxCount - min(max(written, 0), maxCount))
        return add(PlistTree.Node(kind, count: bytes.count - start, payload: UInt64(start)))
    }

    /// A dictionary key: a string node stored once per document, so equal
    /// keys (byte for byte, as CoreFoundation compares them) are the same node.
    package mutating func key(utf8: UnsafeRawBufferPointer) -> Int {
        let found = lookUpKey(utf8: utf8)
        if let node = found.node { return node }
        let node = string(utf8: utf8)
        insertKey(node, at: found.slot)
        return node
    }

    /// The key node stored with the UTF-8 `utf8`, or the free slot of the
    /// key table where such a key goes.
    @inline(__always)
    private func lookUpKey(utf8: UnsafeRawBufferPointer) -> (node: Int?, slot: Int) {
        bytes.withUnsafeBytes { stored in Self.probe(utf8, table: keyTable, nodes: nodes, stored: stored, basis: keyBasis) }
    }

    /// The probe of the key table: pointers and array references only, so
    /// no copy of the builder is made on the way.
    @inline(__always)
    private static func probe(_ utf8: UnsafeRawBufferPointer, table: [UInt32], nodes: [PlistTree.Node],
                              stored: UnsafeRawBufferPointer, basis: UInt64) -> (node: Int?, slot: Int) {
        let mask = table.count - 1
        var slot = home(TableHash.text(utf8, basis: basis), mask: mask)
        while true {
            let entry = table[slot]
            if entry == 0 { return (nil, slot) }
            let candidate = nodes[Int(entry - 1)]
            if candidate.count == utf8.count {
                guard let a = stored.baseAddress, let b = utf8.baseAddress else { return (Int(entry - 1), slot) }
                if memcmp(a + candidate.start, b, utf8.count) == 0 { return (Int(entry - 1), slot) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Makes `node` the key stored in `slot`.
    @inline(__always)
    private mutating func insertKey(_ node: Int, at slot: Int) {
        keyTable[slot] = UInt32(truncatingIfNeeded: node + 1)
        keyCount += 1
        if keyCount * 2 > keyTable.count { growKeyTable() }
    }

    /// A dictionary key from a `String`.
    package mutating func key(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { key(utf8: UnsafeRawBufferPointer($0)) }
    }

    private mutating func growKeyTable() {
        let old = keyTable
        keyTable = [UInt32](repeating: 0, count: old.count * 2)
        let mask = keyTable.count - 1
        bytes.withUnsafeBytes { stored in
            for entry in old where entry != 0 {
                let n = nodes[Int(entry - 1)]
                let text = UnsafeRawBufferPointer(rebasing: stored[n.start..<(n.start + n.count)])
                var slot = Self.home(TableHash.text(text, basis: keyBasis), mask: mask)
                while keyTable[slot] != 0 { slot = (slot + 1) & mask }
                keyTable[slot] = entry
            }
        }
    }

    /// Where a key whose hash is `h` starts its probe.
    @inline(__always)
    private static func home(_ h: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: h ^ h >> 29) & mask
    }

    /// How far the stored keys lie from where their probes start, in slots,
    /// all together: about one per key when they spread over the table.
    package var keyDisplacement: Int {
        let mask = keyTable.count - 1
        return bytes.withUnsafeBytes { stored in
            var total = 0
            for (slot, entry) in keyTable.enumerated() where entry != 0 {
                let n = nodes[Int(entry - 1)]
                let text = UnsafeRawBufferPointer(rebasing: stored[n.start..<(n.start + n.count)])
                total += (slot - Self.home(TableHash.text(text, basis: keyBasis), mask: mask)) & mask
            }
            return total
        }
    }

    /// A data node.
    package mutating func data(_ content: UnsafeRawBufferPointer) -> Int {
        let start = bytes.count
        bytes.append(contentsOf: content)
        return add(PlistTree.Node(.data, count: content.count, payload: UInt64(start)))
    }

    /// A data node whose bytes `write` appends (at most `maxCount`; it returns how many it wrote).
    package mutating func data(maxCount: Int, _ write: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        arenaNode(.data, maxCount: maxCount, write)
    }

    @inline(__always)
    package mutating func integer(_ value: PlistInteger) -> Int {
        add(PlistTree.Node(.integer, flags: value.isUnsignedBeyondInt64 ? PlistTree.unsignedFlag : 0, payload: value.bitPattern))
    }

    @inline(__always)
    package mutating func real(_ value: PlistReal) -> Int {
        add(PlistTree.Node(.real, flags: value.width == .bits32 ? PlistTree.float32Flag : 0, payload: value.value.bitPattern))
    }

    @inline(__always)
    package mutating func bool(_ value: Bool) -> Int {
        add(PlistTree.Node(.bool, payload: value ? 1 : 0))
    }

    @inline(__always)
    package mutating func date(_ value: PlistDate) -> Int {
        add(PlistTree.Node(.date, payload: value.secondsSinceReferenceDate.bitPattern))
    }

    @inline(__always)
    package mutating func uid(_ value: UInt64) -> Int {
        add(PlistTree.Node(.uid, payload: value))
    }

    package mutating func null() -> Int {
        add(PlistTree.Node(.null, payload: 0))
    }

    // MARK: - Containers

    /// An open array: where its elements start on the pending stack.
    package struct ArrayMark {
        fileprivate let start: Int
    }

    /// An open dictionary: where its entries start on the pending stack, and
    /// an index of its keys once it is large enough for scans to cost more.
    package struct DictionaryMark {
        fileprivate let start: Int
        fileprivate var count = 0
        /// Its table in `entryIndexes`, or -1.
        fileprivate var table = -1
    }

    package func openArray() -> ArrayMark { ArrayMark(start: pending.count) }

    @inline(__always)
    package mutating func append(_ element: Int, to mark: ArrayMark) {
        pending.append(UInt32(truncatingIfNeeded: element))
    }

    package mutating func close(_ mark: ArrayMark) -> Int {
        let count = pending.count - mark.start
        let start = links.count
        links.append(contentsOf: pending[mark.start...])
        pending.removeLast(count)
        if links.count >= Int(UInt32.max) { overflowed = true }
        return add(PlistTree.Node(.array, count: count, payload: UInt64(start)))
    }

    package func openDictionary() -> DictionaryMark { DictionaryMark(start: pending.count) }

    /// Adds an entry whose key is a node from `key(utf8:)`. A key already in
    /// the dictionary keeps its place and takes the new value, as Apple's
    /// text readers keep the last value (`keepingFirstValue`: the first, as
    /// CoreFoundation's binary reader does); the result is then that entry's position.
    package mutating func add(key: Int, value: Int, to mark: inout DictionaryMark, keepingFirstValue: Bool = false) -> Int? {
        if mark.table >= 0 { return addIndexed(key: key, value: value, to: &mark, keepingFirstValue: keepingFirstValue) }
        let k = UInt32(truncatingIfNeeded: key)
        var p = mark.start
        let end = pending.count
        while p < end {
            if pending[p] == k {
                if !keepingFirstValue { pending[p + 1] = UInt32(truncatingIfNeeded: value) }
                return (p - mark.start) / 2
            }
            p += 2
        }
        pending.append(k)
        pending.append(UInt32(truncatingIfNeeded: value))
        mark.count += 1
        if mark.count == 32 { openIndex(&mark) }
        return nil
    }

    /// `add` to a dictionary with an index of its keys (kept out of line:
    /// most dictionaries are small).
    @inline(never)
    private mutating func addIndexed(key: Int, value: Int, to mark: inout DictionaryMark, keepingFirstValue: Bool) -> Int? {
        let k = UInt64(UInt32(truncatingIfNeeded: key))
        if let i = entryIndexes.first(k, in: mark.table, where: { _ in true }) {
            if !keepingFirstValue { pending[mark.start + 2 * i + 1] = UInt32(truncatingIfNeeded: value) }
            return i
        }
        pending.append(UInt32(truncatingIfNeeded: key))
        pending.append(UInt32(truncatingIfNeeded: value))
        mark.count += 1
        entryIndexes.insert(k, position: mark.count - 1, into: mark.table)
        return nil
    }

    /// Indexes the keys of a dictionary that has grown large enough.
    @inline(never)
    private mutating func openIndex(_ mark: inout DictionaryMark) {
        mark.table = entryIndexes.open(expecting: 64)
        for i in 0..<mark.count { entryIndexes.insert(UInt64(pending[mark.start + 2 * i]), position: i, into: mark.table) }
    }

    /// Ends a dictionary: its entries move from the pending ones to the
    /// links, and its node is added; the node's index is returned.
    package mutating func close(_ mark: DictionaryMark) -> Int {
        if mark.table >= 0 { closeIndex(mark.table) }
        let start = links.count
        links.append(contentsOf: pending[mark.start...])
        pending.removeLast(pending.count - mark.start)
        if links.count >= Int(UInt32.max) { overflowed = true }
        return add(PlistTree.Node(.dictionary, count: mark.count, payload: UInt64(start)))
    }

    /// Closes a dictionary's key index. Out of line on purpose: inlined, the
    /// index's code grows `close`, which every reader's loop inlines, and the
    /// binary reader's loop grows with it (more instructions on W1 in callgrind).
    @inline(never)
    private mutating func closeIndex(_ table: Int) {
        entryIndexes.close(table)
    }

    /// The tree whose top node is `root`.
    package mutating func finish(root: Int) throws -> PlistTree {
        guard !overflowed else {
            throw PlistError(.limitExceeded, "the property list has more than \(UInt32.max) nodes or children")
        }
        let tree = PlistTree(nodes: nodes, links: links, bytes: bytes, root: root)
        nodes = []
        links = []
        bytes = []
        return tree
    }
}

// MARK: - What text readers ask while building

extension PlistTreeBuilder {
    /// The text of a string node made so far (for messages).
    package func string(at node: Int) -> String {
        let n = nodes[node]
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[n.start..<(n.start + n.count)]), as: UTF8.self) }
    }

    /// The kind of a node made so far.
    package func kind(of node: Int) -> PlistKind { nodes[node].kind }

    /// The position of the entry whose key is `key` (a node from `key(utf8:)`)
    /// in an open dictionary, for readers that report a repeated key when they
    /// read it rather than when its value is done.
    package func position(ofKey key: Int, in mark: DictionaryMark) -> Int? {
        let k = UInt32(truncatingIfNeeded: key)
        if mark.table >= 0 { return entryIndexes.first(UInt64(k), in: mark.table, where: { _ in true }) }
        var p = mark.start
        while p < mark.start + 2 * mark.count {
            if pending[p] == k { return (p - mark.start) / 2 }
            p += 2
        }
        return nil
    }

    /// Closes a dictionary as CoreFoundation's XML reader does: a dictionary
    /// whose one entry is `CF$UID` with an integer value up to `UInt32.max`
    /// becomes a UID of that value.
    package mutating func closeDictionaryOrUID(_ mark: DictionaryMark) -> Int {
        if mark.count == 1 {
            let key = nodes[Int(pending[mark.start])]
            let value = nodes[Int(pending[mark.start + 1])]
            if value.kind == .integer, value.flags & PlistTree.unsignedFlag == 0, value.payload <= UInt64(UInt32.max),
               bytes[key.start..<(key.start + key.count)].elementsEqual("CF$UID".utf8) {
                pending.removeLast(2)
                return uid(value.payload)
            }
        }
        return close(mark)
    }
}

extension PlistTreeBuilder {
    /// A builder for a text reader of `inputSize` bytes that makes about a node
    /// per `bytesPerNode` bytes and keeps about `textShare` of them as text and
    /// data. Reserves at most 4M nodes and 64 MB up front: the size of an input
    /// (whitespace, say) promises nothing, and past that the arrays grow.
    package init(textOfSize inputSize: Int, bytesPerNode: Int, textShare: Double) {
        self.init(expectedNodes: min(inputSize / max(bytesPerNode, 1), 1 << 22),
                  expectedBytes: min(Int(Double(inputSize) * textShare), 1 << 26))
    }
}

extension PlistTreeBuilder {
    /// The key node for the text of the string node `node` (already made):
    /// the key stored earlier with the same UTF-8, or `node` itself, which
    /// becomes that key (for a binary plist's string object used both as a
    /// value and as a key).
    package mutating func key(sameTextAs node: Int) -> Int {
        let n = nodes[node]
        let (table, all) = (keyTable, nodes)
        let found = bytes.withUnsafeBytes { stored in
            Self.probe(UnsafeRawBufferPointer(rebasing: stored[n.start..<(n.start + n.count)]), table: table, nodes: all, stored: stored, basis: keyBasis)
        }
        if let existing = found.node { return existing }
        insertKey(node, at: found.slot)
        return node
    }
}
