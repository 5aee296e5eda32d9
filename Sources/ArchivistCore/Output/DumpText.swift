/// How every view spells a value on one line: a quoted string, a date with
/// its fraction, data as its length and first bytes, a container by its
/// count. The dumps, the graph and the catalogue's described values share it.
package enum DumpText {
    /// A string quoted and escaped as a property-list string literal.
    package static func quoted(_ s: String) -> String {
        PlistValue.quoted(s)
    }

    /// Data as `<data N bytes 0x…>`: the first 24 bytes (64 and a checksum when `stable`).
    package static func data(_ bytes: [UInt8], stable: Bool = false) -> String {
        let shown = stable ? 64 : 24
        var hex = ""
        for b in bytes.prefix(shown) {
            hex += b < 16 ? "0" + String(b, radix: 16) : String(b, radix: 16)
        }
        var text = "<data \(bytes.count) bytes" + (bytes.isEmpty ? "" : " 0x" + hex + (bytes.count > shown ? "…" : ""))
        if stable, bytes.count > shown { text += " fnv1a64 " + String(fnv1a64(bytes), radix: 16) }
        return text + ">"
    }

    /// FNV-1a, 64 bits: a checksum that makes any change to long data visible in a stable dump.
    package static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// A value on one line: a scalar as written, a container by its count.
    package static func scalar(_ v: PlistValue) -> String {
        switch v {
        case .string(let s): return quoted(s)
        case .integer(let i): return i.description
        case .real(let r): return r.width == .bits32 ? "\(Float(r.value)) (float)" : "\(r.value)"
        case .bool(let b): return b ? "true" : "false"
        case .date(let d):
            // The shortest digits that read back as the date, as JSON writes them (+0.618s, not +0.618000054359436s).
            let frac = ISO8601.fraction(of: d.secondsSinceReferenceDate)
            return ISO8601.format(d) + (frac.isEmpty ? "" : " (+0\(frac)s)")
        case .data(let bytes): return data(bytes)
        case .uid(let u): return "UID(\(u))"
        case .null: return "null"
        case .array(let a): return "[\(counted(a.count, "item"))]"
        case .dictionary(let d): return "{\(counted(d.count, "key"))}"
        }
    }
}
