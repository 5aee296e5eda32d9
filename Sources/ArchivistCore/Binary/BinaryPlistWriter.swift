#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes binary property lists (`bplist00`) as CoreFoundation does: objects
/// numbered in pre-order (a dictionary, then its keys, then its values), equal
/// scalars written once, the smallest reference and offset sizes that fit, and
/// the same bytes for the same tree every time.
package enum BinaryPlistWriter {
    /// Writes a tree as a binary property list.
    package static func write(_ tree: PlistTree, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        let out = ByteSink(capacity: 64)
        try tree.withView { try write(&$0, options: options, into: out) }
        return out.bytes()
    }

    /// Appends the binary property list of `source` to `out`. The source is
    /// flattened into numbered objects first rather than walked in output
    /// order, since equal scalars are written once and referenced by number;
    /// the objects are then written in a second pass that reads each scalar
    /// from the source again (so `source` is visited twice).
    package static func write<S: PlistNodes>(_ source: inout S, options: WriteOptions = WriteOptions(), into out: ByteSink) throws {
        // Size the tables once: growing a hash table rehashes every key again.
        let scalars: Int, containers: Int, refs: Int, directUIDs: Int
        if let bounds = source.sizeBounds {
            (scalars, containers, refs, directUIDs) = (bounds.scalars, bounds.containers, bounds.references, bounds.directUIDs)
        } else {
            (scalars, containers, refs) = try BinaryFlattener.count(source.rootNode, of: &source, depth: 0)
            directUIDs = 0
        }
        var flattener = BinaryFlattener(unique: ScalarTable(room: scalars))
        flattener.unique.directUIDs = max(0, directUIDs)
        flattener.objects.reserveCapacity(scalars + directUIDs + containers)
        flattener.refs.reserveCapacity(refs + containers)
        _ = try flattener.flatten(source.rootNode, of: &source, depth: 0)
        // Writing needs no uniquing: the table goes before the offset table is made.
        flattener.unique.release()
        try flattener.serialize(&source, into: out)
    }
}

/// One object to write, in index order, packed in 4 bytes (a large tree has
/// millions): a scalar's node in the source (top bit clear), or the
/// position in the flattener's reference pool of a container's header word
/// (top bit set). The header word holds the container's count and whether
/// it is a dictionary; its references follow it: `count` (arrays) or
/// `2 * count` (dictionaries: keys, then values).
/// Once an object is written, its slot holds its offset instead, so the
/// table becomes the offset table with no second one beside it.
private enum FlatObject {
    enum Shape {
        case scalar(node: Int)
        case array(start: Int, count: Int)
        case dictionary(start: Int, count: Int)
    }

    private static let containerBit: UInt32 = 1 << 31
    private static let dictionaryBit: UInt32 = 1 << 30

    /// Nodes and pool positions fit in 31 bits, counts in 30 (checked by the flattener).
    static let maxNode = Int(Int32.max)
    static let maxCount = Int(dictionaryBit) - 1
    static let maxStart = Int(Int32.max)

    static func scalar(node: Int) -> UInt32 { UInt32(truncatingIfNeeded: node) & ~containerBit }
    static func container(start: Int) -> UInt32 { containerBit | UInt32(truncatingIfNeeded: start) }
    static func header(count: Int, dictionary: Bool) -> UInt32 {
        (dictionary ? dictionaryBit : 0) | UInt32(truncatingIfNeeded: count) & UInt32(maxCount)
    }

    /// What `object` is, reading a container's header word from `refs`.
    @inline(__always)
    static func shape(_ object: UInt32, refs: UnsafeBufferPointer<UInt32>) -> Shape {
        guard object & containerBit != 0 else { return .scalar(node: Int(object)) }
        let at = Int(object & ~containerBit)
        let word = refs[at], count = Int(word & UInt32(maxCount))
        return word & dictionaryBit != 0 ? .dictionary(start: at + 1, count: count) : .array(start: at + 1, count: count)
    }

    /// The node of a scalar, nil for a container.
    @inline(__always)
    static func node(_ object: UInt32) -> Int? {
        object & containerBit == 0 ? Int(object) : nil
    }
}

private struct BinaryFlattener {
    /// Each object in index order (`FlatObject`), then each one's offset once written.
    var objects: [UInt32] = []
    /// Every container's header word and references, one after another.
    var refs: [UInt32] = []
    var unique: ScalarTable
    /// Dictionary entries, each key once, in stored order.
    var order = EntryOrder(sorted: false)
    var entries: [Int] = []
    static let maxDepth = 512

