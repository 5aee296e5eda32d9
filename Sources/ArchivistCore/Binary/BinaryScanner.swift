/// The decoding state for one binary property list: the checked object area
/// (whose offset table gives each object's offset), the node of each shared
/// object (so an object referenced from several containers is one node of
/// the tree), the cycle bitset and the tree being built.
struct BinaryScanner {
    private let area: BinaryObjectArea
    private let limits: Limits
    /// The slot in `cache` of each object more than one container refers to.
    /// Offsets are read from the file's own table (checked whole first), so
    /// nothing is stored per object but a bit.
    private let slots: SharedSlots
    /// The node of each shared object once it is read (-1 before), so each is
    /// read once (only shared objects have a slot, so a tree of distinct
    /// objects costs no cache entries).
    private var cache: [Int32]
    /// Number of nodes each cached object expands to, to bound the logical tree size.
    private var expandedSize: [Int]
    /// Bytes of string and data content each cached object holds, to bound
    /// what its reuses add (`Limits.maxSharedExpansion`).
    private var expandedBytes: [Int]
    /// Objects currently being decoded (for cycle detection), a bit each.
    private var onStack: [UInt64]
    /// Logical nodes produced so far.
    private var nodeCount = 0
    /// Bytes of string and data content decoded so far.
    private var byteCount = 0
    /// Bytes of string and data content added by reusing shared values.
    private var sharedBytes = 0
    /// UTF-8 of a dictionary key being transcoded before it is interned.
    private var keyScratch: [UInt8] = []
    private var builder: PlistTreeBuilder
    /// The part of a mapped input kept resident while the tree is built,
    /// and the object offset and table entry that move it (copied out of it
    /// so the test per object read is two comparisons of the scanner's own).
    private var window: BinaryPageWindow
    private var windowObjectMark = Int.max
    private var windowEntryMark = Int.max
    /// Duplicate keys and lone surrogates found.
    private(set) var diagnostics: [PlistDiagnostic] = []

    init(_ buffer: UnsafeRawBufferPointer, limits: Limits, pages: InputPages? = nil) throws {
        area = try BinaryObjectArea(buffer, limits: limits)
        self.limits = limits
        let n = area.trailer.numObjects
        // Every offset is checked first (the first bad entry is the error),
        // by the pass that counts references.
        let counts = BinaryReferenceCounts(area)
        if !counts.offsetsInArea { try area.checkOffsetTable() }
        onStack = [UInt64](repeating: 0, count: (n + 63) / 64)
        slots = SharedSlots(counts, objects: n)
        let shared = slots.count
        cache = [Int32](repeating: -1, count: shared)
        expandedSize = [Int](repeating: 0, count: shared)
        expandedBytes = [Int](repeating: 0, count: shared)
        // Upper bounds from the file: no more nodes than objects, children
        // than references the object area can hold, bytes than it has.
        builder = PlistTreeBuilder(expectedNodes: n, expectedLinks: area.end / area.trailer.objectRefSize, expectedBytes: area.end)
        window = BinaryPageWindow(area, pages: pages)
        window.start()
        windowObjectMark = window.objectMark
        windowEntryMark = window.entryMark
    }

    /// Reads the whole property list into a tree.
    mutating func readRoot() throws -> PlistTree {
        let root = try value(area.trailer.topObject, depth: 0)
        return try builder.finish(root: root)
    }

    private func fail(_ kind: PlistError.Kind, _ message: String, offset: Int, object: Int) -> PlistError {
        area.fail(kind, message, offset: offset, object: object)
    }

    // MARK: - Objects

    /// The node of object `index`: a shared object already read is reused
    /// (its logical size counted again), any other is decoded.
    private mutating func value(_ index: Int, depth: Int) throws -> Int {
        guard let slot = slots.slot(index) else { return try decode(index, at: try reading(index), depth: depth) }
        // A shared object read already is not read again.
        if cache[slot] >= 0 {
            try reuse(slot, object: index)
            return Int(cache[slot])
        }
        let at = try reading(index)
        let start = nodeCount, startBytes = byteCount
        let node = try decode(index, at: at, depth: depth)
        remember(node, slot: slot, nodes: nodeCount - start, bytes: byteCount - startBytes)
        return node
    }

    private mutating func remember(_ node: Int, slot: Int, nodes: Int, bytes: Int) {
        cache[slot] = Int32(truncatingIfNeeded: node)
        expandedSize[slot] = nodes
        expandedBytes[slot] = bytes
    }

