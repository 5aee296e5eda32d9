#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes XML property lists byte for byte as CoreFoundation's `_CFAppendXML0`
/// does (Foundation's `PropertyListSerialization` on Linux, `plutil -convert
/// xml1` on macOS): tab indentation, keys sorted by UTF-16 code units, `%.17g`
/// reals, floored UTC dates, base64 lines that count a tab as 8 columns.
public enum XMLPlistWriter {
    /// Writes a tree as an XML property list.
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        var w = XMLEmitter(keepKeyOrder: options.keepKeyOrder)
        w.out.append(contentsOf: XMLEmitter.header)
        try w.emit(value, indent: 0)
        w.out.append(contentsOf: "</plist>\n".utf8)
        return w.out
    }
}

struct XMLEmitter {
    static let header = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)
    static let maxDepth = 512

    let keepKeyOrder: Bool
    var out: [UInt8] = []

    init(keepKeyOrder: Bool) {
        self.keepKeyOrder = keepKeyOrder
        out.reserveCapacity(1 << 16)
    }

    @inline(__always)
    mutating func tabs(_ n: Int) {
        for _ in 0..<n { out.append(0x09) }
    }

    @inline(__always)
    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    mutating func emit(_ value: PlistValue, indent: Int) throws {
        guard indent <= Self.maxDepth else {
            throw PlistError(.limitExceeded, "nesting deeper than \(Self.maxDepth) levels cannot be written")
        }
        tabs(indent)
        switch value {
        case .string(let s):
            raw("<string>"); escaped(s); raw("</string>\n")
        case .integer(let i):
            raw("<integer>"); out.append(contentsOf: i.description.utf8); raw("</integer>\n")
        case .real(let r):
            raw("<real>"); real(r.value); raw("</real>\n")
        case .bool(let b):
            if b { raw("<true/>\n") } else { raw("<false/>\n") }
        case .date(let d):
            guard let text = ISO8601.formatIfRepresentable(d) else {
                throw PlistError(.notRepresentable, "date \(d.secondsSinceReferenceDate) seconds from 2001 has no calendar form")
            }
            raw("<date>"); out.append(contentsOf: text.utf8); raw("</date>\n")
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
                for i in dict.indicesSortedByUTF16() { try entry(dict.keys[i], dict.values[i], indent: indent + 1) }
            }
            tabs(indent); raw("</dict>\n")
        case .uid(let u):
            raw("<dict>\n")
            tabs(indent + 1); raw("<key>CF$UID</key>\n")
            tabs(indent + 1); raw("<integer>"); out.append(contentsOf: String(u).utf8); raw("</integer>\n")
            tabs(indent); raw("</dict>\n")
        case .null:
            throw PlistError(.notRepresentable, "XML property lists have no null")
        }
    }

    mutating func entry(_ key: String, _ value: PlistValue, indent: Int) throws {
        tabs(indent); raw("<key>"); escaped(key); raw("</key>\n")
        try emit(value, indent: indent)
    }

    /// Appends text with only `&`, `<` and `>` escaped, copying the runs between.
    mutating func escaped(_ s: String) {
        var copy = s
        copy.withUTF8 { bytes in
            var runStart = 0
            for i in 0..<bytes.count {
                let b = bytes[i]
                guard b == 0x26 || b == 0x3C || b == 0x3E else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                switch b {
                case 0x26: raw("&amp;")
                case 0x3C: raw("&lt;")
                default: raw("&gt;")
                }
                runStart = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    /// CoreFoundation's real format: `nan`, `+infinity`, `-infinity`, `0.0` for
    /// any zero, `%.17g` otherwise.
    mutating func real(_ v: Double) {
        if v.isNaN { raw("nan"); return }
        if v.isInfinite { if v > 0 { raw("+infinity") } else { raw("-infinity") }; return }
        if v == 0 { raw("0.0"); return }
        var buffer = [CChar](repeating: 0, count: 40)
        let n = buffer.withUnsafeMutableBufferPointer { p in
            withVaList([v]) { vsnprintf(p.baseAddress, 40, "%.17g", $0) }
        }
        buffer.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: UInt8.self) { out.append(contentsOf: $0.prefix(Int(max(0, min(n, 39))))) }
        }
    }

    /// Base64 in lines of `76 - 8 * min(indent, 8)` characters, each indented
    /// with `min(indent, 8)` tabs.
    mutating func base64Lines(_ bytes: [UInt8], indent: Int) {
        let tabsPerLine = min(indent, 8)
        let lineLength = 76 - 8 * tabsPerLine
        let encoded = Base64.encode(bytes)
        var i = 0
        while i < encoded.count {
            let end = min(i + lineLength, encoded.count)
            tabs(tabsPerLine)
            out.append(contentsOf: encoded[i..<end])
            out.append(0x0A)
            i = end
        }
    }
}
