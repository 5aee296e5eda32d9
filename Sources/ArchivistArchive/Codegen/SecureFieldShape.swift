import ArchivistCore

/// What a referenced field of a custom object holds, as code that has adopted
/// `NSSecureCoding` names it: the classes `decodeObject(of:forKey:)` must be
/// given and the Swift type the field becomes.
indirect enum SecureFieldShape: Sendable, Equatable {
    /// A boxed number (`NSNumber`), read as this Swift type.
    case number(SecureNumberKind)
    /// A Foundation object that bridges to a Swift value type (`NSString` to
    /// `String`, `NSDate` to `Date`, ...).
    case bridged(className: String, swift: String)
    /// A Foundation object used as it is (`NSValue`, `NSAttributedString`,
    /// `NSOrderedSet`, ...), with the classes of what it holds.
    case foundation(className: String, holding: [SecureFieldShape])
    /// An object of a custom class (as Swift names it), with its custom
    /// superclasses, nearest first.
    case custom(String, ancestors: [String])
    /// `NSArray` (`[E]`) or `NSSet` (`Set<E>`); nil element when it was always empty.
    case list(className: String, element: SecureFieldShape?)
    /// `NSDictionary` (`[K: V]`); nil key or value when it was always empty.
    case map(className: String, key: SecureFieldShape?, value: SecureFieldShape?)

    /// The Swift type of the property.
    var swift: String {
        switch self {
        case .number(let kind): return kind.swift
        case .bridged(_, let swift): return swift
        case .foundation(let className, _): return className
        case .custom(let type, _): return type
        case .list(let className, let element):
            let isSet = Self.bridge(of: className) == .set
            guard let element, element.isHashable || !isSet else { return className }
            return isSet ? "Set<\(element.swift)>" : "[\(element.swift)]"
        case .map(let className, let key, let value):
            guard let key, let value, key.isHashable else { return className }
            return "[\(key.swift): \(value.swift)]"
        }
    }

    /// True when the Swift type bridges from its Foundation class with `as`.
    var isBridgedCollectionOrValue: Bool {
        switch self {
        case .bridged: return true
        case .list, .map: return swift.hasPrefix("[") || swift.hasPrefix("Set<")
        case .number, .foundation, .custom: return false
        }
    }

    /// True when the Swift type is `Hashable` (a set element, a dictionary key).
    private var isHashable: Bool {
        switch self {
        case .number, .bridged, .custom: return true
        case .foundation, .list, .map: return false
        }
    }

    /// The Foundation class a bridged Swift value is encoded as.
    var foundationClass: String? {
        switch self {
        case .bridged(let className, _), .list(let className, _), .map(let className, _, _): return className
        case .number, .foundation, .custom: return nil
        }
    }

    /// Every class `decodeObject(of:forKey:)` must allow, outermost first.
    var classes: [String] {
        var out: [String] = []
        func add(_ name: String) { if !out.contains(name) { out.append(name) } }
        switch self {
        case .number: add(ClassCatalogue.standing(for: .number).name)
        case .bridged(let className, _): add(className)
        case .foundation(let className, let holding):
            add(className)
            for h in holding { h.classes.forEach(add) }
        case .custom(let type, _): add(type)
        case .list(let className, let element):
            add(className)
            element?.classes.forEach(add)
        case .map(let className, let key, let value):
            add(className)
            key?.classes.forEach(add)
            value?.classes.forEach(add)
        }
        return out
    }

    /// One shape for values of two shapes: numbers widen to `Double`,
    /// collections merge their contents; nil when they cannot be one type.
    func merged(with other: SecureFieldShape) -> SecureFieldShape? {
        if self == other { return self }
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return a == .bool || b == .bool ? nil : .number(.double)
        case (.custom(let a, let aUp), .custom(let b, let bUp)):
            // Objects of related classes: their nearest common superclass.
            let bLine = [b] + bUp
            guard let i = ([a] + aUp).firstIndex(where: { bLine.contains($0) }) else { return nil }
            let line = [a] + aUp
            return .custom(line[i], ancestors: Array(line[(i + 1)...]))
        case (.list(let c1, let e1), .list(let c2, let e2)) where c1 == c2:
            guard let element = Self.merge(e1, e2) else { return nil }
            return .list(className: c1, element: element)
        case (.map(let c1, let k1, let v1), .map(let c2, let k2, let v2)) where c1 == c2:
            guard let key = Self.merge(k1, k2), let value = Self.merge(v1, v2) else { return nil }
            return .map(className: c1, key: key, value: value)
        case (.foundation(let c1, let h1), .foundation(let c2, let h2)) where c1 == c2:
            return .foundation(className: c1, holding: h1 + h2.filter { !h1.contains($0) })
        default:
            return nil
        }
    }

    /// Merges the contents of two collections, nil where a collection was
    /// always empty (which gives way to the other): `.some` of the merged
    /// contents, or nil when both were seen and cannot be one type.
    private static func merge(_ a: SecureFieldShape?, _ b: SecureFieldShape?) -> SecureFieldShape?? {
        guard let a else { return .some(b) }
        guard let b else { return .some(a) }
        return a.merged(with: b).map { .some($0) }
    }

    /// How a class bridges to Swift, from the catalogue (``ClassDescription/bridge``).
    static func bridge(of className: String) -> SwiftBridge {
        ClassCatalogue.description(of: className)?.bridge ?? .none
    }

    /// The bridged shape of a Foundation class, or the class as it is.
    static func foundationObject(_ className: String) -> SecureFieldShape {
        if let d = ClassCatalogue.description(of: className), d.bridge == .value {
            return .bridged(className: className, swift: d.swiftType)
        }
        return .foundation(className: className, holding: [])
    }

    /// The shape of an object of the class that stands for a plain value (`NSString` for a string).
    static func standing(for kind: ArchivedValueKind) -> SecureFieldShape {
        foundationObject(ClassCatalogue.standing(for: kind).name)
    }
}

/// How a boxed or inline number is read.
enum SecureNumberKind: Sendable, Equatable {
    case int, double, float, bool

    /// The kind of a property-list number; nil for other values.
    init?(_ value: PlistValue) {
        switch value {
        case .integer: self = .int
        case .real(let r): self = r.width == .bits32 ? .float : .double
        case .bool: self = .bool
        case .string, .data, .date, .array, .dictionary, .uid, .null: return nil
        }
    }

    /// The Swift type.
    var swift: String {
        switch self {
        case .int: return "Int"
        case .double: return "Double"
        case .float: return "Float"
        case .bool: return "Bool"
        }
    }

    /// The `NSNumber` property that reads it (`intValue`).
    var numberProperty: String { swift.lowercased() + "Value" }

    /// The `NSCoder` method that reads it inline (`decodeInteger`).
    var inlineDecoder: String {
        switch self {
        case .int: return "decodeInteger"
        case .double: return "decodeDouble"
        case .float: return "decodeFloat"
        case .bool: return "decodeBool"
        }
    }
}
