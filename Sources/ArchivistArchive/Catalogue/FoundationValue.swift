import ArchivistCore

/// The value an object of a catalogued class reads into: one case per kind
/// of value, each of one ``ClassShape``.
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
    /// NSURL (`NS.base`, `NS.relative`).
    case url(base: Int?, relative: Int?)
    /// NSNull.
    case null
    /// A value every view shows as its class's reader describes it: NSUUID,
    /// NSLocale, NSTimeZone, NSValue's geometry, NSIndexSet and NSIndexPath,
    /// AppKit's colours, fonts and named images. Boxed, so that the other
    /// values (read for every object a view shows) stay as small as before.
    indirect case described(DescribedValue)
    /// NSAttributedString and NSMutableAttributedString (`NSString`,
    /// `NSAttributes`, and the runs of `NSAttributeInfo`).
    case attributedString(ArchivedAttributedText)
    /// A value shown as one line of named parts (a nib connector, a person's
    /// name, a CloudKit record ID), or a caption before the object's fields
    /// (a cell's or a menu item's title).
    case line(ArchivedLine)

    /// Whether key paths still reach the object's archived fields (`NSColorName`,
    /// `NSLocation`): true for the values read from AppKit's and the index classes' fields.
    var keepsFields: Bool {
        switch self {
        case .described(let d): return d.keepsFields
        case .line: return true
        case .list, .counted, .map, .string, .data, .date, .url, .null, .attributedString: return false
        }
    }

    /// The value's description, when it is a described value.
    var described: DescribedValue? {
        if case .described(let d) = self { return d }
        return nil
    }

    /// Whether the value is a line or caption (a connector, a record ID, a
    /// cell's title), whose object's references stay edges in a graph.
    var isLine: Bool {
        if case .line = self { return true }
        return false
    }

    /// The catalogued classes whose elements are the references of `NS.objects`
    /// (a sequence that declares the field): the arrays, sets and ordered sets.
    static let listClasses: Set<String> = ClassCatalogue.names { $0.shape == .sequence && $0.declares("NS.objects") }
    /// The catalogued classes whose entries are `NS.keys` and `NS.objects`: the dictionaries.
    static let mapClasses: Set<String> = ClassCatalogue.names { $0.shape == .map && $0.declares("NS.keys") }

    /// The value an object of a catalogued class stands for (its class's
    /// reader in ``ClassCatalogue``), or nil for other classes and for objects
    /// whose fields do not have the form their class writes.
    @inline(__always)
    /// The archived names of the class that stands for a string (`NSString`,
    /// `NSMutableString`): a short list, compared name by name.
    static let stringClasses: [String] = ClassCatalogue.standing(for: .string).names

    static func interpret(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard let read = ClassCatalogue.reader(of: o.className.archived) else { return nil }
        return read(o, graph)
    }

    /// The value that stands for the object in place of its fields, for the
    /// views that show one or the other (Codable export and schema, the
    /// graph, code generation): nil for other classes and for a caption (a
    /// cell's title), whose object those views show by its fields.
    @inline(__always)
    static func standIn(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        let value = interpret(o, in: graph)
        if case .line(let line)? = value, line.captions { return nil }
        return value
    }

    static func uuidString(_ b: [UInt8]) -> String {
        let hex = b.map { $0 < 16 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-" + hex[8..<10].joined() + "-" + hex[10..<16].joined()
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
            case .object(let o)? where FoundationValue.stringClasses.contains(o.className.archived):
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
