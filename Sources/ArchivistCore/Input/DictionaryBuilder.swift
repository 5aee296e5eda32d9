/// Builds a dictionary while a text reader scans it: keeps key order, detects
/// repeated keys (comparing exact Unicode scalars, as Core Foundation compares
/// keys, so `é` and `e\u{301}` stay two keys) and remembers where each key was
/// first seen so duplicates can be reported with both positions.
struct DictionaryBuilder {
    /// The entries so far.
    private(set) var dictionary = PlistDictionary()
    /// Byte offset of each key's first occurrence, parallel to the keys.
    private var keyOffsets: [Int] = []
    /// A hash index of the keys, built once the dictionary is big enough for
    /// linear scans to cost more than hashing.
    private var index: [ExactKey: Int]?

    private static let indexThreshold = 12

    /// Adds a pair. A key already present keeps its position and gets the new
    /// value, as Apple's parsers keep the last value; the result is then the
    /// offset of the key's first occurrence.
    mutating func add(key: String, at offset: Int, value: PlistValue) -> Int? {
        if let existing = position(of: key) {
            dictionary.setValue(value, at: existing)
            return keyOffsets[existing]
        }
        dictionary.appendUnchecked(key: key, value: value)
        keyOffsets.append(offset)
        let count = dictionary.count
        if index != nil {
            index?[ExactKey(key)] = count - 1
        } else if count == Self.indexThreshold {
            var built: [ExactKey: Int] = [:]
            built.reserveCapacity(count * 2)
            for (i, k) in dictionary.keys.enumerated() { built[ExactKey(k)] = i }
            index = built
        }
        return nil
    }

    private func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        for (i, k) in dictionary.keys.enumerated() where k == key && k.utf8.elementsEqual(key.utf8) {
            return i
        }
        return nil
    }
}

/// A string compared and hashed by its UTF-8 bytes rather than by canonical
/// equivalence.
struct ExactKey: Hashable {
    var string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