    /// Counts a reuse of a shared object against the limits.
    private mutating func reuse(_ slot: Int, object index: Int) throws {
        try account(expandedSize[slot], object: index)
        sharedBytes += expandedBytes[slot]
        byteCount += expandedBytes[slot]
        if sharedBytes > limits.maxSharedExpansion {
            throw fail(.limitExceeded, "shared strings and data expand to more than \(limits.maxSharedExpansion) bytes beyond the input (each reuse counts)",
                       offset: offset(index), object: index)
        }
    }

    /// The offset of an object (already validated).
    @inline(__always)
    private func offset(_ index: Int) -> Int {
        area.checkedOffset(index)
    }

    /// The offset of an object about to be read, checked again (a page the
    /// window handed back is read from the file again, and a file changed
    /// meanwhile must not lead a read outside the buffer); the window moves
    /// when the read passes its marks.
    @inline(__always)
    private mutating func reading(_ index: Int) throws -> Int {
        let at = try area.offset(index)
        if at >= windowObjectMark || index >= windowEntryMark { moveWindow(index, at: at) }
        return at
    }

    @inline(never)
    private mutating func moveWindow(_ index: Int, at: Int) {
        window.reading(index, at: at)
        windowObjectMark = window.objectMark
        windowEntryMark = window.entryMark
    }

    @inline(__always)
    private mutating func account(_ nodes: Int, object: Int) throws {
        nodeCount += nodes
        if nodeCount > limits.maxObjects {
            throw fail(.limitExceeded, "the property list expands to more than \(limits.maxObjects) objects", offset: offset(object), object: object)
        }
    }

    private mutating func decode(_ index: Int, at: Int, depth: Int) throws -> Int {
        try account(1, object: index)
        let marker = area.buf[at]
        switch marker >> 4 {
        case 0x4:
            let payload = try area.payload(marker, at: at, object: index)
            byteCount += payload.count
            return builder.data(payload)
        case 0x5, 0x6:
            let payload = try area.payload(marker, at: at, object: index)
            byteCount += payload.count
            if marker >> 4 == 0x5, BinaryStrings.isASCII(payload) { return builder.string(utf8: payload) }
            var lone = false
            let node: Int
            if marker >> 4 == 0x5 {
                node = builder.string(maxCount: BinaryStrings.maxLatin1UTF8(payload.count)) { BinaryStrings.latin1(payload, into: $0) }
            } else {
                node = builder.string(maxCount: BinaryStrings.maxUTF16UTF8(payload.count)) { out in
                    let (n, l) = BinaryStrings.utf16BE(payload, into: out)
                    lone = l
                    return n
                }
            }
            if lone { noteLoneSurrogate(index, at: at) }
            return node
        case 0xA, 0xC:
            return try array(marker, at: at, object: index, depth: depth)
        case 0xD:
            return try dictionary(marker, at: at, object: index, depth: depth)
        default:
            switch try area.scalar(marker, at: at, object: index) {
            case .integer(let i): return builder.integer(i)
            case .real(let r): return builder.real(r)
            case .bool(let b): return builder.bool(b)
            case .date(let d): return builder.date(d)
            case .uid(let u): return builder.uid(u)
            case .null, .string, .data, .array, .dictionary: return builder.null()
            }
        }
    }

    private mutating func noteLoneSurrogate(_ index: Int, at: Int) {
        diagnostics.append(PlistDiagnostic(.loneSurrogate, "string holds a lone UTF-16 surrogate (read as U+FFFD)",
                                           at: .binary(offset: at, object: index)))
    }

