import CArchivistSupport

/// Writes XML property lists byte for byte as CoreFoundation's `_CFAppendXML0`
/// does (Foundation's `PropertyListSerialization` on Linux, `plutil -convert
/// xml1` on macOS): tab indentation, keys sorted by UTF-16 code units, `%.17g`
/// reals, floored UTC dates, base64 lines that count a tab as 8 columns.
package enum XMLPlistWriter {
    /// Writes a tree as an XML property list.
    package static func write(_ tree: PlistTree, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        let out = ByteSink()
        try tree.withView { try write(&$0, options: options, into: out) }
        return out.bytes()
    }

    /// Appends the XML property list of `source` to `out`. The emitter
    /// recurses, since it refuses nesting deeper than `XMLEmitter.maxDepth`
    /// (which bounds the recursion).
    package static func write<S: PlistNodes>(_ source: inout S, options: WriteOptions = WriteOptions(), into out: ByteSink) throws {
        var losses = WriteLosses()
        try write(&source, options: options, into: out, losses: &losses)
    }

    /// `write(_:options:into:)`, adding to `losses` what XML could not keep
    /// (see `WriteLosses`).
    package static func write<S: PlistNodes>(_ source: inout S, options: WriteOptions = WriteOptions(), into out: ByteSink,
                                             losses: inout WriteLosses) throws {
        var w = XMLEmitter(keepKeyOrder: options.keepKeyOrder, out: out)
        out.append(XMLEmitter.header)
        try w.emit(source.rootNode, of: &source, indent: 0)
        out.append("</plist>\n")
        losses.subSecondDates += w.losses.subSecondDates
        losses.narrowReals += w.losses.narrowReals
        losses.negativeZeros += w.losses.negativeZeros
    }
}

struct XMLEmitter {
    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
    static let maxDepth = 512

    let out: ByteSink
    /// Dictionary entries to write, sorted unless keys keep their order.
    private var order: EntryOrder
    /// The entries of the open dictionaries, innermost last.
    private var entries: [Int] = []
    /// Text transcoded to UTF-8.
    private var scratch: [UInt8] = []
    /// What the values written lost.
    private(set) var losses = WriteLosses()

    init(keepKeyOrder: Bool, out: ByteSink) {
        order = EntryOrder(sorted: !keepKeyOrder)
        self.out = out
    }

    @inline(__always)
    func tabs(_ n: Int) {
        out.append(repeating: 0x09, count: n)
    }

    @inline(__always)
    func raw(_ s: StaticString) {
        out.append(s)
    }

    mutating func emit<S: PlistNodes>(_ node: Int, of source: inout S, indent: Int) throws {
        guard indent <= Self.maxDepth else {
            throw PlistError(.limitExceeded, "nesting deeper than \(Self.maxDepth) levels cannot be written")
        }
        let item = try source.item(node)
        tabs(indent)
        switch item {
        case .string(let text):
            raw("<string>"); escaped(text); raw("</string>\n")
        case .integer(let i):
            raw("<integer>"); out.appendDecimal(i); raw("</integer>\n")
        case .real(let r):
            if r.width == .bits32 { losses.narrowReals += 1 }
            if r.value == 0, r.value.sign == .minus { losses.negativeZeros += 1 }
            raw("<real>"); real(r.value); raw("</real>\n")
        case .bool(let b):
            if b { raw("<true/>\n") } else { raw("<false/>\n") }
        case .date(let d):
            raw("<date>")
            guard ISO8601.appendFormatted(d, into: out) else {
                throw PlistError(.notRepresentable, "date \(d.secondsSinceReferenceDate) seconds from 2001 has no calendar form")
            }
            if d.secondsSinceReferenceDate.rounded(.down) != d.secondsSinceReferenceDate { losses.subSecondDates += 1 }
            raw("</date>\n")
        case .data(let bytes):
            raw("<data>\n")
            base64Lines(bytes, indent: indent)
            tabs(indent); raw("</data>\n")
        case .array(let count):
            if count == 0 { raw("<array/>\n"); return }
            raw("<array>\n")
            try source.enter(node, depth: indent)
            for i in 0..<count { try emit(try source.element(i, of: node), of: &source, indent: indent + 1) }
            source.leave(node)
            tabs(indent); raw("</array>\n")
        case .dictionary(let count):
            if count == 0 { raw("<dict/>\n"); return }
            raw("<dict>\n")
            try source.enter(node, depth: indent)
            let start = entries.count
            if let written = try order.resolve(node, count: count, of: &source, into: &entries) {
                for k in 0..<written {
                    let key = try source.key(entries[start + 2 * k], of: node)
                    try entry(key, try source.value(entries[start + 2 * k + 1], of: node), of: &source, indent: indent + 1)
                }
                entries.removeSubrange(start...)
            } else {
                for i in 0..<count { try entry(try source.key(i, of: node), try source.value(i, of: node), of: &source, indent: indent + 1) }
            }
            source.leave(node)
            tabs(indent); raw("</dict>\n")
        case .uid(let u):
            raw("<dict>\n")
            tabs(indent + 1); raw("<key>CF$UID</key>\n")
            tabs(indent + 1); raw("<integer>"); out.appendDecimal(PlistInteger(u)); raw("</integer>\n")
            tabs(indent); raw("</dict>\n")
        case .null:
            throw PlistError(.notRepresentable, "XML property lists have no null")
        }
    }

