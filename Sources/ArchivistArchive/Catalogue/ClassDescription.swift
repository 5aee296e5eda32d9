import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

/// What Archivist knows of one Apple class: one value per class, in a file of
/// its own (`Catalogue/Foundation/NSIndexSet.swift`), listed once in
/// ``ClassCatalogue``. Every view (the dumps, Codable export and schema, key
/// paths, the checks, the encoder and the editor) asks the catalogue and
/// switches over ``ClassShape``, never over a class name.
package struct ClassDescription: Sendable {
    /// Reads an object of the class into the value its shape holds, or nil
    /// when the object's fields are not in a form the class writes (it then
    /// stays a generic object, so nothing is hidden). A plain function, not a
    /// closure: reading allocates nothing per object beyond the value.
    typealias Reader = @Sendable (ArchivedObject, ObjectGraph) -> FoundationValue?

    /// The archived names, the class's own first, then its mutable variants
    /// (`NSIndexSet`, `NSMutableIndexSet`), which read the same way.
    package var names: [String]
    /// The `$classes` chain of the first name as Foundation writes it, the class first.
    package var chain: [String]
    /// The framework the class belongs to.
    package var framework: ClassFramework
    /// The archived fields the reader takes, in the order the class writes them.
    package var fields: [ClassField]
    /// The shape the class reads into (``ClassShape/opaque`` when Archivist
    /// reads no value from it and shows its fields).
    package var shape: ClassShape
    /// The Swift type an object of the class becomes in Codable export and
    /// generated code (`[Any]`, `Date`; the class name when there is none).
    package var swiftType: String
    /// Whether a secure unarchiver decodes the class unnamed.
    package var secureCoding: SecureCodingStatus
    /// How generated code takes an object of the class from `decodeObject(of:forKey:)`.
    package var bridge: SwiftBridge
    /// The plain value an object of the class stands for: the encoder and
    /// the editor write that value as an object of the class (its `fields`,
    /// in order), and a plain value of `$objects` is that class to
    /// generated code and `diff`. At most one class stands for each value.
    package var standsFor: ArchivedValueKind?
    /// How NSArchiver writes the class in a typedstream, which the
    /// typedstream bridge puts in the keyed form (nil: numbered fields).
    package var typedstream: TypedstreamForm?
    /// The private subclasses that count as the class's framework's
    /// (`NSUnitLength` for `NSUnit`), besides `names`.
    package var family: ClassFamily?
    /// The reader; nil for a class known by name only.
    var read: Reader?
    /// What the unarchiver check finds wrong in an object's fields, against
    /// what the class's decoder reads; nil when it checks none.
    var check: PayloadCheck?
    /// Archives holding the class, which the catalogue's generated tests decode.
    package var examples: [ClassExample]

    /// The unarchiver check of one object: one sentence per problem, each naming the field.
    typealias PayloadCheck = @Sendable (FoundationPayload) -> [String]

    init(
        _ names: [String], chain: [String]? = nil, framework: ClassFramework, fields: [ClassField] = [],
        shape: ClassShape = .opaque, swiftType: String? = nil, secureCoding: SecureCodingStatus = .secure,
        bridge: SwiftBridge = .none, standsFor: ArchivedValueKind? = nil, typedstream: TypedstreamForm? = nil,
        family: ClassFamily? = nil, check: PayloadCheck? = nil, read: Reader? = nil, examples: [ClassExample] = []
    ) {
        self.names = names
        self.chain = chain ?? [names.first ?? "", "NSObject"]
        self.framework = framework
        self.fields = fields
        self.shape = shape
        self.swiftType = swiftType ?? names.first ?? ""
        self.secureCoding = secureCoding
        self.bridge = bridge
        self.standsFor = standsFor
        self.typedstream = typedstream
        self.family = family
        self.read = read
        self.check = check
        self.examples = examples
    }

    /// An object of the class as the encoder and the editor write it: its
    /// fields' keys in order, with `values` (one per field).
    func written(_ values: [FieldValue]) -> ArchivedObject {
        ArchivedObject(className: ClassName(archived: name), classChain: [name] + chain.dropFirst(),
                       fields: zip(fields, values).map { Field(key: $0.key, value: $1) })
    }

    /// Whether the class declares a field of this key.
    package func declares(_ key: String) -> Bool {
        fields.contains { $0.key == key }
    }

    /// The class's name (its first archived name).
    package var name: String { names.first ?? "" }
}

/// One archived field of a class.
package struct ClassField: Sendable, Equatable {
    /// How the field is stored.
    package enum Storage: Sendable, Equatable {
        /// Written in place (`NS.time`, an inline real).
        case inline
        /// A `CF$UID` reference to another object.
        case reference
        /// A list of references (`NS.objects`).
        case references
        /// Numbered fields sharing the key as prefix (`NS.object.0`, `$1`, ...).
        case numbered
    }

    /// The key (the prefix of numbered fields).
    package var key: String
    /// What the field holds: `string`, `data`, `integer`, `real`, `object`, ...
    package var kind: String
    /// How it is stored.
    package var storage: Storage
    /// Whether the class always writes it.
    package var optional: Bool

    package static func inline(_ key: String, _ kind: String, optional: Bool = false) -> ClassField {
        ClassField(key: key, kind: kind, storage: .inline, optional: optional)
    }

    package static func reference(_ key: String, _ kind: String = "object", optional: Bool = false) -> ClassField {
        ClassField(key: key, kind: kind, storage: .reference, optional: optional)
    }

    package static func references(_ key: String, _ kind: String = "object", optional: Bool = false) -> ClassField {
        ClassField(key: key, kind: kind, storage: .references, optional: optional)
    }

    package static func numbered(_ prefix: String, _ kind: String = "object") -> ClassField {
        ClassField(key: prefix, kind: kind, storage: .numbered, optional: true)
    }
}

