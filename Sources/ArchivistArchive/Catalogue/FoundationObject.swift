import ArchivistCore

/// An archived object of one of Foundation's (or AppKit's) classes read as
/// the value it encodes, as `dump` shows it: an `NSArray`'s elements instead
/// of its `NS.objects` field, an `NSDate`'s date instead of `NS.time`.
///
/// Ask a graph with ``ObjectGraph/foundationObject(at:)``. Which accessors
/// answer depends on ``kind``; the others are nil. Elements, entries and
/// members are indexes into ``ObjectGraph/nodes``.
package struct FoundationObject: Sendable {
    /// What a Foundation object holds. An open set: kinds may be added, so
    /// compare with `==` (or switch with a `default`).
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        package let description: String
        fileprivate init(_ name: String) { description = name }

        /// NSArray, NSSet, NSOrderedSet and their mutable kinds, NSHashTable: ``FoundationObject/elements``.
        package static let collection = Kind("collection")
        /// NSCountedSet: ``FoundationObject/counts``.
        package static let countedSet = Kind("countedSet")
        /// NSDictionary and NSMutableDictionary: ``FoundationObject/entries``.
        package static let dictionary = Kind("dictionary")
        /// NSString and NSMutableString: ``FoundationObject/string``.
        package static let string = Kind("string")
        /// NSData and NSMutableData: ``FoundationObject/data``.
        package static let data = Kind("data")
        /// NSDate: ``FoundationObject/date``.
        package static let date = Kind("date")
        /// NSUUID: ``FoundationObject/string`` and ``FoundationObject/text`` (the UUID's text).
        package static let uuid = Kind("uuid")
        /// NSURL: ``FoundationObject/urlBase`` and ``FoundationObject/urlRelative``.
        package static let url = Kind("url")
        /// NSNull.
        package static let null = Kind("null")
        /// NSValue holding a point, size, rect, range or edge insets: ``FoundationObject/text``.
        package static let geometry = Kind("geometry")
        /// NSLocale: ``FoundationObject/string`` (its identifier) and ``FoundationObject/text``.
        package static let locale = Kind("locale")
        /// NSTimeZone: ``FoundationObject/string`` (its name) and ``FoundationObject/text``.
        package static let timeZone = Kind("timeZone")
        /// NSAttributedString: ``FoundationObject/string`` and ``FoundationObject/attributes``.
        package static let attributedString = Kind("attributedString")
        /// NSColor, NSFont and named images: ``FoundationObject/text``.
        package static let appKit = Kind("appKit")
        /// NSIndexSet and NSIndexPath: ``FoundationObject/text``.
        package static let indexes = Kind("indexes")
        /// A nib connector, a person's name, a CloudKit record ID, a cell's or
        /// a menu item's title: ``FoundationObject/line``.
        package static let line = Kind("line")
    }

    private let value: FoundationValue

    init(_ value: FoundationValue) {
        self.value = value
    }

    /// What the object holds.
    package var kind: Kind {
        switch value {
        case .list: return .collection
        case .counted: return .countedSet
        case .map: return .dictionary
        case .string: return .string
        case .data: return .data
        case .date: return .date
        case .described(let d): return Kind(d.kind)
        case .url: return .url
        case .null: return .null
        case .attributedString: return .attributedString
        case .line: return .line
        }
    }

    /// The text of a string, attributed string, UUID, locale identifier or
    /// time-zone name.
    package var string: String? {
        switch value {
        case .string(let s): return s
        case .described(let d): return d.string
        case .attributedString(let a): return a.text
        case .list, .counted, .map, .data, .date, .url, .null, .line: return nil
        }
    }

    /// The bytes of NSData.
    package var data: [UInt8]? {
        if case .data(let bytes) = value { return bytes }
        return nil
    }

    /// The date of NSDate.
    package var date: PlistDate? {
        if case .date(let seconds) = value { return PlistDate(secondsSinceReferenceDate: seconds) }
        return nil
    }

    /// The elements of an array, set, ordered set or hash table, in archived order.
    package var elements: [Int]? {
        if case .list(let refs) = value { return refs }
        return nil
    }

    /// A dictionary's keys and values, in archived order.
    package var entries: [(key: Int, value: Int)]? {
        if case .map(let keys, let values) = value { return zip(keys, values).map { ($0, $1) } }
        return nil
    }

    /// A counted set's members and how often each is in it.
    package var counts: [(object: Int, count: Int)]? {
        if case .counted(let entries) = value { return entries }
        return nil
    }

    /// NSURL's base URL object (nil for an absolute URL).
    package var urlBase: Int? {
        if case .url(let base, _) = value { return base }
        return nil
    }

    /// NSURL's relative string object.
    package var urlRelative: Int? {
        if case .url(_, let relative) = value { return relative }
        return nil
    }

    /// An attributed string's attributes object, when it has one.
    package var attributes: Int? {
        if case .attributedString(let a) = value { return a.attributes }
        return nil
    }

    /// The parts of a value shown as one line (a connector, a name, a record ID, a title).
    package var line: ArchivedLine? {
        if case .line(let v) = value { return v }
        return nil
    }

    /// The one-line text `dump` shows of a described value: an NSValue's
    /// geometry as Foundation's `NSStringFrom...` functions write it, after
    /// its form (`rect {{0, 0}, {10, 20}}`); a UUID; an index set's ranges
    /// (`[0..<3, 10..<12]`); a colour, font or image (`NSFont("Menlo" 12)`).
    package var text: String? {
        if case .described(let d) = value { return d.text }
        return nil
    }
}

extension ObjectGraph {
    /// The value node `index` stands for when it is an object of a
    /// Foundation class whose fields have the expected shape; nil for other
    /// classes, plain values and indexes outside the graph.
    package func foundationObject(at index: Int) -> FoundationObject? {
        guard case .object(let o)? = nodes[safe: index], let value = FoundationValue.interpret(o, in: self) else { return nil }
        return FoundationObject(value)
    }
}
