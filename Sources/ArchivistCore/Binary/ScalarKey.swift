#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of a scalar for the binary writer's uniquing: equal only when
/// the bytes written would be equal (strings by their exact UTF-8 bytes, not by
/// canonical equivalence; reals by bit pattern and width).
enum ScalarKey: Hashable {
    case string(String)
    case integer(UInt64, Bool)
    case real32(UInt32)
    case real64(UInt64)
    case date(UInt64)
    case data([UInt8])
    case uid(UInt64)
    case bool(Bool)
    case null

    static func == (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
        switch (lhs, rhs) {
        case (.string(var a), .string(var b)):
            return a.withUTF8 { x in
                b.withUTF8 { y in
                    guard x.count == y.count else { return false }
                    guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                    return memcmp(p, q, x.count) == 0
                }
            }
        case (.integer(let a, let x), .integer(let b, let y)): return a == b && x == y
        case (.real32(let a), .real32(let b)): return a == b
        case (.real64(let a), .real64(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uid(let a), .uid(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.string, _), (.integer, _), (.real32, _), (.real64, _), (.date, _), (.data, _), (.uid, _), (.bool, _), (.null, _):
            return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s):
            hasher.combine(0 as UInt8)
            var copy = s
            copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .integer(let v, let big): hasher.combine(1 as UInt8); hasher.combine(v); hasher.combine(big)
        case .real32(let v): hasher.combine(2 as UInt8); hasher.combine(v)
        case .real64(let v): hasher.combine(3 as UInt8); hasher.combine(v)
        case .date(let v): hasher.combine(4 as UInt8); hasher.combine(v)
        case .data(let d): hasher.combine(5 as UInt8); d.withUnsafeBytes { hasher.combine(bytes: $0) }
        case .uid(let v): hasher.combine(6 as UInt8); hasher.combine(v)
        case .bool(let b): hasher.combine(7 as UInt8); hasher.combine(b)
        case .null: hasher.combine(8 as UInt8)
        }
    }
}
