/// Transcoding of a binary plist's strings to UTF-8, straight from its buffer.
enum BinaryStrings {
    /// True when every byte is below 0x80 (the text is its own UTF-8).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for b in bytes where b >= 0x80 { return false }
        return true
    }

    /// The most UTF-8 bytes a `0x5X` string of `count` bytes becomes.
    static func maxLatin1UTF8(_ count: Int) -> Int { count * 2 }

    /// The most UTF-8 bytes a UTF-16 string of `byteCount` bytes becomes.
    static func maxUTF16UTF8(_ byteCount: Int) -> Int { byteCount / 2 * 3 }

    /// Writes the UTF-8 of an `0x5X` string to `out` (at least
    /// `maxLatin1UTF8(bytes.count)` bytes) and returns how many it wrote. Bytes
    /// above 0x7F (which CoreFoundation's writer never produces there) are read
    /// as ISO Latin-1 rather than rejected.
    static func latin1(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> Int {
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

    /// Writes the UTF-8 of a UTF-16BE string (`0x6X`) to `out` (at least
    /// `maxUTF16UTF8(bytes.count)` bytes). Returns how many bytes it wrote and
    /// whether a lone surrogate was replaced by U+FFFD.
    static func utf16BE(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) -> (Int, Bool) {
        let units = bytes.count / 2
        var lone = false
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
        return (n, lone)
    }

    /// True when a UTF-16BE string holds a surrogate without its partner.
    static func hasLoneSurrogate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let units = bytes.count / 2
        var i = 0
        while i < units {
            let c = UInt32(bytes[2 * i]) << 8 | UInt32(bytes[2 * i + 1])
            i += 1
            guard c >= 0xD800, c <= 0xDFFF else { continue }
            guard c <= 0xDBFF, i < units else { return true }
            let d = UInt32(bytes[2 * i]) << 8 | UInt32(bytes[2 * i + 1])
            guard d >= 0xDC00, d <= 0xDFFF else { return true }
            i += 1
        }
        return false
    }
}
