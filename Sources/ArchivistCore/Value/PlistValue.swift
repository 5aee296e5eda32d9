/// A property list as an editable value: everything a property list in any
/// supported format can hold.
///
/// Readers build a compact ``PlistTree`` and writers write one; a
/// `PlistValue` is for values built or changed in code (`PlistTree.value`
/// makes one from a tree, and `PropertyList.write(_:as:options:)` writes one
/// by making it a tree).
public enum PlistValue: Sendable {
    /// A Unicode string.
    case string(String)
    /// An integer in the signed 64-bit range or an unsigned value up to 2^64-1.
    case integer(PlistInteger)
    /// A floating-point number, remembering whether it was stored in 32 or 64 bits.
    case real(PlistReal)
    /// A boolean.
    case bool(Bool)
    /// A point in time, as seconds since 2001-01-01T00:00:00Z.
    case date(PlistDate)
    /// Raw bytes.
    case data([UInt8])
    /// An ordered list.
    case array([PlistValue])
    /// A dictionary with string keys, in the order they were read.
    case dictionary(PlistDictionary)
    /// A `CF$UID` reference into a keyed archive's `$objects`.
    case uid(UInt64)
    /// The binary format's null object (0x00). Other formats have no null.
    case null
}

extension PlistValue {
    /// Shorthand for an integer node from a signed value.
    ///
    /// - Parameter value: The integer.
    /// - Returns: `.integer(PlistInteger(value))`.
    public static func int(_ value: Int64) -> PlistValue { .integer(PlistInteger(value)) }
    /// Shorthand for a 64-bit real node.
    ///
    /// - Parameter value: The real.
    /// - Returns: `.real(PlistReal(value))`.
    public static func double(_ value: Double) -> PlistValue { .real(PlistReal(value)) }

    /// The kind of this node.
    public var kind: PlistKind {
        switch self {
        case .string: return .string
        case .integer: return .integer
        case .real: return .real
        case .bool: return .bool
        case .date: return .date
        case .data: return .data
        case .array: return .array
        case .dictionary: return .dictionary
        case .uid: return .uid
        case .null: return .null
        }
    }

    /// The name of this node's type as users see it (`string`, `integer`, `dictionary`...).
    package var typeName: String { kind.name }

    /// The type name with its article, for messages (`an integer`, `a string`).
    package var aTypeName: String { kind.nameWithArticle }

    /// The string, when this node is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The dictionary, when this node is a dictionary.
    public var dictionaryValue: PlistDictionary? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// The elements, when this node is an array.
    public var arrayValue: [PlistValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The integer, when this node is an integer.
    public var integerValue: PlistInteger? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// The real, when this node is a real.
    public var realValue: PlistReal? {
        if case .real(let r) = self { return r }
        return nil
    }

    /// The boolean, when this node is a boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The date, when this node is a date.
    public var dateValue: PlistDate? {
        if case .date(let d) = self { return d }
        return nil
    }

    /// The bytes, when this node is data.
    public var dataValue: [UInt8]? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// The `CF$UID` number, when this node is a UID.
    public var uidValue: UInt64? {
        if case .uid(let u) = self { return u }
        return nil
    }

    /// The value of `key` (compared by code points), when this node is a
    /// dictionary that holds it.
    ///
    /// - Parameter key: The key, compared by code points.
    public subscript(key: String) -> PlistValue? {
        dictionaryValue?[key]
    }

    /// Element `index`, when this node is an array that has it.
    ///
    /// - Parameter index: The element's position, from 0.
    public subscript(index: Int) -> PlistValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }
}

extension PlistValue: Equatable {
    /// Structural equality: dictionaries compare as unordered maps (XML output
    /// sorts keys, so order is not part of a property list's value), reals by
    /// value (NaN equals NaN; the 32/64-bit width is ignored), dates by value,
    /// strings (and keys) by code points, as `-[NSString isEqual:]` compares them.
    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return PlistKeys.same(a, b)
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)): return a == b
        case (.uid(let a), .uid(let b)): return a == b
        case (.null, .null): return true
        case (.string, _), (.integer, _), (.real, _), (.bool, _), (.date, _), (.data, _),
             (.array, _), (.dictionary, _), (.uid, _), (.null, _):
            return false
        }
    }
}

extension PlistValue {
    /// The same tree with every dictionary's keys sorted as CoreFoundation sorts
    /// them (by UTF-16 code units): a canonical form whose `description` does not
    /// depend on the order keys were read in.
    package var sortingKeys: PlistValue {
        switch self {
        case .array(let items): return .array(items.map(\.sortingKeys))
        case .dictionary(let d):
            var sorted = PlistDictionary(minimumCapacity: d.count)
            for i in d.indicesSortedByUTF16() { sorted.appendUnchecked(key: d.keys[i], value: d.values[i].sortingKeys) }
            return .dictionary(sorted)
        case .string, .integer, .real, .bool, .date, .data, .uid, .null: return self
        }
    }
}
