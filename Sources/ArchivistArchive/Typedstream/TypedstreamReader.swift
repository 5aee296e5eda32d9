import ArchivistCore

/// Reads an NSArchiver typedstream into the `$objects` of a keyed archive:
/// one entry per object, class descriptions as NSKeyedArchiver writes them,
/// Foundation's classes in their keyed form (NSString, NSNumber and NSData
/// as plain values; NSArray, NSSet and NSDictionary with `NS.objects` and
/// `NS.keys`; NSAttributedString with `NSString` and `NSAttributes`), other
/// objects with their values as fields `0`, `1`, ... in the order written.
///
/// Linear in the input: every value read is paid for from a budget that
/// grows with the input's size (the `!` type and empty structures take no
/// bytes), objects nest at most ``maxDepth`` levels, and every reference
/// must point at something already read of the right kind.
struct TypedstreamReader {
    /// How deeply objects may nest.
    static let maxDepth = 256
    /// How many classes a class chain may hold.
    static let maxChain = 256

    private enum Shared {
        case object(Int)
        case classIndex(Int)
        case cString([UInt8])
    }

    private struct ClassEntry {
        var name: String
        /// The superclass's index in `classes`, nil for a root class.
        var superclass: Int?
        /// How many classes the chain holds, this one included.
        var depth: Int
        /// Its class description's index in `$objects`, once an object uses it.
        var node: Int?
        /// How NSArchiver writes the class, from the catalogue (looked up once per class).
        var form: TypedstreamForm?

        init(name: String, superclass: Int?, depth: Int, node: Int?) {
            self.name = name
            self.superclass = superclass
            self.depth = depth
            self.node = node
            form = ClassCatalogue.description(of: name)?.typedstream
        }
    }

    private var cursor: TypedstreamCursor
    private var strings: [[UInt8]] = []
    private var encodings: [Int: [TypeEncoding]] = [:]
    private var shared: [Shared] = []
    private var classes: [ClassEntry] = []
    /// The NSArray class made for attribute dictionaries, once made.
    private var arrayClass: Int?
    private var budget: Int
    private var depth = 0
    /// `$objects` as it is built; entry 0 is `$null`.
    private(set) var objects: [PlistValue] = [.string("$null")]

    init(_ bytes: [UInt8]) {
        cursor = TypedstreamCursor(bytes)
        budget = bytes.count.multipliedReportingOverflow(by: 4).partialValue + 64
    }

    /// Reads the header and every top-level group; returns the top-level values in order.
    mutating func read() throws -> [TypedstreamValue] {
        let header = try cursor.take(2)
        guard let version = header.first, let length = header.last, version == 4, length == 11 else {
            throw cursor.error("not a typedstream of version 4 (NSArchiver)")
        }
        let signature = Array(try cursor.take(11))
        if signature == Array("typedstream".utf8) {
            cursor.bigEndian = true
        } else if signature != Array("streamtyped".utf8) {
            throw cursor.error("signature is not streamtyped or typedstream")
        }
        _ = try cursor.integer(signed: false)  // system version
        var top: [TypedstreamValue] = []
        while !cursor.atEnd { try group(head: try cursor.head(), into: &top) }
        return top
    }

    private mutating func spend() throws {
        budget -= 1
        guard budget >= 0 else { throw PlistError(.limitExceeded, "typedstream: more values than its size allows") }
    }

    /// A typed-value group: its encoding string (shared), then one value per type.
    private mutating func group(head: Int8, into out: inout [TypedstreamValue]) throws {
        guard let (text, index) = try sharedString(head: head) else { throw cursor.error("nil type encoding") }
        let types: [TypeEncoding]
        if let cached = encodings[index] {
            types = cached
        } else {
            types = try TypeEncoding.parse(text, at: cursor)
            encodings[index] = types
        }
        for type in types { out.append(try value(type)) }
    }

    /// A shared string and its index in the string table: new (0x84 and an
    /// unshared string), nil, or a reference to one read before.
    private mutating func sharedString(head: Int8) throws -> ([UInt8], Int)? {
        switch head {
        case TypedstreamCursor.nilTag:
            return nil
        case TypedstreamCursor.newTag:
            guard let text = try unsharedString(head: try cursor.head()) else { throw cursor.error("nil shared string") }
            strings.append(text)
            return (text, strings.count - 1)
        default:
            let n = try cursor.reference(head: head)
            guard n < strings.count else { throw cursor.error("reference to string \(n), of \(strings.count) read") }
            return (strings[n], n)
        }
    }

