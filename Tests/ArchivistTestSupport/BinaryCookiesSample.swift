/// Generated binary cookie stores (`Cookies.binarycookies`), laid out as
/// the format's documentation lays them out, for the reader's tests and the
/// guide's example.
public enum BinaryCookiesSample {
    /// One cookie record's fields.
    public struct Cookie: Sendable {
        public var domain, name, path, value: String
        public var flags: UInt32
        public var expires, created: Double
        public var comment: String?

        public init(domain: String, name: String, path: String = "/", value: String, flags: UInt32 = 0,
                    expires: Double = 800_000_000, created: Double = 700_000_000, comment: String? = nil) {
            self.domain = domain; self.name = name; self.path = path; self.value = value
            self.flags = flags; self.expires = expires; self.created = created; self.comment = comment
        }
    }

    /// A store of `pages` (each a list of cookies), with the checksum, the
    /// footer and, when `policy` holds bytes, their length and those bytes.
    public static func make(_ pages: [[Cookie]], policy: [UInt8]? = nil) -> [UInt8] {
        let bodies = pages.map(page)
        var out = Array("cook".utf8) + be(UInt32(pages.count))
        for b in bodies { out += be(UInt32(b.count)) }
        var checksum: UInt32 = 0
        for b in bodies {
            for i in stride(from: 0, to: b.count, by: 4) { checksum &+= UInt32(b[i]) }
            out += b
        }
        out += be(checksum) + [0x07, 0x17, 0x20, 0x05]
        if let policy { out += be(UInt32(policy.count)) + policy }
        return out
    }

    /// Two pages of three cookies with the flags set every way.
    public static let examplePages: [[Cookie]] = [
        [Cookie(domain: ".example.com", name: "session", value: "s3cr3t", flags: 5, expires: 757_382_400),
         Cookie(domain: "www.example.com", name: "theme", path: "/app", value: "dark", flags: 0, expires: 788_918_400)],
        [Cookie(domain: ".example.org", name: "lang", value: "en", flags: 1, expires: 820_454_400, comment: "language")],
    ]

    /// The example pages, with a (token) cookie-policy plist after the footer as newer stores have.
    public static var example: [UInt8] { make(examplePages, policy: Array("bplist00".utf8) + [0x08, 0, 0, 0]) }

    static func page(_ cookies: [Cookie]) -> [UInt8] {
        let records = cookies.map(record)
        var out: [UInt8] = [0, 0, 1, 0] + le(UInt32(cookies.count))
        var offset = 8 + 4 * cookies.count + 4
        for r in records { out += le(UInt32(offset)); offset += r.count }
        out += [0, 0, 0, 0]
        for r in records { out += r }
        return out
    }

    static func record(_ c: Cookie) -> [UInt8] {
        var strings: [UInt8] = []
        func place(_ s: String) -> UInt32 {
            let at = UInt32(56 + strings.count)
            strings += Array(s.utf8) + [0]
            return at
        }
        let comment = c.comment.map(place) ?? 0
        let domain = place(c.domain), name = place(c.name), path = place(c.path), value = place(c.value)
        var out = le(UInt32(56 + strings.count)) + le(0) + le(c.flags) + le(0)
        out += le(domain) + le(name) + le(path) + le(value) + le(comment) + le(0)
        out += le64(c.expires.bitPattern) + le64(c.created.bitPattern)
        return out + strings
    }

    public static func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    public static func be(_ v: UInt32) -> [UInt8] { le(v).reversed() }
    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
}
