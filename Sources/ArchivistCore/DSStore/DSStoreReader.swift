/// Reads a Finder `.DS_Store` file into a `PlistTree`: a dictionary of one
/// dictionary per file name, in the order the file's B-tree holds them,
/// whose keys are the record codes (`Iloc`, `bwsp`, `lsvp`, `icvp`,
/// `pBBk`, `moDD`, `ph1S`, `vSrn`...) and whose values are the records'
/// values by type: `long` and `shor` (32 bits) and `comp` (64 bits) as
/// integers, `bool` as a boolean, `type` (a four-character code) and `ustr`
/// (UTF-16) as strings, `dutc` (1/65536 s since 1904) as a date, and
/// `blob` as data: the binary plists (`bwsp`, `lsvp`, `icvp`) and bookmark
/// data (`pBBk`) inside are decoded where `dump` and `get` decode nested
/// data. Read-only: no writer writes this format.
///
/// The layout (the Finder's buddy allocator): `00 00 00 01 Bud1`, the root
/// block's offset and size (twice the offset); the root block lists the
/// blocks' addresses (offset | log2 size), a table of contents whose `DSDB`
/// entry names the B-tree's header block (root node, levels, records,
/// nodes, page size) and free lists (not read). Every offset is 4 bytes
/// past what it says. A node starts with its rightmost child (0 in a leaf)
/// and its record count; an inner node's records each follow their left
/// child. Every address, length and count is checked against the buffer;
/// each node is visited once (a cycle is an error) and no deeper than the
/// limit; a fault throws a `PlistError` located at its byte offset.
package enum DSStoreReader {
    /// The deepest B-tree read (Finder's trees have 1 to 3 levels).
    static let maxLevels = 32
    /// Seconds from 1904-01-01 (the `dutc` epoch) to 2001-01-01.
    static let secondsFrom1904To2001 = 3_061_152_000.0

    /// Reads a buffer.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        var reader = Reader(bytes: buffer, limits: options.limits)
        return PlistDocument(tree: try reader.readStore(), format: .binary)
    }

    /// Reads bytes.
    package static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }

    /// One record as found: where its parts lie in the buffer.
    private struct Record {
        var name: Range<Int>
        var code: Range<Int>
        var type: UInt32
        var value: Range<Int>
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let limits: Limits
        var builder = PlistTreeBuilder()
        /// The block addresses of the root block.
        var addresses: [UInt32] = []
        /// Which blocks the B-tree walk has entered.
        var visited: [Bool] = []
        var records: [Record] = []

        init(bytes: UnsafeRawBufferPointer, limits: Limits) {
            self.bytes = bytes
            self.limits = limits
        }

        func fail(_ message: String, at offset: Int) -> PlistError {
            PlistError(.corrupt, ".DS_Store: \(message)", at: .binary(offset: offset, object: nil))
        }

        /// True when `count` bytes from `offset` lie inside `[start, end)`.
        func fits(_ offset: Int, _ count: Int, in start: Int = 0, _ end: Int? = nil) -> Bool {
            let end = end ?? bytes.count
            return offset >= start && count >= 0 && offset <= end && end - offset >= count
        }

        func u32(_ o: Int, _ what: String, end: Int? = nil) throws -> UInt32 {
            guard fits(o, 4, in: 0, end) else { throw fail("\(what) at offset \(o) runs past its end", at: o) }
            return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
        }

        func int(_ o: Int, _ what: String, end: Int? = nil) throws -> Int { Int(try u32(o, what, end: end)) }

        /// The file range of block `number`: its address's offset (plus the
        /// 4-byte shift) and its size, both inside the buffer.
        func block(_ number: Int, from field: Int) throws -> Range<Int> {
            guard number >= 0, number < addresses.count else {
                throw fail("block \(number) is not one of the \(addresses.count) blocks", at: field)
            }
            let address = addresses[number]
            let start = Int(address & ~0x1F) + 4
            let size = 1 << Int(address & 0x1F)
            guard start < bytes.count else {
                throw fail("block \(number) at offset \(start) lies past the end (\(bytes.count) bytes)", at: field)
            }
            return start..<min(start + size, bytes.count)
        }

        mutating func readStore() throws -> PlistTree {
            guard bytes.count >= 8, try u32(0, "the magic") == 1, bytes[4] == 0x42, bytes[5] == 0x75, bytes[6] == 0x64, bytes[7] == 0x31 else {
                throw fail("not a .DS_Store file (no 00 00 00 01 Bud1 header)", at: 0)
            }
            guard bytes.count >= 36 else { throw fail("truncated: the header of 36 bytes runs past the end (\(bytes.count) bytes)", at: 0) }
            let rootOffset = try int(8, "the root block's offset")
            let rootSize = try int(12, "the root block's size")
            guard try int(16, "the root block's second offset") == rootOffset else {
                throw fail("the header's two root block offsets differ", at: 16)
            }
            let rootStart = rootOffset + 4
            guard fits(rootStart, rootSize) else {
                throw fail("the root block of \(rootSize) bytes at offset \(rootStart) runs past the end (\(bytes.count) bytes)", at: 8)
            }
            let rootEnd = rootStart + rootSize
            try readRoot(from: rootStart, to: rootEnd)
            return try buildTree()
        }

        /// The block addresses and the table of contents' `DSDB` entry; then the B-tree.
        mutating func readRoot(from start: Int, to end: Int) throws {
            let count = try int(start, "the block count", end: end)
            // Addresses come in runs of 256.
            let slots = (count / 256 + (count % 256 == 0 ? 0 : 1)) * 256
            guard count <= (end - start - 8) / 4, slots <= (end - start - 8) / 4 else {
                throw fail("\(count) block addresses cannot fit in the root block's \(end - start) bytes", at: start)
            }
            addresses.reserveCapacity(count)
            for i in 0..<count { addresses.append(try u32(start + 8 + 4 * i, "a block address", end: end)) }
            visited = Array(repeating: false, count: count)
            var p = start + 8 + 4 * slots
            let entries = try int(p, "the table of contents' count", end: end)
            guard entries <= (end - p) / 6 else { throw fail("\(entries) table of contents entries cannot fit in the root block", at: p) }
            p += 4
            var header: (Int, Int)?
            for _ in 0..<entries {
                guard fits(p, 1, in: 0, end) else { throw fail("the table of contents runs past the root block", at: p) }
                let length = Int(bytes[p])
                guard fits(p + 1, length + 4, in: 0, end) else { throw fail("the table of contents runs past the root block", at: p) }
                let name = bytes[(p + 1)..<(p + 1 + length)]
                let value = try int(p + 1 + length, "a table of contents entry", end: end)
                if header == nil, name.elementsEqual("DSDB".utf8) { header = (value, p + 1 + length) }
                p += 1 + length + 4
            }
            guard let (number, field) = header else { throw fail("the table of contents has no DSDB entry", at: start) }
            let headerBlock = try block(number, from: field)
            let rootNode = try int(headerBlock.lowerBound, "the B-tree's root node", end: headerBlock.upperBound)
            let levels = try int(headerBlock.lowerBound + 4, "the B-tree's level count", end: headerBlock.upperBound)
            guard levels <= DSStoreReader.maxLevels, levels < limits.maxDepth else {
                throw PlistError(.limitExceeded, ".DS_Store: a B-tree of \(levels) levels is deeper than \(DSStoreReader.maxLevels)",
                                 at: .binary(offset: headerBlock.lowerBound + 4, object: nil))
            }
            visited[number] = true
            try readNode(rootNode, from: headerBlock.lowerBound, depth: 0, levels: levels)
        }

        /// Node `number` and, in an inner node, its children in order.
        mutating func readNode(_ number: Int, from field: Int, depth: Int, levels: Int) throws {
            guard depth <= levels, depth < DSStoreReader.maxLevels else {
                throw fail("a node at depth \(depth) is deeper than the B-tree's \(levels) levels", at: field)
            }
            let range = try block(number, from: field)
            guard !visited[number] else { throw PlistError(.cycle, ".DS_Store: the B-tree reaches block \(number) twice", at: .binary(offset: field, object: nil)) }
            visited[number] = true
            let end = range.upperBound
            let next = try int(range.lowerBound, "a node's rightmost child", end: end)
            let count = try int(range.lowerBound + 4, "a node's record count", end: end)
            // A record takes at least 12 bytes (an empty name, code, type and a bool).
            guard count <= (end - range.lowerBound) / 13 else {
                throw fail("a node claims \(count) records, more than its \(end - range.lowerBound) bytes hold", at: range.lowerBound + 4)
            }
            guard records.count <= limits.maxObjects - count else {
                throw PlistError(.limitExceeded, ".DS_Store: more than \(limits.maxObjects) records", at: .binary(offset: range.lowerBound + 4, object: nil))
            }
            var p = range.lowerBound + 8
            for _ in 0..<count {
                if next != 0 {
                    let child = try int(p, "a child's block number", end: end)
                    try readNode(child, from: p, depth: depth + 1, levels: levels)
                    p += 4
                }
                p = try readRecord(at: p, end: end)
            }
            if next != 0 { try readNode(next, from: range.lowerBound, depth: depth + 1, levels: levels) }
        }

        /// Finds the record at `start`; returns where the next one starts.
        mutating func readRecord(at start: Int, end: Int) throws -> Int {
            let length = try int(start, "a record's name length", end: end)
            guard length <= (end - start - 4) / 2, fits(start + 4, 2 * length + 8, in: 0, end) else {
                throw fail("a record's name of \(length) UTF-16 units runs past its node", at: start)
            }
            let name = (start + 4)..<(start + 4 + 2 * length)
            let code = name.upperBound..<(name.upperBound + 4)
            let type = try u32(code.upperBound, "a record's type", end: end)
            let v = code.upperBound + 4
            let size: Int
            var value = v
            switch type {
            case 0x626F_6F6C: size = 1 // bool
            case 0x6C6F_6E67, 0x7368_6F72, 0x7479_7065: size = 4 // long, shor, type
            case 0x636F_6D70, 0x6475_7463: size = 8 // comp, dutc
            case 0x626C_6F62: // blob
                size = try int(v, "a blob's length", end: end)
                value += 4
            case 0x7573_7472: // ustr
                let units = try int(v, "a string's length", end: end)
                guard units <= (end - v) / 2 else { throw fail("a string of \(units) UTF-16 units runs past its node", at: v) }
                size = 2 * units
                value += 4
            default:
                throw PlistError(.unsupported, ".DS_Store: unknown record type \(Self.fourCC(type))", at: .binary(offset: code.upperBound, object: nil))
            }
            guard fits(value, size, in: 0, end) else { throw fail("a record's value of \(size) bytes runs past its node", at: v) }
            guard size <= limits.maxValueLength else {
                throw PlistError(.limitExceeded, ".DS_Store: a value of \(size) bytes exceeds the limit", at: .binary(offset: v, object: nil))
            }
            records.append(Record(name: name, code: code, type: type, value: value..<(value + size)))
            return value + size
        }

        /// A four-character code as text, each byte a Latin-1 character (no byte is lost).
        static func fourCC(_ type: UInt32) -> String {
            var text = ""
            for shift: UInt32 in [24, 16, 8, 0] { text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: type >> shift))) }
            return text
        }

        /// Big-endian UTF-16 as a string; throws on a lone surrogate.
        func utf16(_ range: Range<Int>) throws -> String {
            var units: [UInt16] = []
            units.reserveCapacity(range.count / 2)
            var i = range.lowerBound
            while i + 1 < range.upperBound { units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])); i += 2 }
            var text = ""
            var decoder = UTF16()
            var iterator = units.makeIterator()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let s): text.unicodeScalars.append(s)
                case .emptyInput: break loop
                case .error: throw PlistError(.encoding, ".DS_Store: a string holds a lone UTF-16 surrogate", at: .binary(offset: range.lowerBound, object: nil))
                }
            }
            return text
        }

        /// The records grouped by file name, in the order each name first appears.
        mutating func buildTree() throws -> PlistTree {
            var groups: [[Int]] = []
            var names: [String] = []
            var index: [String: Int] = [:]
            for (i, record) in records.enumerated() {
                let name = try utf16(record.name)
                if let g = index[name] { groups[g].append(i) } else {
                    index[name] = groups.count
                    groups.append([i])
                    names.append(name)
                }
            }
            var root = builder.openDictionary()
            for (g, members) in groups.enumerated() {
                var entry = builder.openDictionary()
                for i in members {
                    let record = records[i]
                    let code = builder.key(Self.fourCC(UInt32(bytes[record.code.lowerBound]) << 24 | UInt32(bytes[record.code.lowerBound + 1]) << 16
                                                       | UInt32(bytes[record.code.lowerBound + 2]) << 8 | UInt32(bytes[record.code.lowerBound + 3])))
                    let value = try value(of: record)
                    _ = builder.add(key: code, value: value, to: &entry, keepingFirstValue: true)
                }
                let node = builder.close(entry)
                _ = builder.add(key: builder.key(names[g]), value: node, to: &root, keepingFirstValue: true)
            }
            return try builder.finish(root: builder.close(root))
        }

        mutating func value(of record: Record) throws -> Int {
            let v = record.value.lowerBound
            switch record.type {
            case 0x626F_6F6C: return builder.bool(bytes[v] != 0)
            case 0x6C6F_6E67, 0x7368_6F72: return builder.integer(PlistInteger(Int64(try u32(v, "a number"))))
            case 0x7479_7065: return builder.string(Self.fourCC(try u32(v, "a type code")))
            case 0x636F_6D70, 0x6475_7463:
                let high = UInt64(try u32(v, "a 64-bit value")), low = UInt64(try u32(v + 4, "a 64-bit value"))
                let wide = high << 32 | low
                if record.type == 0x636F_6D70 { return builder.integer(PlistInteger(wide)) }
                return builder.date(PlistDate(secondsSinceReferenceDate: Double(wide) / 65_536 - DSStoreReader.secondsFrom1904To2001))
            case 0x7573_7472: return builder.string(try utf16(record.value))
            default: return builder.data(UnsafeRawBufferPointer(rebasing: bytes[record.value]))
            }
        }
    }
}
