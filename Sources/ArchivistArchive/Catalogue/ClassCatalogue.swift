/// The registry: every class Archivist reads, each described once in a file
/// of its own (`Catalogue/Foundation/NSIndexSet.swift`). Adding a class is
/// one new file and one line here.
package enum ClassCatalogue {
    /// Every catalogued class.
    package static let all: [ClassDescription] = [
        // Foundation
        .nsArray, .nsSet, .nsOrderedSet, .nsDictionary, .nsCountedSet, .nsHashTable, .nsMapTable,
        .nsString, .nsAttributedString, .nsData, .nsDate, .nsUUID, .nsURL, .nsNull, .nsValue, .nsNumber,
        .nsLocale, .nsTimeZone, .nsIndexSet, .nsIndexPath,
        .nsObject, .nsDecimalNumber, .nsMeasurement, .nsUnit, .nsCalendar, .nsDateComponents, .nsError,
        .nsCharacterSet, .nsRegularExpression, .nsTextCheckingResult, .nsDateInterval, .nsPersonNameComponents,
        .nsAffineTransform, .nsByteCountFormatter, .nsDateFormatter, .nsNumberFormatter, .nsDateIntervalFormatter,
        .nsISO8601DateFormatter,
        // AppKit
        .nsColor, .nsColorSpace, .nsFont, .nsCustomResource, .nsButtonImageSource, .nsResponder, .nsCell, .nsController,
        .nsNibConnector,
        .nsMenuItem,
        .nsButtonCell,
        .nsTextFieldCell,
        .nsNibOutletConnector,
        .nsNibControlConnector,
        .nsNibBindingConnector,
        // CloudKit
        .ckRecordZoneID,
        .ckRecordID,
    ]

    /// Each archived name's description (mutable variants included).
    package static let byName: [String: ClassDescription] = {
        var index: [String: ClassDescription] = [:]
        for d in all {
            for name in d.names where index[name] == nil { index[name] = d }
        }
        return index
    }()

    /// Each archived name's reader, looked up once per object to read.
    private static let readers: [String: ClassDescription.Reader] = byName.compactMapValues(\.read)

    /// The first two bytes of every catalogued name (`NS`, `CK`), so that
    /// other classes (an app's own, most objects of a large archive) are
    /// passed over without a lookup.
    private static let prefixes: [UInt16] = {
        var out: [UInt16] = []
        for name in byName.keys {
            var utf8 = name.utf8.makeIterator()
            guard let a = utf8.next(), let b = utf8.next() else { continue }
            let p = UInt16(a) << 8 | UInt16(b)
            if !out.contains(p) { out.append(p) }
        }
        return out
    }()

    /// The description of a class by its archived name, or nil when the
    /// catalogue does not list it.
    @inline(__always)
    package static func description(of name: String) -> ClassDescription? {
        var utf8 = name.utf8.makeIterator()
        guard let a = utf8.next(), let b = utf8.next(), prefixes.contains(UInt16(a) << 8 | UInt16(b)) else { return nil }
        return byName[name]
    }

    /// The reader of a class by its archived name, or nil when the catalogue
    /// does not list it or reads no value from it.
    @inline(__always)
    static func reader(of name: String) -> ClassDescription.Reader? {
        var utf8 = name.utf8.makeIterator()
        guard let a = utf8.next(), let b = utf8.next(), prefixes.contains(UInt16(a) << 8 | UInt16(b)) else { return nil }
        return readers[name]
    }

    /// The archived names of the classes a description matches.
    static func names(where matches: (ClassDescription) -> Bool) -> Set<String> {
        Set(all.filter(matches).flatMap(\.names))
    }

    /// The archived names of the classes of one framework.
    package static func names(of framework: ClassFramework) -> Set<String> {
        Set(all.filter { $0.framework == framework }.flatMap(\.names))
    }

    /// The class that stands for each plain value (``ClassDescription/standsFor``),
    /// by the value's raw value: the encoder asks once per value it writes.
    private static let standing: [ClassDescription] = ArchivedValueKind.allCases.map { kind in
        all.first { $0.standsFor == kind } ?? .nsObject
    }

    /// The class a plain value stands for in an archive: the one the encoder
    /// and the editor write it as (`NSDate` for a date). `ClassCatalogueTests`
    /// proves every kind has one; `NSObject` answers otherwise.
    package static func standing(for kind: ArchivedValueKind) -> ClassDescription {
        standing.indices.contains(kind.rawValue) ? standing[kind.rawValue] : .nsObject
    }

    /// The descriptions with private subclasses (``ClassDescription/family``).
    private static let families: [ClassDescription] = all.filter { $0.family != nil }

    /// The description of a class or of a private subclass of one
    /// (`NSUnitLength` gives `NSUnit`'s), or nil.
    package static func description(orFamilyOf name: String) -> ClassDescription? {
        if let d = description(of: name) { return d }
        guard name.hasPrefix("NS") else { return nil }
        return families.first { $0.family?.contains(name) == true }
    }
}