    /// Scalars (an upper bound on the unique ones), containers and references in a tree
    /// (stopping below the writable depth, which `flatten` reports).
    static func count<S: PlistNodes>(_ node: Int, of source: inout S, depth: Int) throws -> (Int, Int, Int) {
        guard depth <= maxDepth else { return (0, 0, 0) }
        switch try source.item(node) {
        case .array(let count):
            var total = (0, 1, count)
            try source.enter(node, depth: depth)
            for i in 0..<count {
                let c = try BinaryFlattener.count(try source.element(i, of: node), of: &source, depth: depth + 1)
                total = (total.0 + c.0, total.1 + c.1, total.2 + c.2)
            }
            source.leave(node)
            return total
        case .dictionary(let count):
            var total = (count, 1, 2 * count)
            try source.enter(node, depth: depth)
            for i in 0..<count {
                let c = try BinaryFlattener.count(try source.value(i, of: node), of: &source, depth: depth + 1)
                total = (total.0 + c.0, total.1 + c.1, total.2 + c.2)
            }
            source.leave(node)
            return total
        case .string, .integer, .real, .date, .data, .uid, .bool, .null:
            return (1, 0, 0)
        }
    }

    mutating func flatten<S: PlistNodes>(_ node: Int, of source: inout S, depth: Int) throws -> Int {
        guard depth <= Self.maxDepth else {
            throw PlistError(.limitExceeded, "nesting deeper than \(Self.maxDepth) levels cannot be written")
        }
        let item = try source.item(node)
        switch item {
        case .array(let count):
            let index = objects.count
            let start = refs.count + 1
            try Self.checkSize(start: start, count: count, references: count)
            objects.append(FlatObject.container(start: start - 1))
            refs.append(FlatObject.header(count: count, dictionary: false))
            refs.append(contentsOf: repeatElement(0, count: count))
            try source.enter(node, depth: depth)
            for i in 0..<count { refs[start + i] = UInt32(truncatingIfNeeded: try flatten(try source.element(i, of: node), of: &source, depth: depth + 1)) }
            source.leave(node)
            return index
        case .dictionary(let stored):
            let index = objects.count
            let first = entries.count
            let resolved = try order.resolve(node, count: stored, of: &source, into: &entries)
            let n = resolved ?? stored
            let start = refs.count + 1
            try Self.checkSize(start: start, count: n, references: 2 * n)
            objects.append(FlatObject.container(start: start - 1))
            refs.append(FlatObject.header(count: n, dictionary: true))
            refs.append(contentsOf: repeatElement(0, count: 2 * n))
            try source.enter(node, depth: depth)
            for i in 0..<n {
                let k = resolved == nil ? i : entries[first + 2 * i]
                refs[start + i] = UInt32(truncatingIfNeeded: try flatten(try source.key(k, of: node), of: &source, depth: depth + 1))
            }
            for i in 0..<n {
                let v = resolved == nil ? i : entries[first + 2 * i + 1]
                refs[start + n + i] = UInt32(truncatingIfNeeded: try flatten(try source.value(v, of: node), of: &source, depth: depth + 1))
            }
            source.leave(node)
            entries.removeSubrange(first...)
            return index
        case .uid(let u) where u > UInt64(UInt32.max):
            throw PlistError(.notRepresentable, "UID \(u) is above 4294967295 (2^32-1), the largest CoreFoundation reads")
        case .uid(let u) where u < UInt64(unique.directUIDs):
            let candidate = objects.count
            let index = unique.index(ofUID: Int(u), candidate: candidate)
            if index == candidate { objects.append(try Self.scalar(node)) }
            return index
        case .string, .integer, .real, .date, .data, .uid, .bool, .null:
            // One probe: a new scalar takes the next index.
            let candidate = objects.count
            let index = try unique.index(of: item, node: node, candidate: candidate, objects: objects, source: &source)
            if index == candidate { objects.append(try Self.scalar(node)) }
            return index
        }
    }

    /// The table entry of a scalar read from `node`.
    @inline(__always)
    static func scalar(_ node: Int) throws -> UInt32 {
        guard node >= 0, node <= FlatObject.maxNode else {
            throw PlistError(.limitExceeded, "the property list has too many nodes to be written as one binary property list")
        }
        return FlatObject.scalar(node: node)
    }

