/// The kind of a node of a property list, whatever stores it.
public enum PlistKind: UInt8, Sendable, CaseIterable {
    /// A Unicode string.
    case string
    /// An integer (signed 64-bit, or unsigned up to 2^64-1).
    case integer
    /// A 32- or 64-bit floating-point number.
    case real
    /// A boolean.
    case bool
    /// A point in time.
    case date
    /// Raw bytes.
    case data
    /// An ordered list.
    case array
    /// A dictionary with string keys.
    case dictionary
    /// A `CF$UID` reference into a keyed archive's `$objects`.
    case uid
    /// The binary format's null object.
    case null

    /// The kind's name as users see it (`string`, `integer`, `dictionary`...),
    /// the same as `PlistValue.typeName`.
    public var name: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .uid: return "uid"
        case .null: return "null"
        }
    }
}

extension PlistKind {
    /// The name with its article, for messages (`an integer`, `a UID`), the
    /// same as `PlistValue.aTypeName`.
    package var nameWithArticle: String {
        switch self {
        case .integer, .array: return "an " + name
        case .uid: return "a UID"
        case .string, .real, .bool, .date, .data, .dictionary, .null: return "a " + name
        }
    }
}
