import ArchivistCore

/// `.DS_Store` files made by hand for tests and the guide: the Finder's
/// buddy-allocator layout (`00 00 00 01 Bud1`, a root block of block
/// addresses and a table of contents whose `DSDB` entry names the B-tree's
/// header block), with nodes given as bytes, so that tests can build valid
/// trees and broken ones (cycles, bad addresses, short nodes).
public enum DSStoreSample {
    /// A record: name length (UTF-16 units) and name, code, type, value.
    public static func record(_ name: String, _ code: String, _ type: String, _ value: [UInt8]) -> [UInt8] {
        let units = Array(name.utf16)
        var out = be32(units.count)
        for u in units { out += [UInt8(u >> 8), UInt8(u & 0xFF)] }
        return out + Array(code.utf8) + Array(type.utf8) + value
    }

    /// A `long` record.
    public static func long(_ name: String, _ code: String, _ value: UInt32) -> [UInt8] { record(name, code, "long", be32(Int(value))) }
    /// A `bool` record.
    public static func bool(_ name: String, _ code: String, _ value: Bool) -> [UInt8] { record(name, code, "bool", [value ? 1 : 0]) }
    /// A `blob` record.
    public static func blob(_ name: String, _ code: String, _ bytes: [UInt8]) -> [UInt8] { record(name, code, "blob", be32(bytes.count) + bytes) }
    /// A `ustr` record.
    public static func ustr(_ name: String, _ code: String, _ text: String) -> [UInt8] {
        let units = Array(text.utf16)
        return record(name, code, "ustr", be32(units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }
    /// A `dutc` record (1/65536 s since 1904-01-01).
    public static func dutc(_ name: String, _ code: String, secondsSince2001: Double) -> [UInt8] {
        let ticks = UInt64((secondsSince2001 + 3_061_152_000) * 65_536)
        return record(name, code, "dutc", be32(Int(ticks >> 32)) + be32(Int(ticks & 0xFFFF_FFFF)))
    }

    /// A leaf node of `records`.
    public static func leaf(_ records: [[UInt8]]) -> [UInt8] { be32(0) + be32(records.count) + records.flatMap { $0 } }

    /// An inner node: `(child block, record)` pairs and the rightmost child.
    public static func inner(_ pairs: [(Int, [UInt8])], right: Int) -> [UInt8] {
        be32(right) + be32(pairs.count) + pairs.flatMap { be32($0.0) + $0.1 }
    }

    /// A file whose node blocks are `nodes` (block numbers 2, 3...), its
    /// B-tree rooted at block `root` with `levels` levels. Block 0 is the
    /// root block, block 1 the B-tree's header.
    public static func file(nodes: [[UInt8]], root: Int = 2, levels: Int = 0) -> [UInt8] {
        // Block addresses: offset (4 bytes before the block) | log2(size).
        var addresses = [0x20 | 11, 0x820 | 5]
        for i in nodes.indices { addresses.append((0x1000 * (i + 1)) | 12) }
        var rootBlock = be32(addresses.count) + be32(0)
        for slot in 0..<256 { rootBlock += be32(slot < addresses.count ? addresses[slot] : 0) }
        rootBlock += be32(1) + [4] + Array("DSDB".utf8) + be32(1)
        for _ in 0..<32 { rootBlock += be32(0) }
        let headerBlock = be32(root) + be32(levels) + be32(nodes.count) + be32(nodes.count) + be32(0x1000)
        var out = be32(1) + Array("Bud1".utf8) + be32(0x20) + be32(2048) + be32(0x20) + [UInt8](repeating: 0, count: 16)
        func place(_ bytes: [UInt8], at offset: Int) {
            let position = offset + 4
            if out.count < position { out += [UInt8](repeating: 0, count: position - out.count) }
            out += bytes
        }
        place(rootBlock, at: 0x20)
        place(headerBlock, at: 0x820)
        for (i, node) in nodes.enumerated() { place(node, at: 0x1000 * (i + 1)) }
        // The last block is whole: pad to its 4096 bytes.
        let end = 4 + 0x1000 * nodes.count + 0x1000
        if out.count < end { out += [UInt8](repeating: 0, count: end - out.count) }
        return out
    }

    /// The guide's example: a folder's window and list-view settings, an
    /// icon position, a comment and a date, in one leaf.
    public static var example: [UInt8] {
        let settings = (try? PropertyList.write(.dictionary(PlistDictionary([
            ("ShowSidebar", .bool(true)), ("WindowBounds", .string("{{100, 200}, {640, 400}}")),
        ])), as: .binary)) ?? []
        return file(nodes: [leaf([
            blob(".", "bwsp", settings),
            long(".", "vSrn", 1),
            blob("Report.pdf", "Iloc", be32(120) + be32(64) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]),
            ustr("Report.pdf", "cmmt", "Quarterly figures"),
            dutc("Report.pdf", "moDD", secondsSince2001: 725_760_000),
            bool("Report.pdf", "dscl", false),
        ])])
    }

    /// A big-endian 32-bit word.
    public static func be32(_ v: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}