    private mutating func enter(_ index: Int, depth: Int, at: Int) throws {
        guard depth < limits.maxDepth else {
            throw fail(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels", offset: at, object: index)
        }
        onStack[index >> 6] |= 1 << UInt64(index & 63)
    }

    private mutating func leave(_ index: Int) {
        onStack[index >> 6] &= ~(1 << UInt64(index & 63))
    }

    /// Refuses a child that is one of the containers being read. Inlined
    /// into the mutating callers: a call of a non-mutating method from them
    /// copied the whole scanner (288 bytes) per key and per value.
    @inline(__always)
    private func checkCycle(_ r: Int, parent: Int, at: Int) throws {
        if onStack[r >> 6] & (1 << UInt64(r & 63)) != 0 { throw cycle(through: r, parent: parent, at: at) }
    }

    @inline(never)
    private func cycle(through r: Int, parent: Int, at: Int) -> PlistError {
        fail(.cycle, "container contains itself through object \(r)", offset: at, object: parent)
    }

    private mutating func child(_ r: Int, parent: Int, depth: Int, at: Int) throws -> Int {
        try checkCycle(r, parent: parent, at: at)
        return try value(r, depth: depth + 1)
    }

    /// The node of dictionary key `i` (object `r`): a string stored once per
    /// document (see `PlistTreeBuilder.key(utf8:)`), so equal keys are one
    /// node. Any other object is read as a value first (its own errors come
    /// first), then refused.
    private mutating func key(_ r: Int, _ i: Int, parent: Int, depth: Int, at: Int) throws -> Int {
        try checkCycle(r, parent: parent, at: at)
        let slot = slots.slot(r)
        // A shared string read already is not read again (a node of string
        // kind is read from a string object only).
        if let slot, cache[slot] >= 0, builder.kind(of: Int(cache[slot])) == .string {
            try reuse(slot, object: r)
            return builder.key(sameTextAs: Int(cache[slot]))
        }
        let keyAt = try reading(r)
        let marker = area.buf[keyAt]
        guard marker >> 4 == 0x5 || marker >> 4 == 0x6 else {
            _ = try value(r, depth: depth + 1)
            throw fail(.corrupt, "dictionary key \(i) (object \(r)) is not a string", offset: keyAt, object: parent)
        }
        try account(1, object: r)
        let payload = try area.payload(marker, at: keyAt, object: r)
        byteCount += payload.count
        let node: Int
        if marker >> 4 == 0x5, BinaryStrings.isASCII(payload) {
            node = builder.key(utf8: payload)
        } else {
            let utf16 = marker >> 4 == 0x6
            let capacity = utf16 ? BinaryStrings.maxUTF16UTF8(payload.count) : BinaryStrings.maxLatin1UTF8(payload.count)
            if keyScratch.count < capacity { keyScratch = [UInt8](repeating: 0, count: capacity) }
            var lone = false
            node = keyScratch.withUnsafeMutableBytes { scratch -> Int in
                let out = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<capacity])
                let written: Int
                if utf16 {
                    (written, lone) = BinaryStrings.utf16BE(payload, into: out)
                } else {
                    written = BinaryStrings.latin1(payload, into: out)
                }
                return builder.key(utf8: UnsafeRawBufferPointer(rebasing: scratch[0..<written]))
            }
            if lone { noteLoneSurrogate(r, at: keyAt) }
        }
        if let slot { remember(node, slot: slot, nodes: 1, bytes: payload.count) }
        return node
    }

    private mutating func array(_ marker: UInt8, at: Int, object: Int, depth: Int) throws -> Int {
        let (n, p) = try area.container(marker, at: at, object: object)
        try enter(object, depth: depth, at: at)
        defer { leave(object) }
        let mark = builder.openArray()
        for i in 0..<n {
            builder.append(try child(try area.ref(p, i, object: object), parent: object, depth: depth, at: at), to: mark)
        }
        return builder.close(mark)
    }

    private mutating func dictionary(_ marker: UInt8, at: Int, object: Int, depth: Int) throws -> Int {
        let (n, p) = try area.container(marker, at: at, object: object)
        try enter(object, depth: depth, at: at)
        defer { leave(object) }
        var mark = builder.openDictionary()
        let valuesAt = p + n * area.trailer.objectRefSize
        for i in 0..<n {
            let k = try key(try area.ref(p, i, object: object), i, parent: object, depth: depth, at: at)
            let v = try child(try area.ref(valuesAt, i, object: object), parent: object, depth: depth, at: at)
            // CoreFoundation's binary reader keeps a repeated key's first value.
            if builder.add(key: k, value: v, to: &mark, keepingFirstValue: true) != nil {
                diagnostics.append(PlistDiagnostic(.duplicateKey, "duplicate key \"\(builder.string(at: k))\" in dictionary (the first value is kept)",
                                                   at: .binary(offset: at, object: object)))
            }
        }
        return builder.close(mark)
    }
}

/// The slot of each shared object of a binary property list: its rank among
/// the shared objects, from a bit per object and the count before each 64.
struct SharedSlots {
    private var bits: [UInt64]
    private var before: [Int]
    /// The number of shared objects.
    private(set) var count = 0

    init(_ counts: BinaryReferenceCounts, objects n: Int) {
        bits = [UInt64](repeating: 0, count: (n + 63) / 64)
        before = [Int](repeating: 0, count: bits.count)
        for i in 0..<n where counts.isShared(i) { bits[i >> 6] |= 1 << UInt64(i & 63) }
        for w in bits.indices {
            before[w] = count
            count += bits[w].nonzeroBitCount
        }
    }

    /// The slot of object `i`, nil when it is not shared.
    @inline(__always)
    func slot(_ i: Int) -> Int? {
        let word = bits[i >> 6], bit: UInt64 = 1 << UInt64(i & 63)
        guard word & bit != 0 else { return nil }
        return before[i >> 6] + (word & (bit &- 1)).nonzeroBitCount
    }
}