    /// Refuses a container the packed tables cannot number (beyond what a
    /// binary property list of 4 GiB could hold anyway).
    static func checkSize(start: Int, count: Int, references: Int) throws {
        guard count <= FlatObject.maxCount, start + references <= FlatObject.maxStart else {
            throw PlistError(.limitExceeded, "the property list has too many objects or references to be written as one binary property list")
        }
    }

    /// Appends the objects, the offset table and the trailer to `out`. The
    /// object table is taken out of `objects` (left empty) and each entry
    /// becomes its object's offset as the object is written.
    mutating func serialize<S: PlistNodes>(_ source: inout S, into out: ByteSink) throws {
        let n = objects.count
        var scratch: [UInt8] = []
        let refSize = BinaryFlattener.bytesNeeded(UInt64(n))
        // Offsets count from the start of this property list.
        let start = out.byteCount
        out.append("bplist00")
        // Taken out while it is rewritten in place, so that it is not copied.
        var table = objects
        objects = []
        try table.withUnsafeMutableBufferPointer { table in
            try refs.withUnsafeBufferPointer { refs in
                for i in 0..<n {
                    let offset = out.byteCount - start
                    guard offset <= Int(UInt32.max) else {
                        throw PlistError(.limitExceeded, "binary property lists whose objects take more than 4 GiB are not supported")
                    }
                    let object = table[i]
                    table[i] = UInt32(truncatingIfNeeded: offset)
                    switch FlatObject.shape(object, refs: refs) {
                    case .scalar(let node): BinaryFlattener.writeScalar(try source.item(node), scratch: &scratch, into: out)
                    case .array(let start, let count):
                        BinaryFlattener.writeHeader(0xA0, count: count, into: out)
                        BinaryFlattener.appendRefs(refs, start, count, size: refSize, into: out)
                    case .dictionary(let start, let count):
                        BinaryFlattener.writeHeader(0xD0, count: count, into: out)
                        BinaryFlattener.appendRefs(refs, start, 2 * count, size: refSize, into: out)
                    }
                }
            }
        }
        let tableOffset = out.byteCount - start
        let offsetSize = BinaryFlattener.bytesNeeded(UInt64(tableOffset))
        table.withUnsafeBufferPointer { BinaryFlattener.appendRefs($0, 0, n, size: offsetSize, into: out) }
        out.append([0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        BinaryFlattener.appendBE(UInt64(n), size: 8, into: out)
        BinaryFlattener.appendBE(0, size: 8, into: out)
        BinaryFlattener.appendBE(UInt64(tableOffset), size: 8, into: out)
    }

    /// `count` big-endian integers of `size` bytes from `values[start...]`.
    /// Written 512 at a time, so that a streaming sink never needs more room
    /// at once than its buffer (an offset table has an entry per object).
    static func appendRefs(_ values: UnsafeBufferPointer<UInt32>, _ start: Int, _ count: Int, size: Int, into out: ByteSink) {
        var from = start
        let end = start + count
        while from < end {
            let to = min(from + 512, end)
            appendRefChunk(values, from, to, size: size, into: out)
            from = to
        }
    }

    private static func appendRefChunk(_ values: UnsafeBufferPointer<UInt32>, _ start: Int, _ end: Int, size: Int, into out: ByteSink) {
        out.appendUninitialized(max: (end - start) * size) { p in
            var k = 0
            for i in start..<end {
                let v = UInt64(truncatingIfNeeded: values[i])
                switch size {
                case 1: p[k] = UInt8(truncatingIfNeeded: v)
                case 2: UnsafeMutableRawPointer(p + k).storeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian, as: UInt16.self)
                case 4: UnsafeMutableRawPointer(p + k).storeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, as: UInt32.self)
                default: UnsafeMutableRawPointer(p + k).storeBytes(of: v.bigEndian, as: UInt64.self)
                }
                k += size
            }
            return k
        }
    }

