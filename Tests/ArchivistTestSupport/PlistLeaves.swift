import ArchivistCore

/// What the round-trip tests ask of a value's scalars: a map over them, a
/// search, and what the formats that hold less keep of them.
public enum PlistLeaves {
    /// Applies `leaf` to every scalar of a value.
    public static func map(_ v: PlistValue, _ leaf: (PlistValue) -> PlistValue) -> PlistValue {
        switch v {
        case .array(let items): return .array(items.map { map($0, leaf) })
        case .dictionary(let d): return .dictionary(PlistDictionary(d.map { ($0.0, map($0.1, leaf)) }))
        case .string, .integer, .real, .bool, .date, .data, .uid, .null: return leaf(v)
        }
    }

    /// True when `test` holds for some scalar of the value.
    public static func any(_ v: PlistValue, _ test: (PlistValue) -> Bool) -> Bool {
        switch v {
        case .array(let items): return items.contains { any($0, test) }
        case .dictionary(let d): return d.values.contains { any($0, test) }
        case .string, .integer, .real, .bool, .date, .data, .uid, .null: return test(v)
        }
    }

    /// The value with every date floored to a whole second, as XML keeps it.
    public static func wholeSecondDates(_ v: PlistValue) -> PlistValue {
        map(v) { leaf in
            guard case .date(let d) = leaf else { return leaf }
            return .date(PlistDate(secondsSinceReferenceDate: d.secondsSinceReferenceDate.rounded(.down)))
        }
    }

    /// OpenStep holds strings, data, arrays and dictionaries only.
    public static func openStepHolds(_ v: PlistValue) -> Bool {
        !any(v) { leaf in
            switch leaf {
            case .string, .data, .array, .dictionary: return false
            case .integer, .real, .bool, .date, .uid, .null: return true
            }
        }
    }
}