    private mutating func unsharedString(head: Int8) throws -> [UInt8]? {
        if head == TypedstreamCursor.nilTag { return nil }
        let length = try cursor.integer(head: head, signed: false)
        return Array(try cursor.take(Int(length)))
    }

    private mutating func value(_ type: TypeEncoding) throws -> TypedstreamValue {
        try spend()
        switch type {
        case .array(let count, let element):
            if element == .scalar(UInt8(ascii: "c")) || element == .scalar(UInt8(ascii: "C")) {
                return .bytes(Array(try cursor.take(count)))
            }
            guard count <= budget else { throw PlistError(.limitExceeded, "typedstream: an array of \(count) values is more than its size allows") }
            var items: [TypedstreamValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try value(element)) }
            return .list(items)
        case .structure(_, let fields):
            var items: [TypedstreamValue] = []
            for field in fields { items.append(try value(field)) }
            return .list(items)
        case .scalar(let c):
            return try scalar(c)
        }
    }

    private mutating func scalar(_ c: UInt8) throws -> TypedstreamValue {
        switch c {
        case UInt8(ascii: "B"):
            let b = try cursor.take(1).first ?? 0
            guard b <= 1 else { throw cursor.error("boolean \(b), not 0 or 1") }
            return .bool(b == 1)
        case UInt8(ascii: "C"): return .uint(UInt64(try cursor.take(1).first ?? 0))
        case UInt8(ascii: "c"): return .int(Int64(Int8(bitPattern: try cursor.take(1).first ?? 0)))
        case UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            return .uint(UInt64(try cursor.integer(signed: false)))
        case UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            return .int(try cursor.integer(signed: true))
        case UInt8(ascii: "f"): return .real(try cursor.real(head: try cursor.head(), double: false), float: true)
        case UInt8(ascii: "d"): return .real(try cursor.real(head: try cursor.head(), double: true), float: false)
        case UInt8(ascii: "*"): return try cString(head: try cursor.head())
        case UInt8(ascii: "%"), UInt8(ascii: ":"):
            return try sharedString(head: try cursor.head()).map { .text($0.0) } ?? .none
        case UInt8(ascii: "+"): return try unsharedString(head: try cursor.head()).map { .text($0) } ?? .none
        case UInt8(ascii: "#"): return try classValue(head: try cursor.head()).map { .className(classes[$0].name) } ?? .none
        case UInt8(ascii: "@"): return .object(try object(head: try cursor.head()))
        default: return .none  // `!`: nothing written
        }
    }

    private mutating func cString(head: Int8) throws -> TypedstreamValue {
        switch head {
        case TypedstreamCursor.nilTag:
            return .none
        case TypedstreamCursor.newTag:
            guard let (text, _) = try sharedString(head: try cursor.head()) else { throw cursor.error("nil C string") }
            shared.append(.cString(text))
            return .text(text)
        default:
            guard case .cString(let text) = try lookUp(head: head) else { throw cursor.error("reference to a C string that is not one") }
            return .text(text)
        }
    }

    private mutating func lookUp(head: Int8) throws -> Shared {
        let n = try cursor.reference(head: head)
        guard n < shared.count else { throw cursor.error("reference to object \(n), of \(shared.count) read") }
        return shared[n]
    }

    /// A class and its superclasses as written (new ones first, then nil or a
    /// reference to a class read before); the index of the class, nil for nil.
    private mutating func classValue(head first: Int8) throws -> Int? {
        var head = first
        var new: [String] = []
        while head == TypedstreamCursor.newTag {
            try spend()
            guard let (name, _) = try sharedString(head: try cursor.head()) else { throw cursor.error("nil class name") }
            _ = try cursor.integer(signed: true)  // class version
            new.append(String(decoding: name, as: UTF8.self))
            head = try cursor.head()
        }
        var superclass: Int?
        if head != TypedstreamCursor.nilTag {
            guard case .classIndex(let c) = try lookUp(head: head) else { throw cursor.error("superclass reference to something that is not a class") }
            superclass = c
        }
        guard !new.isEmpty else { return superclass }
        let depth = new.count + (superclass.map { classes[$0].depth } ?? 0)
        guard depth <= Self.maxChain else {
            throw PlistError(.limitExceeded, "typedstream: a class chain of more than \(Self.maxChain) classes")
        }
        // Subclass first, each one's superclass the next (the last one's as referenced).
        let start = classes.count
        for (k, name) in new.enumerated() {
            let isLast = k == new.count - 1
            classes.append(ClassEntry(name: name, superclass: isLast ? superclass : start + k + 1, depth: depth - k, node: nil))
            shared.append(.classIndex(classes.count - 1))
        }
        return start
    }

    /// An object: nil (0), a reference to one read before, or a new object
    /// with its class and contents up to the end marker. Its `$objects` index.
    private mutating func object(head: Int8) throws -> Int {
        switch head {
        case TypedstreamCursor.nilTag:
            return 0
        case TypedstreamCursor.newTag:
            guard depth < Self.maxDepth else { throw PlistError(.limitExceeded, "typedstream: objects nested more than \(Self.maxDepth) levels") }
            depth += 1
            defer { depth -= 1 }
            let index = objects.count
            objects.append(.null)
            shared.append(.object(index))
            guard let c = try classValue(head: try cursor.head()) else { throw cursor.error("object of nil class") }
            var values: [TypedstreamValue] = []
            while true {
                let next = try cursor.head()
                if next == TypedstreamCursor.endTag { break }
                try group(head: next, into: &values)
            }
            // NSString, NSNumber and NSData are plain values, with no class description.
            let form = classes[c].form
            if let plain = TypedstreamFoundation.plainValue(form, values) {
                objects[index] = plain
            } else {
                var attributes: Int?
                if form == .attributedString {
                    let dictionaries = TypedstreamFoundation.attributeDictionaries(values)
                    attributes = dictionaries.count > 1 ? try foundationArray(dictionaries) : dictionaries.first
                }
                objects[index] = archived(values, of: try classNode(c), form: form, attributes: attributes)
            }
            return index
        default:
            guard case .object(let index) = try lookUp(head: head) else { throw cursor.error("object reference to something that is not an object") }
            return index
        }
    }

    /// An NSArray of objects read (an attributed string's attribute
    /// dictionaries, as NSKeyedArchiver writes `NSAttributes` for several runs).
    private mutating func foundationArray(_ members: [Int]) throws -> Int {
        let c: Int
        if let known = arrayClass {
            c = known
        } else {
            let array = ClassCatalogue.standing(for: .array)
            for (k, name) in array.chain.reversed().enumerated() {
                classes.append(ClassEntry(name: name, superclass: k == 0 ? nil : classes.count - 1, depth: k + 1, node: nil))
            }
            c = classes.count - 1
            arrayClass = c
        }
        let node = try classNode(c)
        objects.append(.dictionary(PlistDictionary([("$class", .uid(UInt64(node))), ("NS.objects", .array(members.map { .uid(UInt64($0)) }))])))
        return objects.count - 1
    }

    /// The `$objects` index of a class's description, made the first time.
    /// Its chain is paid for from the budget, one value per class.
    private mutating func classNode(_ c: Int) throws -> Int {
        if let node = classes[c].node { return node }
        var chain: [PlistValue] = []
        var next: Int? = c
        while let k = next, chain.count < Self.maxChain {
            try spend()
            chain.append(.string(classes[k].name))
            next = classes[k].superclass
        }
        let node = objects.count
        objects.append(.dictionary(PlistDictionary([
            ("$classname", .string(classes[c].name)),
            ("$classes", .array(chain)),
        ])))
        classes[c].node = node
        return node
    }

    /// An object's `$objects` entry: Foundation's collections, URLs and
    /// attributed strings in their keyed form when their values have the
    /// expected shape, others with numbered fields.
    private func archived(_ values: [TypedstreamValue], of classNode: Int, form: TypedstreamForm?, attributes: Int?) -> PlistValue {
        var fields: [(String, PlistValue)] = [("$class", .uid(UInt64(classNode)))]
        if let form, let keyed = TypedstreamFoundation.keyedFields(form, values, attributes: attributes) {
            fields += keyed
        } else {
            for (i, v) in values.enumerated() { fields.append((String(i), v.plist)) }
        }
        return .dictionary(PlistDictionary(fields))
    }
}
