import ArchivistCore

/// Bookmark data as `dump --json` shows it: `{"data": BASE64, "bookmark":
/// {...}}`, the bytes and what they hold (the text view's `<data …> holding
/// a bookmark {…}`); any other data stays a base64 string.
package enum BookmarkJSON {
    /// `value` with every data value that decodes as a bookmark replaced by
    /// its `{"data", "bookmark"}` pair; containers are walked (no deeper than
    /// the reader let them nest). A bookmark holding a real JSON cannot write
    /// (NaN, infinity) stays data.
    package static func decoded(_ value: PlistValue) -> PlistValue {
        switch value {
        case .data(let bytes):
            return replacement(for: bytes) ?? value
        case .array(let items):
            guard items.contains(where: mayHold) else { return value }
            return .array(items.map(decoded))
        case .dictionary(let d):
            guard d.values.contains(where: mayHold) else { return value }
            var out = PlistDictionary(minimumCapacity: d.count)
            for (k, v) in d { out.appendUnchecked(key: k, value: decoded(v)) }
            return .dictionary(out)
        case .string, .integer, .real, .bool, .date, .uid, .null:
            return value
        }
    }

    /// The `{"data", "bookmark"}` pair that stands for data holding a
    /// bookmark; nil for other data.
    package static func replacement(for bytes: [UInt8]) -> PlistValue? {
        guard Bookmark.looksLikeBookmark(bytes), let bookmark = Bookmark.decode(bytes)?.value, !hasNonFiniteReal(bookmark) else { return nil }
        return .dictionary(PlistDictionary([("data", .data(bytes)), ("bookmark", bookmark)]))
    }

    /// True when a value is or holds data that starts like a bookmark.
    private static func mayHold(_ value: PlistValue) -> Bool {
        switch value {
        case .data(let bytes): return Bookmark.looksLikeBookmark(bytes)
        case .array(let items): return items.contains(where: mayHold)
        case .dictionary(let d): return d.values.contains(where: mayHold)
        case .string, .integer, .real, .bool, .date, .uid, .null: return false
        }
    }

    private static func hasNonFiniteReal(_ value: PlistValue) -> Bool {
        switch value {
        case .real(let r): return !r.value.isFinite
        case .array(let items): return items.contains(where: hasNonFiniteReal)
        case .dictionary(let d): return d.values.contains(where: hasNonFiniteReal)
        case .string, .integer, .bool, .date, .data, .uid, .null: return false
        }
    }
}
