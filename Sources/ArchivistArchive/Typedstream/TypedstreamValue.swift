import ArchivistCore

/// One value read from a typedstream, before it becomes part of the archive tree.
enum TypedstreamValue {
    case int(Int64)
    case uint(UInt64)
    case real(Double, float: Bool)
    case bool(Bool)
    /// A C string, unshared string, atom or selector: bytes of no stated encoding.
    case text([UInt8])
    /// An object: its index in `$objects` (0 for nil).
    case object(Int)
    /// A class value (`#`): its name.
    case className(String)
    /// A `[Nc]` or `[NC]` array.
    case bytes([UInt8])
    /// An array of another type or a structure.
    case list([TypedstreamValue])
    /// A nil string or class, or the `!` type (no bytes).
    case none

    /// The value as it is kept in an object's field: objects as UIDs, text as
    /// a string when it is UTF-8 (data otherwise).
    var plist: PlistValue {
        switch self {
        case .int(let i): return .int(i)
        case .uint(let u): return .integer(PlistInteger(u))
        case .real(let d, let float): return .real(PlistReal(d, width: float ? .bits32 : .bits64))
        case .bool(let b): return .bool(b)
        case .text(let b): return Self.string(b).map { .string($0) } ?? .data(b)
        case .object(let i): return .uid(UInt64(i))
        case .className(let name): return .string(name)
        case .bytes(let b): return .data(b)
        case .list(let items): return .array(items.map(\.plist))
        case .none: return .uid(0)
        }
    }

    /// The value as a plain `$top` entry, when it is a scalar.
    var scalar: PlistValue? {
        switch self {
        case .int, .uint, .real, .bool, .text, .className, .bytes: return plist
        case .object, .list, .none: return nil
        }
    }

    /// Bytes as a string when they are valid UTF-8.
    static func string(_ bytes: [UInt8]) -> String? {
        let s = String(decoding: bytes, as: UTF8.self)
        return s.utf8.elementsEqual(bytes) ? s : nil
    }
}