/// How generated code takes an object of a class from `decodeObject(of:forKey:)`.
package enum SwiftBridge: Sendable, Equatable {
    /// As the class (`NSValue`, `NSOrderedSet`).
    case none
    /// As its Swift value type, ``ClassDescription/swiftType`` (`NSString` as `String`).
    case value
    /// As a Swift array of its elements' one type (`[E]`).
    case array
    /// As a Swift set of its elements' one type (`Set<E>`).
    case set
}

/// A plain value that one catalogued class stands for in an archive.
package enum ArchivedValueKind: Int, Sendable, Equatable, CaseIterable {
    case string, number, data, date, array, dictionary, uuid, url
}

/// How NSArchiver writes a class's contents in a typedstream.
package enum TypedstreamForm: Sendable, Equatable {
    /// `+` text: a plain string.
    case string
    /// `*` type, then the number: a plain number.
    case number
    /// `i` length, then `[Nc]` bytes: plain data.
    case data
    /// A count, then the members (`NS.objects`).
    case list
    /// A count, then keys and values alternating (`NS.keys`, `NS.objects`).
    case map
    /// `c` 1 and the base URL, or `c` 0; then the string (`NS.base`, `NS.relative`).
    case url
    /// The string, then its attribute runs (`NSString`, `NSAttributes`, `NSAttributeInfo`).
    case attributedString
}

/// Private subclasses of a class, by their names: `NS` plus a prefix
/// (`NSUnitLength`) or a suffix (`NSSimpleRegularExpressionCheckingResult`).
package struct ClassFamily: Sendable, Equatable {
    package var prefix: String?
    package var suffix: String?

    package static func prefix(_ p: String) -> ClassFamily { ClassFamily(prefix: p, suffix: nil) }
    package static func suffix(_ s: String) -> ClassFamily { ClassFamily(prefix: nil, suffix: s) }

    /// Whether an `NS` class name belongs to the family.
    func contains(_ name: String) -> Bool {
        if let prefix, !name.hasPrefix(prefix) { return false }
        if let suffix, !name.hasSuffix(suffix) { return false }
        return prefix != nil || suffix != nil
    }
}

/// The framework a catalogued class belongs to, as `classes` labels it.
package enum ClassFramework: String, Sendable, CaseIterable {
    case foundation = "Foundation"
    case appKit = "AppKit"
    case uiKit = "UIKit"
    case cloudKit = "CloudKit"
}

/// Whether a secure unarchiver decodes a class without the caller naming it.
package enum SecureCodingStatus: Sendable, Equatable {
    /// Adopts NSSecureCoding and is allowed unnamed (Foundation's value classes).
    case secure
    /// Adopts NSSecureCoding, but a caller names it to decode it (NSHashTable, AppKit's classes).
    case secureWhenNamed
    /// Does not adopt NSSecureCoding (`NSObject`, the formatters).
    case insecure
}

/// An archive holding objects of a class, for the catalogue's generated
/// tests: each is decoded, and its first object of the class must read into
/// the class's shape and show as `shows` in `dump`.
package struct ClassExample: Sendable {
    /// Where the archive comes from.
    package enum Source: Sendable {
        /// A file under `../shared` (`real-world/sparkle/...`).
        case shared(String)
        /// An archive built in code, in the form the class's framework
        /// writes it, for classes Foundation on Linux does not archive.
        case built(PlistValue)
        #if ARCHIVIST_EXAMPLES
        /// An object Foundation archives with `NSKeyedArchiver` (the test's
        /// oracle: Foundation's own bytes). Compiled into debug builds only
        /// (`ARCHIVIST_EXAMPLES`, set by the package for them), where the
        /// tests run: making the objects needs Foundation's classes, which
        /// would otherwise link Foundation and ICU into the release binary
        /// (42 MiB, and 1,800 conformance records that every first dynamic
        /// cast at start-up scans).
        case foundation(@Sendable () -> NSObject)
        #endif
    }

    /// Where the archive comes from.
    package var source: Source
    /// The line `dump` shows for the object, after its class and label.
    package var shows: String

    package static func shared(_ path: String, shows: String) -> ClassExample {
        ClassExample(source: .shared(path), shows: shows)
    }

    /// An archive whose root is one object of `className` with `fields`;
    /// `extra` values follow it in `$objects` (UIDs 2, 3, ...), then the
    /// root's class (UID `2 + extra.count`), then `classes`' chains (UIDs
    /// `3 + extra.count`, ...), for the extra objects' `$class`.
    package static func built(
        _ className: String, _ fields: [(String, PlistValue)], extra: [PlistValue] = [], classes: [[String]] = [], shows: String
    ) -> ClassExample {
        let rootClass = PlistValue.uid(UInt64(2 + extra.count))
        var objects: [PlistValue] = [.string("$null"), .dictionary(PlistDictionary(fields + [("$class", rootClass)]))] + extra
        for chain in [[className, "NSObject"]] + classes {
            objects.append(.dictionary(PlistDictionary([
                ("$classname", .string(chain.first ?? "")), ("$classes", .array(chain.map { .string($0) })),
            ])))
        }
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .int(100000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        return ClassExample(source: .built(archive), shows: shows)
    }

    #if ARCHIVIST_EXAMPLES
    package static func foundation(shows: String, _ make: @escaping @Sendable () -> NSObject) -> ClassExample {
        ClassExample(source: .foundation(make), shows: shows)
    }
    #endif
}
