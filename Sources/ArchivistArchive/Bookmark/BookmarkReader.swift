/// Reads bookmark data (see ``Bookmark``) with every offset and length
/// checked against the input. Each item read costs its header and payload
/// bytes against a budget of a few times the input's size, and nesting is
/// limited, so shared or cyclic offsets and huge counts end in a refusal after
/// work proportional to the input.
struct BookmarkReader {
    /// Why bytes are not read as a bookmark (the caller shows them as data).
    struct Refused: Error {}

    /// Deepest nesting of arrays, dictionaries and relative URLs followed.
    static let maxDepth = 32
    /// Most tables of contents followed in one chain.
    static let maxTables = 64

    private let bytes: [UInt8]
    /// The size the header gives (the count of `bytes` when read).
    private var size = 0
    /// Where item offsets count from: the end of the header.
    private var base = 0
    /// Bytes of items that may still be read.
    private var budget: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // Each read item costs at least 8; four times the input covers items
        // shared a few times (relative URLs, repeated keys).
        self.budget = bytes.count.multipliedReportingOverflow(by: 4).partialValue
    }

    /// The little-endian 32-bit word at `offset`, or a refusal past the end.
    private func u32(_ offset: Int) throws -> UInt32 {
        guard offset >= 0, offset <= size - 4 else { throw Refused() }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// `count` bytes little-endian at `offset` (1 to 8), as an unsigned word.
    private func word(_ offset: Int, count: Int) throws -> UInt64 {
        guard offset >= 0, count >= 1, count <= 8, offset <= size - count else { throw Refused() }
        var v: UInt64 = 0
        for i in stride(from: count - 1, through: 0, by: -1) { v = v << 8 | UInt64(bytes[offset + i]) }
        return v
    }

    /// The whole bookmark: header, then each table of contents of the chain.
    mutating func read() throws -> Bookmark {
        guard Bookmark.looksLikeBookmark(bytes) else { throw Refused() }
        size = bytes.count
        let headerSize = try Bookmark.aliasFileHeaderSize(bytes) ?? Int(u32(12))
        guard headerSize >= 16, headerSize <= size - 4 else { throw Refused() }
        base = headerSize
        var next = Int(try u32(headerSize))
        var tables: [Bookmark.Table] = []
        var seen = Set<Int>()
        while next != 0 {
            guard tables.count < Self.maxTables, seen.insert(next).inserted else { throw Refused() }
            let (table, following) = try self.table(at: next)
            guard let table else { break }
            tables.append(table)
            next = following
        }
        guard !tables.isEmpty else { throw Refused() }
        return Bookmark(tables: tables)
    }

    /// The table of contents at `offset` and the offset of the next (0 at the
    /// end); nil when the word after the size is not the table marker.
    private mutating func table(at offset: Int) throws -> (Bookmark.Table?, Int) {
        let start = try position(offset)
        guard start <= size - 20 else { throw Refused() }
        guard try u32(start + 4) == 0xFFFF_FFFE else { return (nil, 0) }
        let id = try u32(start + 8)
        let next = Int(try u32(start + 12))
        let count = Int(try u32(start + 16))
        // Entries are 12 bytes each and must lie inside the input.
        guard count <= (size - start - 20) / 12 else { throw Refused() }
        var entries: [Bookmark.Entry] = []
        entries.reserveCapacity(count)
        for n in 0..<count {
            let at = start + 20 + 12 * n
            let rawKey = try u32(at)
            let key: Bookmark.Key
            if rawKey & 0x8000_0000 != 0 {
                guard case .string(let name) = try item(at: Int(rawKey & 0x7FFF_FFFF), depth: 1) else { throw Refused() }
                key = .name(name)
            } else {
                key = .code(rawKey)
            }
            entries.append(Bookmark.Entry(key: key, item: try item(at: Int(try u32(at + 4)), depth: 0)))
        }
        return (Bookmark.Table(id: id, entries: entries), next)
    }

    /// Where an offset counted from the end of the header lies in the input.
    private func position(_ offset: Int) throws -> Int {
        guard offset >= 0, offset <= size - base else { throw Refused() }
        return base + offset
    }

    /// The item at `offset` (from the end of the header).
    private mutating func item(at offset: Int, depth: Int) throws -> Bookmark.Item {
        guard depth <= Self.maxDepth else { throw Refused() }
        let start = try position(offset)
        guard start <= size - 8 else { throw Refused() }
        let length = Int(try u32(start))
        let type = try u32(start + 4)
        let payload = start + 8
        guard length <= size - payload else { throw Refused() }
        budget -= 8 + length
        guard budget >= 0 else { throw Refused() }
        let body = bytes[payload..<(payload + length)]
        let subtype = type & 0xFF
        switch type & 0xFFFF_FF00 {
        case 0x0100: return .string(String(decoding: body, as: UTF8.self))
        case 0x0200: return .data(Array(body))
        case 0x0300: return try number(subtype: subtype, at: payload, length: length) ?? .unknown(type: type, bytes: Array(body))
        case 0x0400:
            guard length == 8 else { return .unknown(type: type, bytes: Array(body)) }
            var bits: UInt64 = 0
            for b in body { bits = bits << 8 | UInt64(b) }
            return .date(Double(bitPattern: bits))
        case 0x0500: return .bool(subtype != 0)
        case 0x0600:
            guard length % 4 == 0 else { throw Refused() }
            var items: [Bookmark.Item] = []
            for at in stride(from: payload, to: payload + length, by: 4) {
                items.append(try item(at: Int(try u32(at)), depth: depth + 1))
            }
            return .array(items)
        case 0x0700:
            guard length % 8 == 0 else { throw Refused() }
            var pairs: [Bookmark.Pair] = []
            for at in stride(from: payload, to: payload + length, by: 8) {
                let key = try item(at: Int(try u32(at)), depth: depth + 1)
                pairs.append(Bookmark.Pair(key: key, value: try item(at: Int(try u32(at + 4)), depth: depth + 1)))
            }
            return .dictionary(pairs)
        case 0x0800:
            guard length == 16 else { return .unknown(type: type, bytes: Array(body)) }
            return .uuid(Array(body))
        case 0x0900:
            if subtype == 2, length == 8 {
                let baseURL = try item(at: Int(try u32(payload)), depth: depth + 1)
                return .relativeURL(base: baseURL, relative: try item(at: Int(try u32(payload + 4)), depth: depth + 1))
            }
            return .url(String(decoding: body, as: UTF8.self))
        case 0x0A00: return .null
        default: return .unknown(type: type, bytes: Array(body))
        }
    }

    /// A CFNumber by its type (`kCFNumberSInt8Type` 1 ... `kCFNumberCGFloatType`
    /// 16); nil when the length does not match the type.
    private func number(subtype: UInt32, at offset: Int, length: Int) throws -> Bookmark.Item? {
        switch subtype {
        case 1, 7: guard length == 1 else { return nil }; return .integer(Int64(Int8(truncatingIfNeeded: try word(offset, count: 1))))
        case 2, 8: guard length == 2 else { return nil }; return .integer(Int64(Int16(truncatingIfNeeded: try word(offset, count: 2))))
        case 3, 9: guard length == 4 else { return nil }; return .integer(Int64(Int32(truncatingIfNeeded: try word(offset, count: 4))))
        case 4, 10, 11, 14, 15:
            guard length == 8 else { return nil }
            return .integer(Int64(bitPattern: try word(offset, count: 8)))
        case 5, 12: guard length == 4 else { return nil }; return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: try word(offset, count: 4)))))
        case 6, 13, 16: guard length == 8 else { return nil }; return .real(Double(bitPattern: try word(offset, count: 8)))
        default: return nil
        }
    }
}
