import ArchivistCore

/// Foundation's own classes read as the values they encode.
enum FoundationValue {
    /// NSArray, NSSet, NSOrderedSet and their mutable kinds (`NS.objects`).
    case list([Int])
    /// NSDictionary and NSMutableDictionary (`NS.keys`, `NS.objects`).
    case map(keys: [Int], values: [Int])
    /// NSString and NSMutableString (`NS.string`).
    case string(String)
    /// NSData and NSMutableData (`NS.data` or `NS.bytes`).
    case data([UInt8])
    /// NSDate (`NS.time`, seconds since 2001).
    case date(Double)
    /// NSUUID (`NS.uuidbytes`).
    case uuid(String)
    /// NSURL (`NS.base`, `NS.relative`).
    case url(base: Int?, relative: Int?)
    /// NSNull.
    case null

    static let listClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet", "NSCountedSet"]
    static let mapClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    /// The value an object of a Foundation class stands for, or nil for other classes.
    static func interpret(_ o: ArchivedObject) -> FoundationValue? {
        let name = o.className.archived
        if listClasses.contains(name) {
            switch o["NS.objects"] {
            case .references(let r)?: return .list(r)
            case .reference(let r)?: return .list([r])
            case nil, .inline?: return .list([])
            }
        }
        if mapClasses.contains(name) {
            func refs(_ v: FieldValue?) -> [Int] {
                switch v {
                case .references(let r)?: return r
                case .reference(let r)?: return [r]
                case nil, .inline?: return []
                }
            }
            let keys = refs(o["NS.keys"]), values = refs(o["NS.objects"])
            guard keys.count == values.count else { return nil }
            return .map(keys: keys, values: values)
        }
        switch name {
        case "NSString", "NSMutableString":
            if case .inline(.string(let s))? = o["NS.string"] { return .string(s) }
            if case .inline(.data(let b))? = o["NS.bytes"] { return .string(String(decoding: b, as: UTF8.self)) }
        case "NSData", "NSMutableData":
            if case .inline(.data(let b))? = o["NS.data"] ?? o["NS.bytes"] { return .data(b) }
        case "NSDate":
            switch o["NS.time"] {
            case .inline(.real(let r))?: return .date(r.value)
            case .inline(.integer(let i))?: return .date(i.doubleValue)
            default: break
            }
        case "NSUUID":
            if case .inline(.data(let b))? = o["NS.uuidbytes"], b.count == 16 { return .uuid(uuidString(b)) }
        case "NSURL":
            var base: Int?, relative: Int?
            if case .reference(let r)? = o["NS.base"], r != 0 { base = r }
            if case .reference(let r)? = o["NS.relative"], r != 0 { relative = r }
            return .url(base: base, relative: relative)
        case "NSNull":
            return .null
        default:
            break
        }
        return nil
    }

    static func uuidString(_ b: [UInt8]) -> String {
        let hex = b.map { $0 < 16 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-" + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }
}
