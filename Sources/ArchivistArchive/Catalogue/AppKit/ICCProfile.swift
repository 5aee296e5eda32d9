/// The little of an ICC colour profile `NSColor` needs: its description.
enum ICCProfile {
    /// The ASCII text of the `desc` tag of an ICC v2 profile (type `desc`:
    /// a big-endian count, then that many bytes ending in NUL), as the
    /// `NSICC` of the custom colour space in `sparkle/.../SUStatus.nib` holds
    /// ("Generic Gray Gamma 2.2 Profile"); nil for anything else (v4 `mluc`
    /// descriptions, truncated or malformed profiles).
    static func description(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 132, let tags = u32(bytes, 128), tags <= 1024 else { return nil }
        for n in 0..<tags {
            let entry = 132 + n * 12
            guard let signature = u32(bytes, entry), let offset = u32(bytes, entry + 4), let size = u32(bytes, entry + 8) else { return nil }
            guard signature == 0x6465_7363 else { continue } // "desc"
            guard size >= 12, offset <= bytes.count, size <= bytes.count - offset,
                  u32(bytes, offset) == 0x6465_7363, let count = u32(bytes, offset + 8), count <= size - 12 else { return nil }
            var text = bytes[(offset + 12)..<(offset + 12 + count)]
            while text.last == 0 { text.removeLast() }
            guard !text.isEmpty, text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
        return nil
    }

    /// The big-endian 32-bit number at `at`, or nil past the end.
    private static func u32(_ b: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at <= b.count - 4 else { return nil }
        return Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }
}
