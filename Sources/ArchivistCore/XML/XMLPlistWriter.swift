import CArchivistSupport

/// Writes XML property lists byte for byte as CoreFoundation's `_CFAppendXML0`
/// does (Foundation's `PropertyListSerialization` on Linux, `plutil -convert
/// xml1` on macOS): tab indentation, keys sorted by UTF-16 code units, `%.17g`
/// reals, floored UTC dates, base64 lines that count a tab as 8 columns.
public enum XMLPlistWriter {
    /// Writes a tree as an XML property list.
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        let out = ByteSink()
        try write(value, options: options, into: out)
        return out.bytes()
    }

    /// Appends the XML property list of `value` to `out`. The emitter recurses
    /// rather than walking `PlistTraversal`, since it refuses nesting deeper
    /// than `XMLEmitter.maxDepth` (which bounds the recursion) and reuses one
    /// dictionary's sorted key order for the next, which the walk cannot.
    package static func write(_ value: PlistValue, options: WriteOptions = WriteOptions(), into out: ByteSink) throws {
        let w = XMLEmitter(keepKeyOrder: options.keepKeyOrder, out: out)
        out.append(XMLEmitter.header)
        try w.emit(value, indent: 0)
        out.append("</plist>\n")
    }
}

final class XMLEmitter {
    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
    static let maxDepth = 512

    let keepKeyOrder: Bool
    let out: ByteSink
    /// The last dictionary's keys and their sorted order: arrays of records
    /// repeat the same keys, so the order is usually computed once.
    private var lastKeys: [String] = []
    private var lastOrder: [Int] = []

    init(keepKeyOrder: Bool, out: ByteSink) {
        self.keepKeyOrder = keepKeyOrder
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

    func emit(_ value: PlistValue, indent: Int) throws {
        guard indent <= Self.maxDepth else {
            throw PlistError(.limitExceeded, "nesting deeper than \(Self.maxDepth) levels cannot be written")
        }
        tabs(indent)
        switch value {
        case .string(let s):
            raw("<string>"); escaped(s); raw("</string>\n")
        case .integer(let i):
            raw("<integer>"); out.appendDecimal(i); raw("</integer>\n")
        case .real(let r):
            raw("<real>"); real(r.value); raw("</real>\n")
        case .bool(let b):
            if b { raw("<true/>\n") } else { raw("<false/>\n") }
        case .date(let d):
            raw("<date>")
            guard ISO8601.appendFormatted(d, into: out) else {
                throw PlistError(.notRepresentable, "date \(d.secondsSinceReferenceDate) seconds from 2001 has no calendar form")
            }
            raw("</date>\n")
        case .data(let bytes):
            raw("<data>\n")
            base64Lines(bytes, indent: indent)
            tabs(indent); raw("</data>\n")
        case .array(let items):
            if items.isEmpty { raw("<array/>\n"); return }
            raw("<array>\n")
            for item in items { try emit(item, indent: indent + 1) }
            tabs(indent); raw("</array>\n")
        case .dictionary(let dict):
            if dict.isEmpty { raw("<dict/>\n"); return }
            raw("<dict>\n")
            if keepKeyOrder {
                for i in 0..<dict.count { try entry(dict.keys[i], dict.values[i], indent: indent + 1) }
            } else {
                for i in sortedOrder(dict) { try entry(dict.keys[i], dict.values[i], indent: indent + 1) }
            }
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

    private func sortedOrder(_ dict: PlistDictionary) -> [Int] {
        if dict.keys == lastKeys { return lastOrder }
        let order = dict.indicesSortedByUTF16()
        lastKeys = dict.keys
        lastOrder = order
        return order
    }

    func entry(_ key: String, _ value: PlistValue, indent: Int) throws {
        tabs(indent); raw("<key>"); escaped(key); raw("</key>\n")
        try emit(value, indent: indent)
    }

    /// Appends text with only `&`, `<` and `>` escaped.
    func escaped(_ s: String) {
        var copy = s
        copy.withUTF8 { bytes in
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
    func base64Lines(_ bytes: [UInt8], indent: Int) {
        let tabsPerLine = min(indent, 8)
        let lineLength = 76 - 8 * tabsPerLine
        // Whole lines hold lineLength / 4 groups of 3 input bytes.
        let bytesPerLine = lineLength / 4 * 3
        var i = 0
        bytes.withUnsafeBufferPointer { all in
            while i < all.count {
                let end = min(i + bytesPerLine, all.count)
                tabs(tabsPerLine)
                Base64.encode(UnsafeBufferPointer(rebasing: all[i..<end]), into: out)
                out.append(0x0A)
                i = end
            }
        }
    }
}
