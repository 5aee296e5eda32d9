/// Base64 with the standard alphabet and `=` padding (RFC 4648 §4), as JSON
/// output of `data` values and XML `<data>` use it.
package enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 0...63 for alphabet bytes, 0xFF for everything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// The padded base64 text of `bytes`, on one line.
    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let out = ByteSink(capacity: (bytes.count + 2) / 3 * 4)
        bytes.withUnsafeBufferPointer { encode($0, into: out) }
        return out.bytes()
    }

    /// Appends the padded base64 text of `bytes` to a writer's buffer, on one line.
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into out: ByteSink) {
        let n = bytes.count
        out.appendUninitialized(max: (n + 2) / 3 * 4) { p in
            alphabet.withUnsafeBufferPointer { a in
                var i = 0, k = 0
                while i + 3 <= n {
                    let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                    p[k] = a[Int(v >> 18)]
                    p[k + 1] = a[Int(v >> 12 & 0x3F)]
                    p[k + 2] = a[Int(v >> 6 & 0x3F)]
                    p[k + 3] = a[Int(v & 0x3F)]
                    i += 3; k += 4
                }
                switch n - i {
                case 1:
                    let v = UInt32(bytes[i]) << 16
                    p[k] = a[Int(v >> 18)]; p[k + 1] = a[Int(v >> 12 & 0x3F)]
                    p[k + 2] = UInt8(ascii: "="); p[k + 3] = UInt8(ascii: "=")
                    k += 4
                case 2:
                    let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
                    p[k] = a[Int(v >> 18)]; p[k + 1] = a[Int(v >> 12 & 0x3F)]
                    p[k + 2] = a[Int(v >> 6 & 0x3F)]; p[k + 3] = UInt8(ascii: "=")
                    k += 4
                default:
                    break
                }
                return k
            }
        }
    }

    /// The bytes of base64 text, or nil when it is not base64. ASCII whitespace
    /// anywhere is skipped (line-wrapped text decodes); `=` may only end the
    /// text, and may be left out.
    package static func decode<C: Collection>(_ text: C) -> [UInt8]? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var pending = 0
        var padding = 0
        for c in text {
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C { continue }
            if c == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            let v = values[Int(c)]
            guard v != 0xFF, padding == 0 else { return nil }
            accumulator = accumulator << 6 | UInt32(v)
            pending += 1
            if pending == 4 {
                out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                out.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                pending = 0
            }
        }
        switch pending {
        case 0:
            guard padding == 0 else { return nil }
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            out.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            out.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            out.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            return nil
        }
        return out
    }

    /// Decodes `<data>` text the way CoreFoundation's XML parser does:
    /// characters outside the alphabet are skipped, `=` counts as a zero
    /// sextet, a group of four sextets yields its first byte, its second unless
    /// the `=` signs just before it (ASCII whitespace between them does not
    /// count) number two or more, and its third unless there is one; an
    /// incomplete last group is dropped. The bytes go to `out`, which has room
    /// for `maxDecodedCount(text.count)`; the result is how many. Nil when the
    /// text holds a byte outside ASCII, which CoreFoundation refuses.
    static func decodeLikeCoreFoundation(_ text: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int? {
        values.withUnsafeBufferPointer { values in
            var k = 0
            var accumulator: UInt32 = 0
            var pending = 0
            var equals = 0
            for c in text {
                guard c < 0x80 else { return nil }
                let v: UInt8
                if c == UInt8(ascii: "=") {
                    equals += 1
                    v = 0
                } else {
                    // C's isspace: space, tab, LF, VT, FF, CR.
                    if !(c == 0x20 || (0x09...0x0D).contains(c)) { equals = 0 }
                    v = values[Int(c)]
                    if v == 0xFF { continue }
                }
                accumulator = accumulator << 6 | UInt32(v)
                pending += 1
                if pending == 4 {
                    out[k] = UInt8(truncatingIfNeeded: accumulator >> 16)
                    k += 1
                    if equals < 2 { out[k] = UInt8(truncatingIfNeeded: accumulator >> 8); k += 1 }
                    if equals < 1 { out[k] = UInt8(truncatingIfNeeded: accumulator); k += 1 }
                    accumulator = 0
                    pending = 0
                }
            }
            return k
        }
    }

    /// The most bytes `decodeLikeCoreFoundation` makes of `count` bytes of text.
    static func maxDecodedCount(_ count: Int) -> Int { count / 4 * 3 }
}