    static func bytesNeeded(_ v: UInt64) -> Int {
        v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    @inline(__always)
    static func appendBE(_ v: UInt64, size: Int, into out: ByteSink) {
        out.appendUninitialized(max: size) { p in
            var shift = (size - 1) * 8
            var k = 0
            while shift >= 0 {
                p[k] = UInt8(truncatingIfNeeded: v >> UInt64(shift))
                shift -= 8
                k += 1
            }
            return size
        }
    }

    static func writeHeader(_ marker: UInt8, count: Int, into out: ByteSink) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            writeUnsigned(UInt64(count), into: out)
        }
    }

    static func writeUnsigned(_ v: UInt64, into out: ByteSink) {
        switch v {
        case 0...0xFF: out.append(0x10); appendBE(v, size: 1, into: out)
        case 0x100...0xFFFF: out.append(0x11); appendBE(v, size: 2, into: out)
        case 0x1_0000...0xFFFF_FFFF: out.append(0x12); appendBE(v, size: 4, into: out)
        default: out.append(0x13); appendBE(v, size: 8, into: out)
        }
    }

    static func writeScalar(_ item: PlistItem, scratch: inout [UInt8], into out: ByteSink) {
        switch item {
        case .null: out.append(0x00)
        case .bool(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let i):
            if i.isUnsignedBeyondInt64 {
                out.append(0x14)
                appendBE(0, size: 8, into: out)
                appendBE(i.bitPattern, size: 8, into: out)
            } else if i.isNegative || i.bitPattern > UInt64(Int64.max) {
                out.append(0x13)
                appendBE(i.bitPattern, size: 8, into: out)
            } else {
                writeUnsigned(i.bitPattern, into: out)
            }
        case .real(let r):
            switch r.width {
            case .bits32:
                out.append(0x22)
                appendBE(UInt64(Float(r.value).bitPattern), size: 4, into: out)
            case .bits64:
                out.append(0x23)
                appendBE(r.value.bitPattern, size: 8, into: out)
            }
        case .date(let d):
            out.append(0x33)
            appendBE(d.secondsSinceReferenceDate.bitPattern, size: 8, into: out)
        case .data(let d):
            writeHeader(0x40, count: d.count, into: out)
            out.append(d)
        case .string(let text):
            text.withUTF8(scratch: &scratch) { bytes in
                var ascii = true
                for b in bytes where b >= 0x80 {
                    ascii = false
                    break
                }
                if ascii {
                    writeHeader(0x50, count: bytes.count, into: out)
                    out.append(bytes)
                    return
                }
                let utf8 = TextBytes(UnsafeRawBufferPointer(bytes), .utf8)
                var units = 0
                var counting = UTF16Units(utf8)
                while counting.next() != nil { units += 1 }
                writeHeader(0x60, count: units, into: out)
                out.appendUninitialized(max: 2 * units) { p in
                    var k = 0
                    var writing = UTF16Units(utf8)
                    while let u = writing.next() {
                        p[k] = UInt8(truncatingIfNeeded: u >> 8)
                        p[k + 1] = UInt8(truncatingIfNeeded: u)
                        k += 2
                    }
                    return k
                }
            }
        case .uid(let u):
            let size = bytesNeeded(u)
            out.append(0x80 | UInt8(size - 1))
            appendBE(u, size: size, into: out)
        case .array, .dictionary:
            break // containers are written by serialize()
        }
    }
}

/// The binary writer's uniquing of scalars: open addressing over object
/// indexes, keyed by a hash of what would be written. Two scalars are equal
/// only when their bytes would be: strings by their exact UTF-8 (canonically
/// equivalent strings stay distinct), reals by bit pattern and width, integers
/// by value and signedness.
private struct ScalarTable {
    /// Object index + 1 per slot; 0 is empty.
    private var slots: [Int32] = []
    /// The low 32 bits of each slot's hash (its position, and a quick check).
    private var hashes: [UInt32] = []
    private var mask = 0
    private var used = 0
    /// Text transcoded to UTF-8 for hashing.
    private var scratch: [UInt8] = []
    /// The process's ``TableHash/basis``: no file's scalars can be made to
    /// share a slot.
    private let basis = TableHash.basis
    /// UIDs below this value are numbered in `uidSlots`, by value.
    var directUIDs = 0
    /// Object index + 1 of each UID below `directUIDs` met, 0 for none;
    /// made at the first such UID.
    private var uidSlots: [Int32] = []

    /// A table sized once for `count` scalars (a small file's is small).
    init(room count: Int) {
        reserve(count)
    }

    /// Hands the table's memory back; the table is not used again.
    mutating func release() {
        slots = []
        hashes = []
        uidSlots = []
    }

    /// Room for `count` scalars without growing.
    mutating func reserve(_ count: Int) {
        var capacity = 16
        while capacity * 3 < 4 * count { capacity *= 2 }
        guard capacity > slots.count else { return }
        rehash(capacity)
    }

