import ArchivistCore

/// Foundation's own classes read as the values they encode.
enum FoundationValue {
    /// NSArray, NSSet, NSOrderedSet and their mutable kinds (`NS.objects`, or
    /// `NS.object.0`, `NS.object.1`, ... as swift-corelibs-foundation writes NSOrderedSet);
    /// NSHashTable's members (`$1`, `$2`, ... after its options in `$0`).
    case list([Int])
    /// NSCountedSet (`NS.objectN` with `NS.countN`).
    case counted([(object: Int, count: Int)])
    /// NSDictionary and NSMutableDictionary (`NS.keys`, `NS.objects`);
    /// NSMapTable's entries (`$2`, `$3`, ... key then value, after its options).
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
    /// NSValue holding a point, size, rect, range or edge insets (`NS.special`).
    case geometry(NSValueGeometry)
    /// NSLocale (`NS.identifier`).
    case locale(String)
    /// NSTimeZone (`NS.name`).
    case timeZone(String)
    /// NSAttributedString and NSMutableAttributedString (`NSString`, `NSAttributes`).
    case attributedString(String, attributes: Int?)
    /// AppKit's value classes: NSColor, NSFont, named images.
    case appKit(AppKitValue)
    /// NSIndexSet's ranges and NSIndexPath's indexes.
    case indexes(ArchivedIndexes)

    /// Whether key paths still reach the object's archived fields (`NSColorName`,
    /// `NSLocation`): true for the values read from AppKit's and the index classes' fields.
    var keepsFields: Bool {
        switch self {
        case .appKit, .indexes: return true
        case .list, .counted, .map, .string, .data, .date, .uuid, .url, .null, .geometry, .locale, .timeZone, .attributedString: return false
        }
    }

