/// A value of a store's column that is not NULL, as SQLite holds it: an
/// archive column should hold blobs, but nothing stops an app (or a hand)
/// from storing an archive as text, or a number.
public enum StoredValue: Sendable, Equatable {
    /// A blob's bytes.
    case blob([UInt8])
    /// A text's bytes, as stored (UTF-8 as a rule).
    case text([UInt8])
    /// An integer.
    case integer(Int64)
    /// A real.
    case real(Double)

    /// The bytes a property list can be read from: a blob's or a text's; nil for numbers.
    public var bytes: [UInt8]? {
        switch self {
        case .blob(let bytes), .text(let bytes): return bytes
        case .integer, .real: return nil
        }
    }

    /// SQLite's name of the value's type, as `typeof()` gives it: blob, text, integer, real.
    package var typeName: String {
        switch self {
        case .blob: return "blob"
        case .text: return "text"
        case .integer: return "integer"
        case .real: return "real"
        }
    }

    /// The same kind of value holding `bytes`: text stays text, anything else is a blob.
    func replaced(by bytes: [UInt8]) -> StoredValue {
        if case .text = self { return .text(bytes) }
        return .blob(bytes)
    }
}