    private mutating func rehash(_ capacity: Int) {
        let oldSlots = slots, oldHashes = hashes
        slots = [Int32](repeating: 0, count: capacity)
        hashes = [UInt32](repeating: 0, count: capacity)
        mask = capacity - 1
        for (k, entry) in oldSlots.enumerated() where entry != 0 {
            var i = Int(truncatingIfNeeded: oldHashes[k]) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = entry
            hashes[i] = oldHashes[k]
        }
    }

    /// The index of an equal scalar already among `objects`, or `candidate`
    /// (recorded for `item`, read from `node`, which the caller appends at that index).
    mutating func index<S: PlistNodes>(of item: PlistItem, node: Int, candidate: Int, objects: [UInt32], source: inout S) throws -> Int {
        let h = ScalarTable.hash(item, basis: basis, scratch: &scratch)
        let tag = UInt32(truncatingIfNeeded: h)
        var i = Int(tag) & mask
        while true {
            let entry = slots[i]
            if entry == 0 { break }
            if hashes[i] == tag, let other = FlatObject.node(objects[Int(entry) - 1]),
               try other == node || ScalarTable.same(source.item(other), item) {
                return Int(entry) - 1
            }
            i = (i + 1) & mask
        }
        slots[i] = Int32(truncatingIfNeeded: candidate + 1)
        hashes[i] = tag
        used += 1
        // At most three quarters full (linear probing stays short).
        if used * 4 > slots.count * 3 { rehash(slots.count * 2) }
        return candidate
    }

    /// The index of the UID `value` (below `directUIDs`) among the objects,
    /// or `candidate`, which the caller appends at that index.
    mutating func index(ofUID value: Int, candidate: Int) -> Int {
        if uidSlots.isEmpty { uidSlots = [Int32](repeating: 0, count: directUIDs) }
        let entry = uidSlots[value]
        if entry != 0 { return Int(entry) - 1 }
        uidSlots[value] = Int32(truncatingIfNeeded: candidate + 1)
        return candidate
    }

    @inline(__always)
    private static func mix(_ x: UInt64) -> UInt64 {
        var z = x &* 0x9E37_79B9_7F4A_7C15
        z ^= z >> 32
        z = z &* 0xD6E8_FEB8_6659_FD93
        return z ^ (z >> 32)
    }

    @inline(__always)
    private static func bytesHash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        mix(TableHash.text(bytes, basis: seed ^ UInt64(bytes.count)))
    }

    /// A hash of what `item` is written as: text by its UTF-8, whatever its
    /// encoding; every kind mixed with the process's `basis`.
    private static func hash(_ item: PlistItem, basis: UInt64, scratch: inout [UInt8]) -> UInt64 {
        switch item {
        case .string(let text): return text.withUTF8(scratch: &scratch) { bytesHash($0, seed: basis ^ 1) }
        case .integer(let i): return mix(i.bitPattern ^ basis ^ (i.isUnsignedBeyondInt64 ? 0x2_0000 : 0x2))
        case .real(let r):
            return r.width == .bits32 ? mix(UInt64(Float(r.value).bitPattern) ^ basis ^ 0x3_0000_0000_0000)
                                      : mix(r.value.bitPattern ^ basis) ^ 0x4
        case .date(let d): return mix(d.secondsSinceReferenceDate.bitPattern ^ basis) ^ 0x5
        case .data(let d): return bytesHash(d.assumingMemoryBound(to: UInt8.self), seed: basis ^ 6)
        case .uid(let u): return mix(u ^ basis) ^ 0x7
        case .bool(let b): return b ? 0x81 : 0x80
        case .null: return 0x90
        case .array, .dictionary: return 0
        }
    }

    private static func same(_ a: PlistItem, _ b: PlistItem) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return TextBytes.sameText(x, y)
        case (.integer(let x), .integer(let y)):
            return x.bitPattern == y.bitPattern && x.isUnsignedBeyondInt64 == y.isUnsignedBeyondInt64
        case (.real(let x), .real(let y)):
            guard x.width == y.width else { return false }
            return x.width == .bits32 ? Float(x.value).bitPattern == Float(y.value).bitPattern : x.value.bitPattern == y.value.bitPattern
        case (.date(let x), .date(let y)):
            return x.secondsSinceReferenceDate.bitPattern == y.secondsSinceReferenceDate.bitPattern
        case (.data(let x), .data(let y)):
            guard x.count == y.count else { return false }
            guard let p = x.baseAddress, let q = y.baseAddress else { return true }
            return memcmp(p, q, x.count) == 0
        case (.uid(let x), .uid(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }
}
