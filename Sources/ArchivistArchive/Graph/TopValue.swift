import ArchivistCore

/// A plain value of `$top` rather than a UID: NSKeyedArchiver writes one for a
/// top-level `encodeBool(_:forKey:)` or `encodeInteger(_:forKey:)` (a compiled
/// nib's `IB.systemFontUpdateVersion`, a CKRecord's `HasUpdatedParentReference`).
package struct TopValue: Sendable, Equatable {
    /// The `$top` key.
    package var key: String
    /// The value, as written (an integer, real, bool, string, data or date).
    package var value: PlistValue
    /// Where the entry stands among all `$top` entries (objects and values).
    package var position: Int

    /// A plain `$top` entry.
    package init(key: String, value: PlistValue, position: Int) {
        self.key = key
        self.value = value
        self.position = position
    }

    /// Whether `$top` may hold a value of this kind as it is: scalars, not
    /// containers (which could hide references the validator does not follow).
    static func isPlain(_ kind: PlistKind) -> Bool {
        switch kind {
        case .integer, .real, .bool, .string, .data, .date: return true
        case .array, .dictionary, .uid, .null: return false
        }
    }
}

/// One `$top` entry: an object of `$objects`, or a plain value.
package enum TopEntry: Sendable, Equatable {
    /// A UID: the index of an entry of `$objects`.
    case object(Int)
    /// A plain value written in `$top` itself.
    case value(PlistValue)
}

/// Every `$top` entry in the order read: the objects of `top` with the plain
/// values put back at their positions.
func orderedTop(_ top: [(key: String, object: Int)], _ values: [TopValue]) -> [(key: String, entry: TopEntry)] {
    if values.isEmpty { return top.map { ($0.key, .object($0.object)) } }
    var out: [(key: String, entry: TopEntry)] = []
    out.reserveCapacity(top.count + values.count)
    var objects = top[...]
    for value in values.sorted(by: { $0.position < $1.position }) {
        while out.count < value.position, let next = objects.popFirst() { out.append((next.key, .object(next.object))) }
        out.append((value.key, .value(value.value)))
    }
    for next in objects { out.append((next.key, .object(next.object))) }
    return out
}