    mutating func entry<S: PlistNodes>(_ key: Int, _ value: Int, of source: inout S, indent: Int) throws {
        guard case .string(let text) = try source.item(key) else {
            throw PlistError(.invalidValue, "a dictionary key is not a string")
        }
        tabs(indent); raw("<key>"); escaped(text); raw("</key>\n")
        try emit(value, of: &source, indent: indent)
    }

    /// Appends text with only `&`, `<` and `>` escaped.
    mutating func escaped(_ text: TextBytes) {
        let out = self.out
        text.withUTF8(scratch: &scratch) { bytes in XMLEmitter.escaped(bytes, into: out) }
    }

    /// Appends UTF-8 text with only `&`, `<` and `>` escaped.
    static func escaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: ByteSink) {
        // Most text has nothing to escape: one scan, one copy.
        var plain = true
        for b in bytes where b == 0x26 || b == 0x3C || b == 0x3E {
            plain = false
            break
        }
        if plain {
            out.append(bytes)
            return
        }
        let n = bytes.count
        // At most 5 bytes out per byte in (`&amp;`).
        out.appendUninitialized(max: 5 * n) { p in
            var k = 0
            for b in bytes {
                switch b {
                case 0x26:
                    p[k] = 0x26; p[k + 1] = 0x61; p[k + 2] = 0x6D; p[k + 3] = 0x70; p[k + 4] = 0x3B
                    k += 5
                case 0x3C:
                    p[k] = 0x26; p[k + 1] = 0x6C; p[k + 2] = 0x74; p[k + 3] = 0x3B
                    k += 4
                case 0x3E:
                    p[k] = 0x26; p[k + 1] = 0x67; p[k + 2] = 0x74; p[k + 3] = 0x3B
                    k += 4
                default:
                    p[k] = b
                    k += 1
                }
            }
            return k
        }
    }

    /// CoreFoundation's real format: `nan`, `+infinity`, `-infinity`, `0.0` for
    /// any zero, `%.17g` otherwise.
    func real(_ v: Double) {
        if v.isNaN { raw("nan"); return }
        if v.isInfinite { if v > 0 { raw("+infinity") } else { raw("-infinity") }; return }
        if v == 0 { raw("0.0"); return }
        // Integral values below 2^53 print as their digits under %.17g.
        if v.magnitude < 9_007_199_254_740_992, v.rounded(.towardZero) == v {
            out.appendDecimal(PlistInteger(Int64(v)))
            return
        }
        out.appendUninitialized(max: 40) { p in
            p.withMemoryRebound(to: CChar.self, capacity: 40) { Int(archivist_format_g17(v, $0, 40)) }
        }
    }

    /// Base64 in lines of `76 - 8 * min(indent, 8)` characters, each indented
    /// with `min(indent, 8)` tabs.
    func base64Lines(_ bytes: UnsafeRawBufferPointer, indent: Int) {
        let tabsPerLine = min(indent, 8)
        let lineLength = 76 - 8 * tabsPerLine
        // Whole lines hold lineLength / 4 groups of 3 input bytes.
        let bytesPerLine = lineLength / 4 * 3
        var i = 0
        let all = bytes.assumingMemoryBound(to: UInt8.self)
        while i < all.count {
            let end = min(i + bytesPerLine, all.count)
            tabs(tabsPerLine)
            Base64.encode(UnsafeBufferPointer(rebasing: all[i..<end]), into: out)
            out.append(0x0A)
            i = end
        }
    }
}
