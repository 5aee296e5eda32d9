#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Key equality as CoreFoundation decides it: two keys are the same key only
/// when they hold the same code points.
///
/// Swift's `String ==` (and so `Dictionary<String, _>`, `Set<String>` and
/// `Array<String>.firstIndex(of:)`) treats canonically equivalent text as
/// equal: `"é"` and `"e\u{301}"`, or `"K"` and the Kelvin sign U+212A. A
/// property list keeps those as distinct keys, so every key lookup compares
/// UTF-8 bytes instead (the same code points give the same bytes).
package enum PlistKeys {
    /// True when `a` and `b` hold the same code points. Native strings are
    /// compared with one `memcmp` of their UTF-8, without allocating.
    @inlinable
    package static func same(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        let quick: Bool? = x.withContiguousStorageIfAvailable { p in
            y.withContiguousStorageIfAvailable { q in
                guard let pa = p.baseAddress, let qa = q.baseAddress else { return true }
                return memcmp(pa, qa, p.count) == 0
            }
        } ?? nil
        if let quick { return quick }
        return x.elementsEqual(y)
    }

    /// The position of the first of `keys` that is the same key as `key`.
    @inlinable
    package static func firstIndex(of key: String, in keys: [String]) -> Int? {
        keys.firstIndex { same($0, key) }
    }

    /// True when `keys` holds a key that is the same key as `key`.
    @inlinable
    package static func contains(_ key: String, in keys: [String]) -> Bool {
        firstIndex(of: key, in: keys) != nil
    }

    /// For a message about a missing `key`: `; the key U+00E9 differs from
    /// U+0065 U+0301 only by Unicode normalisation` when `keys` holds such a
    /// key (the two print alike), else empty. Only called on a failed lookup.
    package static func normalisationHint(for key: String, in keys: [String]) -> String {
        guard let other = keys.first(where: { $0 == key && !same($0, key) }) else { return "" }
        func points(_ s: String) -> String {
            s.unicodeScalars.prefix(16).map { scalar in
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }.joined(separator: " ")
        }
        return "; the key \(points(other)) differs from \(points(key)) only by Unicode normalisation"
    }
}

/// A key for Swift `Dictionary` and `Set` that is equal to another only when
/// both hold the same code points (see ``PlistKeys``), and hashes its UTF-8.
package struct PlistKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's text.
    package let text: String

    /// Wraps `text`.
    @inlinable
    package init(_ text: String) { self.text = text }

    /// Same code points.
    @inlinable
    package static func == (lhs: PlistKey, rhs: PlistKey) -> Bool {
        PlistKeys.same(lhs.text, rhs.text)
    }

    /// Hashes the UTF-8 bytes (not the normalised text, as `String` does).
    @inlinable
    package func hash(into hasher: inout Hasher) {
        var text = self.text
        text.withUTF8 {
            hasher.combine($0.count)
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
    }

    /// The text.
    package var description: String { text }
}
