/// String decoding straight from a binary plist's buffer.
enum BinaryStrings {
    /// An `0x5X` string. Bytes above 0x7F (which CoreFoundation's writer never
    /// produces there) are read as ISO Latin-1 rather than rejected.
    static func ascii(_ bytes: UnsafeRawBufferPointer) -> String {
        var allASCII = true
        for b in bytes where b >= 0x80 {
            allASCII = false
            break
        }
        if allASCII { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var n = 0
            for b in bytes {
                if b < 0x80 {
                    out[n] = b; n += 1
                } else {
                    out[n] = 0xC0 | (b >> 6); out[n + 1] = 0x80 | (b & 0x3F); n += 2
                }
            }
            return n
        }
    }

    /// A UTF-16BE string (`0x6X`). Returns the string and whether a lone surrogate
    /// was replaced by U+FFFD.
    static func utf16BE(_ bytes: UnsafeRawBufferPointer) -> (String, Bool) {
        let units = bytes.count / 2
        var lone = false
        let s = String(unsafeUninitializedCapacity: units * 3) { out in
            var n = 0
            var i = 0
            @inline(__always) func unit(_ k: Int) -> UInt32 {
                UInt32(bytes[2 * k]) << 8 | UInt32(bytes[2 * k + 1])
            }
            while i < units {
                var c = unit(i)
                i += 1
                if c >= 0xD800, c <= 0xDFFF {
                    if c <= 0xDBFF, i < units {
                        let d = unit(i)
                        if d >= 0xDC00, d <= 0xDFFF {
                            c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00)
                            i += 1
                        } else {
                            c = 0xFFFD; lone = true
                        }
                    } else {
                        c = 0xFFFD; lone = true
                    }
                }
                if c < 0x80 {
                    out[n] = UInt8(c); n += 1
                } else if c < 0x800 {
                    out[n] = UInt8(0xC0 | (c >> 6)); out[n + 1] = UInt8(0x80 | (c & 0x3F)); n += 2
                } else if c < 0x10000 {
                    out[n] = UInt8(0xE0 | (c >> 12)); out[n + 1] = UInt8(0x80 | ((c >> 6) & 0x3F))
                    out[n + 2] = UInt8(0x80 | (c & 0x3F)); n += 3
                } else {
                    out[n] = UInt8(0xF0 | (c >> 18)); out[n + 1] = UInt8(0x80 | ((c >> 12) & 0x3F))
                    out[n + 2] = UInt8(0x80 | ((c >> 6) & 0x3F)); out[n + 3] = UInt8(0x80 | (c & 0x3F)); n += 4
                }
            }
            return n
        }
        return (s, lone)
    }
}
