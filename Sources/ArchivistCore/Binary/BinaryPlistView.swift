#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `bplist00` read in place (over a memory map, say): nothing is decoded
/// ahead, each object is checked when it is visited, with the errors, limits
/// and diagnostics of `BinaryPlistReader`. Node numbers are object numbers.
///
/// Memory: five bits per object (reference counts, visited, open and
/// checked-key bitsets), the logical size of each shared container once visited, and the
/// keys of the open dictionaries.
///
/// Limits count visits as the reader counts them: the `item(_:)` of a node
/// just handed out by `element`, `key` or `value` (a node read again without
/// one is not counted), a dictionary's keys when first asked for in order.
/// A container visited again (a shared one) counts its whole logical size at
/// once, as the reader does, and nothing below it counts again. A walk in
/// document order (`check()`) meets every error at the place the
/// reader does; another order finds the same verdict.
///
/// A dictionary that repeats a key lists every entry here; the repeat is
/// reported in `diagnostics` once the entry's value was visited (the reader's
/// tree keeps one entry, with the first value, as CoreFoundation keeps it).
package struct BinaryPlistView: PlistNodes {
    private let area: BinaryObjectArea
    private let limits: Limits
    private let counts: BinaryReferenceCounts
    /// Objects visited (bit per object).
    private var visited: [UInt64]
    /// Keys whose text was checked for lone surrogates by `key(_:of:)` (bit
    /// per object): writers read a key's text without `item`.
    private var keysChecked: [UInt64]
    /// Containers open between `enter` and `leave` (bit per object).
    private var open: [UInt64]
    /// Logical nodes and content bytes of each shared container once visited.
    private var expansions: [Int32: Expansion] = [:]
    /// The open containers, innermost last.
    private var frames: [Frame] = []
    /// True inside a shared container visited again (the innermost frame's `replay`).
    private var replaying = false
    /// Keys of the open dictionaries, for duplicates: UTF-8 hash and object.
    private var keyStack: [(hash: UInt64, object: Int32)] = []
    /// Positions on `keyStack` by hash, for the open dictionaries of
    /// `indexedCount` entries or more.
    private var keyIndexes = DictionaryEntryIndexes()
    /// The node the next `item(_:)` call visits (counted), or -1.
    private var pending: Int
    /// The dictionary key index of `pending` when it is a key, or -1.
    private var pendingKey = -1
    /// A shared container just visited again, whose walk counts nothing.
    private var replayNext = -1
    /// A shared container just visited first: its counts when it started.
    private var startOfNext: (node: Int, expansion: Expansion)?
    private var nodeCount = 0
    private var byteCount = 0
    private var sharedBytes = 0
    /// UTF-8 of a key being hashed.
    private var scratch: [UInt8] = []
    /// The process's ``TableHash/basis``.
    private let keyBasis = TableHash.basis
    /// Duplicate keys and lone surrogates found so far.
    package private(set) var diagnostics: [PlistDiagnostic] = []
    package let rootNode: Int

    private struct Expansion {
        var nodes: Int
        var bytes: Int
    }

    private struct Frame {
        var node: Int
        var depth: Int
        /// The container's count and where its references start.
        var count: Int
        var refs: Int
        var replay: Bool
        var start: Expansion?
        /// Where this dictionary's keys start on `keyStack`.
        var keyBase: Int
        /// The next key index to check, and the repeated key of the entry
        /// before it, reported once its value was visited.
        var keyCursor = 0
        var duplicate: String?
        /// The table of `keyIndexes` of a dictionary of many keys, or -1.
        var keyTable = -1
    }

    /// Checks the header, the trailer and the offset table.
    package init(_ buffer: UnsafeRawBufferPointer, limits: Limits = .default) throws {
        area = try BinaryObjectArea(buffer, limits: limits)
        self.limits = limits
        // The pass that counts references reads every offset: the table is
        // checked entry by entry only when one lies outside the object area.
        counts = BinaryReferenceCounts(area)
        if !counts.offsetsInArea { try area.checkOffsetTable() }
        let words = (area.trailer.numObjects + 63) / 64
        visited = [UInt64](repeating: 0, count: words)
        keysChecked = [UInt64](repeating: 0, count: words)
        open = [UInt64](repeating: 0, count: words)
        rootNode = area.trailer.topObject
        pending = rootNode
    }

    /// Walks the whole property list in document order, a dictionary's key
    /// before its value, as a writer does without writing: the check `lint`
    /// does. A shared container met again is counted, not walked again.
    package mutating func check() throws {
        try walk(rootNode, depth: 0)
    }

    /// `check()` from `node`, a container `depth` containers deep.
    private mutating func walk(_ node: Int, depth: Int) throws {
        let item = try self.item(node)
        if replayNext == node {
            replayNext = -1
            return
        }
        switch item {
        case .array(let count):
            try enter(node, depth: depth)
            for i in 0..<count { try walk(try element(i, of: node), depth: depth + 1) }
            leave(node)
        case .dictionary(let count):
            try enter(node, depth: depth)
            for i in 0..<count {
                _ = try self.item(try key(i, of: node))
                try walk(try value(i, of: node), depth: depth + 1)
            }
            leave(node)
        case .string, .data, .integer, .real, .bool, .date, .uid, .null:
            return
        }
    }

    /// True when `buffer` is a binary property list whose top object is a
    /// dictionary with a `$archiver`, `$objects` or `$top` key (see
    /// `KeyedArchive.looksLikeArchive`): reads the trailer and only the top
    /// dictionary's keys, before any table of a view is made (false when
    /// they do not read).
    package static func looksLikeArchive(_ buffer: UnsafeRawBufferPointer, limits: Limits = .default) -> Bool {
        guard let area = try? BinaryObjectArea(buffer, limits: limits) else { return false }
        let rootNode = area.trailer.topObject
        guard let at = try? area.offset(rootNode), area.buf[at] >> 4 == 0xD,
              let (n, p) = try? area.container(area.buf[at], at: at, object: rootNode) else { return false }
        for i in 0..<n {
            guard let r = try? area.ref(p, i, object: rootNode), let o = try? area.offset(r) else { continue }
            let marker = area.buf[o]
            switch marker {
            case 0x54, 0x58, 0x59:
                // ASCII of a top key's length: compared in place (past the object area: no key).
                let count = Int(marker & 0x0F)
                guard o + 1 + count <= area.end else { continue }
                guard area.buf[o + 1] == UInt8(ascii: "$"), let text = area.buf.baseAddress.map({ $0 + o + 1 }) else { continue }
                if topKeys.contains(where: { $0.utf8CodeUnitCount == count && memcmp(text, $0.utf8Start, count) == 0 }) { return true }
            case 0x5F, 0x64, 0x68, 0x69, 0x6F:
                // Its length after the marker, or UTF-16: decoded.
                guard case .string(let text)? = try? describe(r, in: area) else { continue }
                if topKeys.contains(where: { BinaryPlistView.equal(text, $0) }) { return true }
            default:
                continue
            }
        }
        return false
    }

    /// The envelope keys that make a dictionary a keyed archive's.
    private static let topKeys: [StaticString] = ["$archiver", "$objects", "$top"]

    private static func equal(_ text: TextBytes, _ ascii: StaticString) -> Bool {
        ascii.withUTF8Buffer { key in
            switch text.encoding {
            case .utf8, .latin1: return text.bytes.elementsEqual(key)
            case .utf16BE:
                guard text.bytes.count == 2 * key.count else { return false }
                return key.enumerated().allSatisfy { text.bytes[2 * $0.offset] == 0 && text.bytes[2 * $0.offset + 1] == $0.element }
            }
        }
    }

    // MARK: - Bits

    @inline(__always)
    private static func test(_ bits: [UInt64], _ i: Int) -> Bool { bits[i >> 6] & (1 << UInt64(i & 63)) != 0 }

    @inline(__always)
    private static func set(_ bits: inout [UInt64], _ i: Int, _ on: Bool) {
        if on { bits[i >> 6] |= 1 << UInt64(i & 63) } else { bits[i >> 6] &= ~(1 << UInt64(i & 63)) }
    }


    // MARK: - PlistNodes

    package mutating func item(_ node: Int) throws -> PlistItem {
        guard node == pending else { return try describe(node) }
        pending = -1
        let keyIndex = pendingKey
        pendingKey = -1
        if replaying { return try describe(node) }
        let at = try area.offset(node)
        let kind = area.buf[at] >> 4
        if keyIndex >= 0, kind != 0x5, kind != 0x6 {
            // Read as a value first (its own errors come first), then refused.
            let parent = frames.isEmpty ? rootNode : frames[frames.count - 1].node
            pending = node
            try walk(node, depth: (frames.isEmpty ? 0 : frames[frames.count - 1].depth) + 1)
            throw area.fail(.corrupt, "dictionary key \(keyIndex) (object \(node)) is not a string", offset: at, object: parent)
        }
        let again = BinaryPlistView.test(visited, node)
        switch kind {
        case 0x4, 0x5, 0x6:
            if again {
                let payload = try area.payload(area.buf[at], at: at, object: node)
                try reuse(Expansion(nodes: 1, bytes: payload.count), object: node, at: at)
                let text: PlistItem = kind == 0x4 ? .data(payload) : .string(TextBytes(payload, kind == 0x5 ? .latin1 : .utf16BE))
                if keyIndex >= 0 { try noteKey(node, text) }
                return text
            }
            try account(1, object: node)
            let payload = try area.payload(area.buf[at], at: at, object: node)
            byteCount += payload.count
            BinaryPlistView.set(&visited, node, true)
            switch kind {
            case 0x4: return .data(payload)
            case 0x5:
                let item = PlistItem.string(TextBytes(payload, .latin1))
                if keyIndex >= 0 { try noteKey(node, item) }
                return item
            default:
                if !BinaryPlistView.test(keysChecked, node), BinaryStrings.hasLoneSurrogate(payload) {
                    noteLoneSurrogate(node, at: at)
                }
                let item = PlistItem.string(TextBytes(payload, .utf16BE))
                if keyIndex >= 0 { try noteKey(node, item) }
                return item
            }
        case 0xA, 0xC, 0xD:
            if again, let expansion = expansions[Int32(truncatingIfNeeded: node)] {
                try reuse(expansion, object: node, at: at)
                replayNext = node
                return try describe(node)
            }
            let start = Expansion(nodes: nodeCount, bytes: byteCount)
            try account(1, object: node)
            let marker = area.buf[at]
            let count = try area.container(marker, at: at, object: node).count
            BinaryPlistView.set(&visited, node, true)
            startOfNext = counts.isShared(node) ? (node, start) : nil
            return kind == 0xD ? .dictionary(count: count) : .array(count: count)
        default:
            try account(1, object: node)
            BinaryPlistView.set(&visited, node, true)
            return try area.scalar(area.buf[at], at: at, object: node)
        }
    }

    package mutating func element(_ i: Int, of node: Int) throws -> Int {
        try child(i, of: node, second: false)
    }

    package mutating func key(_ i: Int, of node: Int) throws -> Int {
        let top = frames.count - 1
        guard top >= 0, frames[top].node == node, !replaying, i == frames[top].keyCursor else {
            return try child(i, of: node, second: false, counted: false)
        }
        reportDuplicate()
        frames[frames.count - 1].keyCursor = i + 1
        let r = try child(i, of: node, second: false)
        try checkKeyText(r)
        pendingKey = i
        return r
    }

    /// Warns about a lone surrogate in key `node` as in a string value: a
    /// writer reads a key's text without `item`, so the key is checked here,
    /// once per object (a key shared by many dictionaries is one object).
    private mutating func checkKeyText(_ node: Int) throws {
        guard !BinaryPlistView.test(keysChecked, node), !BinaryPlistView.test(visited, node) else { return }
        BinaryPlistView.set(&keysChecked, node, true)
        let at = try area.offset(node)
        guard area.buf[at] >> 4 == 0x6 else { return }
        if BinaryStrings.hasLoneSurrogate(try area.payload(area.buf[at], at: at, object: node)) {
            noteLoneSurrogate(node, at: at)
        }
    }

    private mutating func noteLoneSurrogate(_ node: Int, at: Int) {
        diagnostics.append(PlistDiagnostic(.loneSurrogate, "string holds a lone UTF-16 surrogate (read as U+FFFD)",
                                           at: .binary(offset: at, object: node)))
    }

    package mutating func value(_ i: Int, of node: Int) throws -> Int {
        try child(i, of: node, second: true)
    }

    package mutating func enter(_ node: Int, depth: Int) throws {
        let replay = replaying || node == replayNext
        replayNext = -1
        var start: Expansion?
        if let s = startOfNext, s.node == node { start = s.expansion }
        startOfNext = nil
        if !replay {
            guard depth < limits.maxDepth else {
                throw area.fail(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels", offset: try area.offset(node), object: node)
            }
            BinaryPlistView.set(&open, node, true)
        }
        let at = try area.offset(node)
        let (count, refs) = try area.container(area.buf[at], at: at, object: node)
        let keyTable = !replay && count >= BinaryPlistView.indexedCount && area.buf[at] >> 4 == 0xD ? keyIndexes.open(expecting: count) : -1
        frames.append(Frame(node: node, depth: depth, count: count, refs: refs, replay: replay, start: start, keyBase: keyStack.count,
                            keyTable: keyTable))
        replaying = replay
    }

    package mutating func leave(_ node: Int) {
        let top = frames.count - 1
        guard top >= 0, frames[top].node == node else { return }
        if !frames[top].replay {
            reportDuplicate()
            BinaryPlistView.set(&open, node, false)
            if let start = frames[top].start {
                expansions[Int32(truncatingIfNeeded: node)] = Expansion(nodes: nodeCount - start.nodes, bytes: byteCount - start.bytes)
            }
            keyStack.removeLast(keyStack.count - frames[top].keyBase)
            if frames[top].keyTable >= 0 { keyIndexes.close(frames[top].keyTable) }
        }
        frames.removeLast()
        replaying = top > 0 && frames[top - 1].replay
    }

    // MARK: - Reading

    /// Reference `i` of container `node` (the value side of a dictionary's
    /// entry when `second`), checked; visited next (`pending`) when `counted`.
    private mutating func child(_ i: Int, of node: Int, second: Bool, counted: Bool = true) throws -> Int {
        let n: Int, p: Int
        let top = frames.count - 1
        if top >= 0, frames[top].node == node {
            (n, p) = (frames[top].count, frames[top].refs)
        } else {
            let at = try area.offset(node)
            (n, p) = try area.container(area.buf[at], at: at, object: node)
        }
        guard i >= 0, i < n else {
            throw area.fail(.corrupt, "entry \(i) of a container of \(n)", offset: try area.offset(node), object: node)
        }
        let r = try area.ref(second ? p + n * area.trailer.objectRefSize : p, i, object: node)
        guard !replaying else { return r }
        if BinaryPlistView.test(open, r) {
            throw area.fail(.cycle, "container contains itself through object \(r)", offset: try area.offset(node), object: node)
        }
        if counted {
            pending = r
            pendingKey = -1
        }
        return r
    }

    /// What object `node` is, checked, counting nothing.
    private func describe(_ node: Int) throws -> PlistItem {
        try Self.describe(node, in: area)
    }

    private static func describe(_ node: Int, in area: BinaryObjectArea) throws -> PlistItem {
        let at = try area.offset(node)
        let marker = area.buf[at]
        switch marker >> 4 {
        case 0x4: return .data(try area.payload(marker, at: at, object: node))
        case 0x5: return .string(TextBytes(try area.payload(marker, at: at, object: node), .latin1))
        case 0x6: return .string(TextBytes(try area.payload(marker, at: at, object: node), .utf16BE))
        case 0xA, 0xC: return .array(count: try area.container(marker, at: at, object: node).count)
        case 0xD: return .dictionary(count: try area.container(marker, at: at, object: node).count)
        default: return try area.scalar(marker, at: at, object: node)
        }
    }

    /// A string object's text, checked.
    private func textOf(_ node: Int) throws -> TextBytes? {
        guard case .string(let text) = try describe(node) else { return nil }
        return text
    }

    @inline(__always)
    private mutating func account(_ nodes: Int, object: Int) throws {
        nodeCount += nodes
        if nodeCount > limits.maxObjects {
            throw area.fail(.limitExceeded, "the property list expands to more than \(limits.maxObjects) objects",
                            offset: try area.offset(object), object: object)
        }
    }

    private mutating func reuse(_ expansion: Expansion, object: Int, at: Int) throws {
        try account(expansion.nodes, object: object)
        sharedBytes += expansion.bytes
        byteCount += expansion.bytes
        if sharedBytes > limits.maxSharedExpansion {
            throw area.fail(.limitExceeded, "shared strings and data expand to more than \(limits.maxSharedExpansion) bytes beyond the input (each reuse counts)",
                            offset: at, object: object)
        }
    }

    // MARK: - Duplicate keys

    /// Dictionaries of this many entries or more find repeated keys through
    /// `keyIndexes`; smaller ones compare the hashes of their keys so far.
    static let indexedCount = 16

    /// Notes key `node` of the innermost dictionary; a repeat (same UTF-8 as
    /// an earlier key, as CoreFoundation compares keys) is reported after its value.
    private mutating func noteKey(_ node: Int, _ item: PlistItem) throws {
        guard case .string(let text) = item, !frames.isEmpty else { return }
        let top = frames.count - 1
        let base = frames[top].keyBase
        // The UTF-8's hash, as the reader's key table compares keys.
        let basis = keyBasis
        let h = text.withUTF8(scratch: &scratch) { TableHash.text($0, basis: basis) }
        let position = keyStack.count - base
        let table = frames[top].keyTable
        var repeated = false
        if table >= 0 {
            repeated = try keyIndexes.first(h, in: table) { j in try sameKey(text, Int(keyStack[base + j].object)) } != nil
        } else {
            for j in 0..<position where keyStack[base + j].hash == h {
                if try sameKey(text, Int(keyStack[base + j].object)) { repeated = true; break }
            }
        }
        if repeated {
            frames[top].duplicate = text.withUTF8(scratch: &scratch) { String(decoding: $0, as: UTF8.self) }
            return
        }
        keyStack.append((h, Int32(truncatingIfNeeded: node)))
        if table >= 0 { keyIndexes.insert(h, position: position, into: table) }
    }

    /// True when key object `other` has the same text as `text`.
    private func sameKey(_ text: TextBytes, _ other: Int) throws -> Bool {
        guard let otherText = try textOf(other) else { return false }
        return TextBytes.sameText(text, otherText)
    }

    /// Reports the innermost dictionary's repeated key of the entry just visited.
    private mutating func reportDuplicate() {
        let top = frames.count - 1
        guard top >= 0, let key = frames[top].duplicate else { return }
        frames[top].duplicate = nil
        let node = frames[top].node
        diagnostics.append(PlistDiagnostic(.duplicateKey, "duplicate key \"\(key)\" in dictionary (the first value is kept)",
                                           at: .binary(offset: (try? area.offset(node)) ?? 0, object: node)))
    }
}
