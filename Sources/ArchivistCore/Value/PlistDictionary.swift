/// A property-list dictionary: string keys in the order they were read, stored as
/// two parallel arrays (no hashing while reading).
///
/// Keys are unique: `set` replaces the value of an existing key in place. Lookups
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
    public init(minimumCapacity capacity: Int) {
        keys = []
        values = []
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// A dictionary from key-value pairs; a repeated key keeps its first
    /// position and its last value.
    public init(_ pairs: [(String, PlistValue)]) {
        self.init(minimumCapacity: pairs.count)
        var positions: [String: Int] = [:]
        for (k, v) in pairs {
            if let i = positions[k] {
                values[i] = v
            } else {
                positions[k] = keys.count
                keys.append(k)
                values.append(v)
            }
        }
    }

    /// Appends a pair without checking for a duplicate key. Readers that have
    /// already checked (or that must keep duplicates out by other means) use it.
    public mutating func appendUnchecked(key: String, value: PlistValue) {
        keys.append(key)
        values.append(value)
    }

    /// The number of entries.
    @inlinable public var count: Int { keys.count }

    /// True when there are no entries.
    @inlinable public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, if present.
    public func index(forKey key: String) -> Int? {
        keys.firstIndex(of: key)
    }

    /// The value for `key`; setting nil removes the entry, setting a value for an
    /// existing key replaces it where it stands.
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
    public mutating func setValue(_ value: PlistValue, at index: Int) {
        values[index] = value
    }

    /// The entries, in order.
    public func makeIterator() -> Zip2Sequence<[String], [PlistValue]>.Iterator {
        zip(keys, values).makeIterator()
    }

    /// Indices of the entries with keys sorted as CoreFoundation sorts them:
    /// by UTF-16 code units, literally.
    public func indicesSortedByUTF16() -> [Int] {
        let units = keys.map { Array($0.utf16) }
        return keys.indices.sorted { units[$0].lexicographicallyPrecedes(units[$1]) }
    }

    /// Unordered equality: the same keys with equal values.
    public static func == (lhs: PlistDictionary, rhs: PlistDictionary) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        if lhs.count <= 16 {
            for (k, v) in lhs {
                guard let other = rhs[k], other == v else { return false }
            }
            return true
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(rhs.count)
        for (i, k) in rhs.keys.enumerated() { index[k] = i }
        for (k, v) in lhs {
            guard let i = index[k], rhs.values[i] == v else { return false }
        }
        return true
    }
}
