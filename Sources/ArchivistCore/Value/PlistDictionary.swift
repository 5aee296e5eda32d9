/// A property-list dictionary: string keys in the order they were read, stored as
/// two parallel arrays (no hashing while reading).
///
/// Keys are unique: `set` replaces the value of an existing key in place. Keys
/// are the same only when their code points are (`PlistKeys`), as
/// CoreFoundation compares them: `"é"` and `"e\u{301}"` are two keys. Lookups
/// scan linearly; callers that look up many keys build their own index.
public struct PlistDictionary: Sendable, Equatable, Sequence {
    /// The keys, in order.
    public private(set) var keys: [String]
    /// The values, parallel to `keys`.
    public private(set) var values: [PlistValue]

    /// An empty dictionary.
    public init() {
        keys = []
        values = []
    }

    /// A dictionary with room for `capacity` entries.
    ///
    /// - Parameter capacity: The number of entries to reserve room for.
    public init(minimumCapacity capacity: Int) {
        keys = []
        values = []
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// A dictionary from key-value pairs; a repeated key keeps its first
    /// position and its last value.
    ///
    /// - Parameter pairs: Keys and values in order; a repeated key keeps its
    ///   last value at its first position.
    public init(_ pairs: [(String, PlistValue)]) {
        self.init(minimumCapacity: pairs.count)
        var positions: [PlistKey: Int] = [:]
        for (k, v) in pairs {
            if let i = positions[PlistKey(k)] {
                values[i] = v
            } else {
                positions[PlistKey(k)] = keys.count
                keys.append(k)
                values.append(v)
            }
        }
    }

    /// Appends a pair without checking for a duplicate key. Readers that have
    /// already checked (or that must keep duplicates out by other means) use it.
    package mutating func appendUnchecked(key: String, value: PlistValue) {
        keys.append(key)
        values.append(value)
    }

    /// The number of entries.
    @inlinable public var count: Int { keys.count }

    /// True when there are no entries.
    @inlinable public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key` (the same code points), if present.
    ///
    /// - Parameter key: The key, compared by code points.
    /// - Returns: The entry's position, or nil.
    public func index(forKey key: String) -> Int? {
        PlistKeys.firstIndex(of: key, in: keys)
    }

    /// The value for `key`; setting nil removes the entry, setting a value for an
    /// existing key replaces it where it stands.
    ///
    /// - Parameter key: The key, compared by code points.
    public subscript(key: String) -> PlistValue? {
        get {
            guard let i = index(forKey: key) else { return nil }
            return values[i]
        }
        set {
            if let i = index(forKey: key) {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Replaces the value at a position.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - index: A position of an entry (from ``index(forKey:)``).
    public mutating func setValue(_ value: PlistValue, at index: Int) {
        values[index] = value
    }

    /// The entries, in order.
    public func makeIterator() -> Zip2Sequence<[String], [PlistValue]>.Iterator {
        zip(keys, values).makeIterator()
    }

    /// Indices of the entries with keys sorted as CoreFoundation sorts them:
    /// by UTF-16 code units, literally.
    ///
    /// Keys without characters beyond U+FFFF compare by their UTF-8 bytes,
    /// which order them exactly as UTF-16 code units do; only a pair in which a
    /// key holds such a character (a surrogate pair in UTF-16) is compared by
    /// its UTF-16 code units. Keys already in order cost one pass.
    package func indicesSortedByUTF16() -> [Int] {
        let n = keys.count
        var order = Array(0..<n)
        guard n > 1 else { return order }
        var sorted = true
        for i in 1..<n where !PlistDictionary.precedesInUTF16(keys[i - 1], keys[i]) {
            sorted = false
            break
        }
        if sorted { return order }
        if n <= 16 {
            // Insertion sort: stable, and quick for the small dictionaries that dominate.
            for i in 1..<n {
                let current = order[i]
                var j = i
                while j > 0, PlistDictionary.precedesInUTF16(keys[current], keys[order[j - 1]]) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = current
            }
            return order
        }
        order.sort { PlistDictionary.precedesInUTF16(keys[$0], keys[$1]) }
        return order
    }

    /// True when `a` sorts before `b` by UTF-16 code units (CFStringCompare with no options).
    @usableFromInline
    static func precedesInUTF16(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        let byBytes: Bool? = a.withUTF8 { x in b.withUTF8 { y in precedesInUTF16(utf8: x, y) } }
        if let byBytes { return byBytes }
        return a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    /// Whether UTF-8 text `x` sorts before `y` by UTF-16 code units, decided
    /// on the bytes; nil when only UTF-16 decides (a character beyond U+FFFF
    /// meets one in U+E000...U+FFFF).
    @inline(__always)
    static func precedesInUTF16(utf8 x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
        let common = Swift.min(x.count, y.count)
        var i = 0
        while i < common, x[i] == y[i] { i += 1 }
        if i == common { return x.count < y.count }
        // UTF-8 byte order is code-point order; it differs from UTF-16
        // order only where a character beyond U+FFFF (lead byte 0xF0
        // or more) meets one in U+E000...U+FFFF.
        if x[i] >= 0xEE, y[i] >= 0xEE { return nil }
        return x[i] < y[i]
    }

    /// Unordered equality: the same keys with equal values.
    public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys.elementsEqual(rhs.keys, by: PlistKeys.same) { return lhs.values == rhs.values }
        if lhs.count <= 16 {
            for (k, v) in lhs {
                guard let other = rhs[k], other == v else { return false }
            }
            return true
        }
        var index: [PlistKey: Int] = [:]
        index.reserveCapacity(rhs.count)
        for (i, k) in rhs.keys.enumerated() { index[PlistKey(k)] = i }
        for (k, v) in lhs {
            guard let i = index[PlistKey(k)], rhs.values[i] == v else { return false }
        }
        return true
    }
}
