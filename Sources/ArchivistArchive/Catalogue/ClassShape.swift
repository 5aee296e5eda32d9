/// The neutral shapes a catalogued class reads into. Views switch over these
/// (and over ``FoundationValue``, the value of each shape), never over class
/// names: a class added to ``ClassCatalogue`` is shown, exported, checked
/// and edited as its shape is.
package enum ClassShape: String, Sendable, CaseIterable {
    /// Elements in order (NSArray, NSSet, NSOrderedSet, NSHashTable).
    case sequence
    /// Keys and values (NSDictionary, NSMapTable).
    case map
    /// Members with counts (NSCountedSet).
    case countedSet
    /// A string (NSString, NSUUID's text, NSLocale's identifier, NSTimeZone's name).
    case text
    /// A string with a reference to its attributes (NSAttributedString).
    case attributedText
    /// Bytes (NSData).
    case bytes
    /// A date (NSDate).
    case date
    /// A wrapper of references to other objects (NSURL: its relative string and base).
    case reference
    /// Nothing (NSNull).
    case null
    /// One value with named fields, shown on one line (NSValue's geometry,
    /// NSColor, NSFont, NSIndexSet, a nib connector, CKRecordID); key paths
    /// still reach its archived fields.
    case scalar
    /// A class known by name only: shown, exported and checked by its fields.
    case opaque
}

extension FoundationValue {
    /// The shape this value is of.
    var shape: ClassShape {
        switch self {
        case .list: return .sequence
        case .counted: return .countedSet
        case .map: return .map
        case .string: return .text
        case .attributedString: return .attributedText
        case .data: return .bytes
        case .date: return .date
        case .url: return .reference
        case .null: return .null
        case .described(let d): return d.shape
        case .line: return .scalar
        }
    }

    /// The keys of a value of the ``ClassShape/map`` shape; empty for others.
    var mapKeys: [Int] {
        if case .map(let keys, _) = self { return keys }
        return []
    }
}
