import ArchivistCore

/// How one field of an archived object was written.
public enum FieldValue: Sendable, Equatable {
    /// A primitive in the object's own dictionary (`encode(_: Int/Double/Bool, forKey:)`):
    /// a secure decoder's `decodeObject(of:forKey:)` cannot read it.
    case inline(PlistValue)
    /// A UID to an object in `$objects`.
    case reference(Int)
    /// A list of UIDs (as `NS.objects` and `NS.keys` hold them).
    case references([Int])
}

/// A field of an archived object, in the order the archive holds it.
public struct Field: Sendable, Equatable {
    /// The key it was encoded under.
    public var key: String
    /// Its value.
    public var value: FieldValue

    /// A field.
    ///
    /// - Parameters:
    ///   - key: The key it is encoded under.
    ///   - value: Its value.
    public init(key: String, value: FieldValue) {
        self.key = key
        self.value = value
    }

    /// The same key (by code points: `PlistKeys`) and an equal value.
    public static func == (lhs: Field, rhs: Field) -> Bool {
        PlistKeys.same(lhs.key, rhs.key) && lhs.value == rhs.value
    }
}

/// One entry of `$objects` as a node of the object graph.
public enum ArchivedNode: Sendable, Equatable {
    /// `$null` (index 0).
    case null
    /// A plain value stored directly in `$objects` (NSString, NSNumber, NSData written inline).
    case value(PlistValue)
    /// An object with a class and fields.
    case object(ArchivedObject)
    /// A class description (`$classname`, `$classes`), referred to by `$class`.
    case classDescription(ClassName, chain: [String])
}

/// An object of a keyed archive: its class chain and its fields in order.
public struct ArchivedObject: Sendable, Equatable {
    /// The class (`$classname`), archived and readable.
    public var className: ClassName
    /// The class chain from `$classes` (`["NSMutableArray", "NSArray", "NSObject"]`).
    public var classChain: [String]
    /// The fields other than `$class`, in order.
    public var fields: [Field]

    /// An object of a class with fields.
    ///
    /// - Parameters:
    ///   - className: The object's class.
    ///   - classChain: The class and its superclasses, as `$classes` lists them.
    ///   - fields: The fields other than `$class`, in order.
    public init(className: ClassName, classChain: [String], fields: [Field]) {
        self.className = className
        self.classChain = classChain
        self.fields = fields
    }

    /// The field with a key (the same code points: `PlistKeys`).
    ///
    /// - Parameter key: The key, compared by code points.
    public subscript(key: String) -> FieldValue? {
        fields.first { PlistKeys.same($0.key, key) }?.value
    }
}
