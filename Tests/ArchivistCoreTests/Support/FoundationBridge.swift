import Foundation
@testable import ArchivistCore

/// Conversions between Archivist's tree and the objects Foundation's
/// `PropertyListSerialization` reads and writes, for oracle tests.
enum FoundationBridge {
    /// The tree for a Foundation property-list object.
    static func value(from object: Any) -> PlistValue? {
        switch object {
        case let b as Bool where type(of: object) == Bool.self:
            return .bool(b)
        case let s as String:
            return .string(s)
        case let d as Date:
            return .date(PlistDate(secondsSinceReferenceDate: d.timeIntervalSinceReferenceDate))
        case let d as Data:
            return .data([UInt8](d))
        case let a as [Any]:
            var out: [PlistValue] = []
            for item in a {
                guard let v = value(from: item) else { return nil }
                out.append(v)
            }
            return .array(out)
        case let d as [String: Any]:
            var out = PlistDictionary()
            for (k, item) in d {
                guard let v = value(from: item) else { return nil }
                out[k] = v
            }
            return .dictionary(out)
        case let n as NSNumber:
            switch String(cString: n.objCType) {
            case "c", "B": return .bool(n.boolValue)
            case "f": return .real(PlistReal(float: n.floatValue))
            case "d": return .real(PlistReal(n.doubleValue))
            case "Q", "L", "I", "S", "C": return .integer(PlistInteger(n.uint64Value))
            default: return .integer(PlistInteger(n.int64Value))
            }
        case let i as Int: return .int(Int64(i))
        case let d as Double: return .double(d)
        default:
            return nil
        }
    }

    /// The Foundation object for a tree (UIDs and null have none).
    static func object(from value: PlistValue) -> Any? {
        switch value {
        case .string(let s): return s
        case .integer(let i):
            if let s = i.int64Value { return NSNumber(value: s) }
            return NSNumber(value: i.bitPattern)
        case .real(let r):
            return r.width == .bits32 ? NSNumber(value: Float(r.value)) : NSNumber(value: r.value)
        case .bool(let b): return b
        case .date(let d): return Date(timeIntervalSinceReferenceDate: d.secondsSinceReferenceDate)
        case .data(let d): return Data(d)
        case .array(let items):
            var out: [Any] = []
            for item in items {
                guard let o = object(from: item) else { return nil }
                out.append(o)
            }
            return out
        case .dictionary(let dict):
            var out: [String: Any] = [:]
            for (k, v) in dict {
                guard let o = object(from: v) else { return nil }
                out[k] = o
            }
            return out
        case .uid, .null:
            return nil
        }
    }

    /// Reads bytes with `PropertyListSerialization` into a tree.
    static func foundationRead(_ bytes: [UInt8]) throws -> PlistValue? {
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        return value(from: object)
    }

    /// Writes a tree with `PropertyListSerialization`.
    static func foundationWrite(_ value: PlistValue, format: PropertyListSerialization.PropertyListFormat) throws -> [UInt8]? {
        guard let object = object(from: value) else { return nil }
        return [UInt8](try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0))
    }
}
