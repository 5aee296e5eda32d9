import ArchivistCore

/// NSIndexSet and NSIndexPath as their indexes, in the forms Foundation writes
/// (Apple's, as the macOS 10.14 fixtures of `../shared/corpus/corelibs-foundation`
/// show, and swift-corelibs-foundation's alike; the real `.xcuserstate` files
/// hold the one-range and one-index forms):
/// - NSIndexSet: `NSRangeCount` with `NSLocation`/`NSLength` for one range,
///   else `NSRangeData`, each range's location and length as unsigned LEB128;
/// - NSIndexPath: `NSIndexPathLength` with `NSIndexPathValue` for one index,
///   `NSIndexPathLength` 0 alone for none, else `NSIndexPathData`, each index
///   as unsigned LEB128.
package enum ArchivedIndexes: Equatable, Sendable {
    /// The ranges of an index set, each `location..<location + length`.
    case set([Range<Int>])
    /// The indexes of an index path.
    case path([Int])

    /// The ranges an NSIndexSet object holds, or nil for other shapes.
    init?(indexSet o: ArchivedObject, in graph: ObjectGraph) {
        guard let count = Self.int(o["NSRangeCount"]) else { return nil }
        if count == 1, AppKitValue.only(o, ["NSRangeCount", "NSLocation", "NSLength"]) {
            guard let location = Self.int(o["NSLocation"]), let length = Self.int(o["NSLength"]),
                  let range = Self.range(location, length) else { return nil }
            self = .set([range])
            return
        }
        guard AppKitValue.only(o, ["NSRangeCount", "NSRangeData"]), let bytes = graph.bytes(o["NSRangeData"]),
              let numbers = Self.leb128(bytes), numbers.count == count * 2 else { return nil }
        var ranges: [Range<Int>] = []
        for n in 0..<count {
            guard let range = Self.range(numbers[2 * n], numbers[2 * n + 1]) else { return nil }
            ranges.append(range)
        }
        self = .set(ranges)
    }

    /// The indexes an NSIndexPath object holds, or nil for other shapes.
    init?(indexPath o: ArchivedObject, in graph: ObjectGraph) {
        guard let length = Self.int(o["NSIndexPathLength"]) else { return nil }
        if length == 1, AppKitValue.only(o, ["NSIndexPathLength", "NSIndexPathValue"]) {
            guard let index = Self.int(o["NSIndexPathValue"]) else { return nil }
            self = .path([index])
            return
        }
        if length == 0, AppKitValue.only(o, ["NSIndexPathLength"]) { self = .path([]); return }
        guard AppKitValue.only(o, ["NSIndexPathLength", "NSIndexPathData"]), let bytes = graph.bytes(o["NSIndexPathData"]),
              let numbers = Self.leb128(bytes), numbers.count == length else { return nil }
        self = .path(numbers)
    }

    /// The text `dump` shows after the class: `[0..<3, 10..<12]`, `[1, 2, 300]`.
    package var text: String {
        switch self {
        case .set(let ranges): return "[" + ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + "]"
        case .path(let indexes): return "[" + indexes.map(String.init).joined(separator: ", ") + "]"
        }
    }

    /// The indexes as a property list: an index path's indexes; an index
    /// set's ranges as `[lower, upper]` pairs (upper excluded).
    package var plist: PlistValue {
        switch self {
        case .set(let ranges): return .array(ranges.map { .array([.int(Int64($0.lowerBound)), .int(Int64($0.upperBound))]) })
        case .path(let indexes): return .array(indexes.map { .int(Int64($0)) })
        }
    }

    /// The indexes as every view shows them: the text after the class,
    /// `dump --json`'s `indexes` and the export as ``plist``; key paths
    /// still reach the archived fields (`NSLocation`).
    var described: DescribedValue {
        let swiftType: String
        switch self {
        case .set: swiftType = "[[Int]]"
        case .path: swiftType = "[Int]"
        }
        return .scalar("indexes", lead: .className, text: text, entries: PlistDictionary([("indexes", plist)]), exported: plist,
                       swiftType: swiftType, keepsFields: true)
    }

    /// A non-negative inline integer field.
    private static func int(_ field: FieldValue?) -> Int? {
        guard case .inline(.integer(let i))? = field, let v = i.int64Value, v >= 0, v <= Int64(Int32.max) * 1024 else { return nil }
        return Int(exactly: v)
    }

    private static func range(_ location: Int, _ length: Int) -> Range<Int>? {
        let (end, overflow) = location.addingReportingOverflow(length)
        return overflow ? nil : location..<end
    }

    /// Unsigned LEB128 numbers filling `bytes` exactly, each of at most 8 bytes; nil otherwise.
    static func leb128(_ bytes: [UInt8]) -> [Int]? {
        var out: [Int] = [], value = 0, shift = 0
        for b in bytes {
            guard shift <= 49 else { return nil }
            value |= Int(b & 0x7F) << shift
            if b & 0x80 == 0 {
                out.append(value)
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return shift == 0 ? out : nil
    }
}