    static let listClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]
    static let mapClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    /// The value an object of a Foundation class stands for, or nil for other
    /// classes and for Foundation objects whose fields do not have the expected shape.
    static func interpret(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        let name = o.className.archived
        // Every class below is named NS...: other classes (the app's own, which
        // most objects of a large archive are) need no lookups.
        var utf8 = name.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "N"), utf8.next() == UInt8(ascii: "S") else { return nil }
        if listClasses.contains(name) { return list(o) }
        if mapClasses.contains(name) {
            let keys = refs(o["NS.keys"]), values = refs(o["NS.objects"])
            guard keys.count == values.count else { return nil }
            return .map(keys: keys, values: values)
        }
        switch name {
        case "NSCountedSet":
            return counted(o)
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
        case "NSValue":
            return NSValueGeometry(o, in: graph).map { .geometry($0) }
        case "NSLocale":
            return graph.string(o["NS.identifier"]).map { .locale($0) }
        case "NSTimeZone":
            return graph.string(o["NS.name"]).map { .timeZone($0) }
        case "NSAttributedString", "NSMutableAttributedString":
            guard let text = graph.string(o["NSString"]) else { return nil }
            var attributes: Int?
            if case .reference(let r)? = o["NSAttributes"], r != 0 { attributes = r }
            return .attributedString(text, attributes: attributes)
        case "NSHashTable":
            return hashTable(o)
        case "NSMapTable":
            return mapTable(o)
        case "NSIndexSet", "NSMutableIndexSet", "NSIndexPath":
            return ArchivedIndexes(o, in: graph).map { .indexes($0) }
        default:
            return AppKitValue.interpret(o, in: graph).map { .appKit($0) }
        }
        return nil
    }

    /// NSHashTable as it archives itself (`plaso/test_data/backgrounditems.btm`):
    /// its NSPointerFunctions options in `$0` (an integer; 5 is weak memory),
    /// then each member in `$1`, `$2`, ..., ended by `$null`. Any other field
    /// leaves the table a generic object.
    private static func hashTable(_ o: ArchivedObject) -> FoundationValue? {
        guard case .inline(.integer)? = o["$0"], o.fields.count <= 1 << 20 else { return nil }
        var members: [Int] = []
        var ended = false
        for n in 1..<max(o.fields.count, 1) {
            guard !ended, case .reference(let r)? = o["$\(n)"] else { return nil }
            if r == 0 { ended = true } else { members.append(r) }
        }
        return .list(members)
    }

    /// NSMapTable as Foundation's `encodeWithCoder:` writes it: the key and
    /// value NSPointerFunctions options in `$0` and `$1` (integers), then
    /// each entry's key and value in turn (`$2`, `$3`, `$4`, ...), ended by
    /// `$null`, and `NS.count` (the entries; older archives lack it). A weak
    /// side whose object nothing else archived is `$null`: that entry is left
    /// out, as Foundation's decoder leaves it out. Any other field, or a count
    /// that does not match, leaves the table a generic object.
    private static func mapTable(_ o: ArchivedObject) -> FoundationValue? {
        guard case .inline(.integer)? = o["$0"], case .inline(.integer)? = o["$1"], o.fields.count <= 1 << 20 else { return nil }
        var stated: Int64?
        if let field = o["NS.count"] {
            guard case .inline(.integer(let n)) = field, let count = n.int64Value else { return nil }
            stated = count
        }
        // $2 ... $(numbered + 1): the entries' keys and values, then $null.
        let numbered = o.fields.count - 2 - (stated == nil ? 0 : 1)
        guard numbered >= 1, numbered % 2 == 1, case .reference(0)? = o["$\(numbered + 1)"] else { return nil }
        let entries = (numbered - 1) / 2
        if let stated, stated != Int64(entries) { return nil }
        var keys: [Int] = [], values: [Int] = []
        for n in 0..<entries {
            guard case .reference(let k)? = o["$\(2 + 2 * n)"], case .reference(let v)? = o["$\(3 + 2 * n)"] else { return nil }
            if k != 0, v != 0 {
                keys.append(k)
                values.append(v)
            }
        }
        return .map(keys: keys, values: values)
    }

    private static func refs(_ v: FieldValue?) -> [Int] {
        switch v {
        case .references(let r)?: return r
        case .reference(let r)?: return [r]
        case nil, .inline?: return []
        }
    }

    /// `NS.objects`, or the numbered `NS.object.N` fields in order of N.
    private static func list(_ o: ArchivedObject) -> FoundationValue {
        if let objects = o["NS.objects"] { return .list(refs(objects)) }
        var numbered: [(Int, Int)] = []
        for field in o.fields where field.key.hasPrefix("NS.object.") {
            guard let n = Int(field.key.dropFirst("NS.object.".count)), case .reference(let r) = field.value else { continue }
            numbered.append((n, r))
        }
        return .list(numbered.sorted { $0.0 < $1.0 }.map(\.1))
    }

    /// `NS.objectN` with its `NS.countN`, for N below `NS.count`.
    private static func counted(_ o: ArchivedObject) -> FoundationValue? {
        guard case .inline(.integer(let total))? = o["NS.count"], let count = total.int64Value, count >= 0,
              count <= Int64(o.fields.count) else { return nil }
        var entries: [(object: Int, count: Int)] = []
        for n in 0..<Int(count) {
            guard case .reference(let r)? = o["NS.object\(n)"] else { return nil }
            var times = 1
            if case .inline(.integer(let c))? = o["NS.count\(n)"], let c64 = c.int64Value, let ci = Int(exactly: c64) { times = ci }
            entries.append((r, times))
        }
        return .counted(entries)
    }

    static func uuidString(_ b: [UInt8]) -> String {
        let hex = b.map { $0 < 16 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-" + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }
}

/// The geometric forms of NSValue, by their `NS.special` type.
enum NSValueGeometry {
    /// 1: `NS.pointval`, as `{x, y}`.
    case point(String)
    /// 2: `NS.sizeval`, as `{w, h}`.
    case size(String)
    /// 3: `NS.rectval`, as `{{x, y}, {w, h}}`.
    case rect(String)
    /// 4: `NS.rangeval.location` and `NS.rangeval.length`.
    case range(location: PlistValue, length: PlistValue)
    /// 12: `NS.edgeval.top`, `.left`, `.bottom`, `.right`.
    case edgeInsets(top: PlistValue, left: PlistValue, bottom: PlistValue, right: PlistValue)

    init?(_ o: ArchivedObject, in graph: ObjectGraph) {
        guard case .inline(.integer(let special))? = o["NS.special"] else { return nil }
        switch special.int64Value {
        case 1?: guard let s = graph.string(o["NS.pointval"]) else { return nil }; self = .point(s)
        case 2?: guard let s = graph.string(o["NS.sizeval"]) else { return nil }; self = .size(s)
        case 3?: guard let s = graph.string(o["NS.rectval"]) else { return nil }; self = .rect(s)
        case 4?:
            guard let location = graph.number(o["NS.rangeval.location"]), let length = graph.number(o["NS.rangeval.length"]) else { return nil }
            self = .range(location: location, length: length)
        case 12?:
            guard let top = graph.number(o["NS.edgeval.top"]), let left = graph.number(o["NS.edgeval.left"]),
                  let bottom = graph.number(o["NS.edgeval.bottom"]), let right = graph.number(o["NS.edgeval.right"]) else { return nil }
            self = .edgeInsets(top: top, left: left, bottom: bottom, right: right)
        default:
            return nil
        }
    }

    /// The kind, as `point`, `size`, `rect`, `range` or `edgeInsets`.
    var kind: String {
        switch self {
        case .point: return "point"
        case .size: return "size"
        case .rect: return "rect"
        case .range: return "range"
        case .edgeInsets: return "edgeInsets"
        }
    }

    /// The text Foundation's `NSStringFrom...` functions give.
    var text: String {
        switch self {
        case .point(let s), .size(let s), .rect(let s): return s
        case .range(let location, let length): return "{\(DumpText.scalar(location)), \(DumpText.scalar(length))}"
        case .edgeInsets(let t, let l, let b, let r):
            return "{\(DumpText.scalar(t)), \(DumpText.scalar(l)), \(DumpText.scalar(b)), \(DumpText.scalar(r))}"
        }
    }
}

extension ObjectGraph {
    /// The string a field holds: inline, or a reference to a string or an NSString object.
    func string(_ field: FieldValue?) -> String? {
        switch field {
        case .inline(.string(let s))?: return s
        case .reference(let r)?:
            switch nodes[safe: r] {
            case .value(.string(let s))?: return s
            case .object(let o)? where o.className.archived == "NSString" || o.className.archived == "NSMutableString":
                if case .string(let s)? = FoundationValue.interpret(o, in: self) { return s }
                return nil
            default: return nil
            }
        default: return nil
        }
    }

    /// The number a field holds: inline, or a reference to a number.
    func number(_ field: FieldValue?) -> PlistValue? {
        switch field {
        case .inline(let v)?: return v.isNumber ? v : nil
        case .reference(let r)?:
            if case .value(let v)? = nodes[safe: r], v.isNumber { return v }
            return nil
        default: return nil
        }
    }
}

private extension PlistValue {
    var isNumber: Bool {
        switch self {
        case .integer, .real, .bool: return true
        case .string, .date, .data, .array, .dictionary, .uid, .null: return false
        }
    }
}
