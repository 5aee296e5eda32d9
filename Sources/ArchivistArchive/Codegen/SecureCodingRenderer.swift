import ArchivistCore

/// The Swift source of `SecureCodingClass`es: `supportsSecureCoding`, the
/// properties, a memberwise initializer, `init?(coder:)` reading each field
/// as the migrated archives hold it, and `encode(with:)` writing it back so.
enum SecureCodingRenderer {
    /// A class's declaration; a class nested in another type (`CPU.CPUCoder`)
    /// is declared in an extension of that type, which the app declares. A
    /// class with a custom superclass (from its `$classes` chain) subclasses
    /// it, declaring only the fields its superclasses do not have and
    /// chaining `init?(coder:)` and `encode(with:)` to them; a superclass is
    /// not `final`.
    /// `bases` are the classes some class subclasses.
    static func declaration(of c: SecureCodingClass, in all: [String: SecureCodingClass], bases: Set<String>) -> String {
        let path = c.swiftType.split(separator: ".").map(String.init)
        guard let name = path.last, !c.swiftType.contains("<") else {
            return "// \(c.swiftType) is a generic class: declare it by hand, reading its fields as the other classes here do.\n"
        }
        let line = ancestors(of: c, in: all)
        let isBase = bases.contains(c.swiftType)
        var inherited: [SecureCodingClass.Field] = []
        for ancestor in line.reversed() {
            for f in ancestor.fields where !inherited.contains(where: { PlistKeys.same($0.key, f.key) }) { inherited.append(f) }
        }
        let inheritedKeys = Set(inherited.map { PlistKey($0.key) })
        let named = propertyNames(inherited + c.fields.filter { !inheritedKeys.contains(PlistKey($0.key)) })
        let parents = Array(named.prefix(inherited.count))
        let fields = Array(named.dropFirst(inherited.count))
        let superclass = line.first?.swiftType
        let outer = path.dropLast()
        let indent = outer.isEmpty ? "" : "    "
        var lines: [String] = []
        lines.append("/// Archived as " + SwiftNames.comment(c.archivedNames.joined(separator: ", ")) + ".")
        lines.append("\(isBase ? "" : "final ")class \(name): \(superclass ?? "NSObject, NSSecureCoding") {")
        lines.append("    " + (superclass != nil ? "override class" : isBase ? "class" : "static") + " var supportsSecureCoding: Bool { true }")
        lines.append("")
        for (f, n) in fields {
            let notes = f.notes + (f.storage == .object(nil) ? ["only nulls seen: the type is a guess"] : [])
            lines.append("    var \(n): \(type(f))" + (notes.isEmpty ? "" : " // " + SwiftNames.comment(notes.joined(separator: "; "))))
        }
        if !fields.isEmpty { lines.append("") }
        // With no fields of its own, the memberwise initializer has its superclass's signature.
        lines.append("    " + (fields.isEmpty ? "override " : "") + "init(" + named.map { "\($0.name): \(type($0.field))" }.joined(separator: ", ") + ") {")
        for (_, n) in fields { lines.append("        self.\(n) = \(n)") }
        lines.append("        super.init(" + parents.map { "\($0.name): \($0.name)" }.joined(separator: ", ") + ")")
        lines.append("    }")
        lines.append("")
        lines.append("    " + (isBase || superclass != nil ? "required " : "") + "init?(coder: NSCoder) {")
        for (f, n) in fields where !f.optional && !f.isInline {
            lines.append("        guard let \(n) = \(decode(f)) else { return nil }")
        }
        for (f, n) in fields {
            lines.append("        self.\(n) = " + (f.optional || f.isInline ? decode(f) : n))
        }
        lines.append(superclass != nil ? "        super.init(coder: coder)" : "        super.init()")
        lines.append("    }")
        lines.append("")
        lines.append("    " + (superclass != nil ? "override " : "") + "func encode(with coder: NSCoder) {")
        if superclass != nil { lines.append("        super.encode(with: coder)") }
        for (f, n) in fields { lines.append("        " + encode(f, n)) }
        lines.append("    }")
        lines.append("}")
        var out = ""
        if !outer.isEmpty { out += "extension \(outer.joined(separator: ".")) {\n" }
        for line in lines { out += line.isEmpty ? "\n" : indent + line + "\n" }
        if !outer.isEmpty { out += "}\n" }
        return out
    }

    /// A class's custom superclasses, nearest first (each once, so a chain
    /// that loops ends).
    private static func ancestors(of c: SecureCodingClass, in all: [String: SecureCodingClass]) -> [SecureCodingClass] {
        var out: [SecureCodingClass] = []
        var seen: Set<String> = [c.swiftType]
        var next = c.superclass
        while let name = next, seen.insert(name).inserted, let ancestor = all[name] {
            out.append(ancestor)
            next = ancestor.superclass
        }
        return out
    }

    /// The fields with their property names (`SwiftNames.propertyNames`, in
    /// lower camel case, avoiding the names `NSObject` has).
    static func propertyNames(_ fields: [SecureCodingClass.Field]) -> [(field: SecureCodingClass.Field, name: String)] {
        Array(zip(fields, SwiftNames.propertyNames(for: fields.map(\.key), avoiding: SwiftNames.objectMembers, lowerCamel: true)))
    }

    /// A function that maps every archived name to its class, for
    /// `NSKeyedUnarchiver` (needed wherever the app's module is not the
    /// archived one, and on Linux, which cannot look up mangled names).
    static func registration(of classes: [SecureCodingClass]) -> String {
        var out = "\n/// Maps the archived class names to these classes; call it once before decoding.\n"
        out += "func registerArchivedClassNames() {\n"
        for c in classes where !c.swiftType.contains("<") {
            for archived in c.archivedNames {
                out += "    NSKeyedUnarchiver.setClass(\(c.swiftType).self, forClassName: \(PlistValue.quoted(archived)))\n"
            }
        }
        return out + "}\n"
    }

    /// The shape a field is read as (only-null fields as strings).
    private static func shape(_ f: SecureCodingClass.Field) -> SecureFieldShape {
        if case .object(let s?) = f.storage { return s }
        return SecureFieldShape.standing(for: .string)
    }

    private static func type(_ f: SecureCodingClass.Field) -> String {
        let base: String
        switch f.storage {
        case .inline(let kind): base = kind.swift
        case .object: base = shape(f).swift
        }
        return base + (f.optional ? "?" : "")
    }

    /// An expression reading the field: optional, except for an inline field
    /// that every object holds.
    private static func decode(_ f: SecureCodingClass.Field) -> String {
        let key = PlistValue.quoted(f.key)
        if case .inline(let kind) = f.storage {
            let read = "coder.\(kind.inlineDecoder)(forKey: \(key))"
            return f.optional ? "coder.containsValue(forKey: \(key)) ? \(read) : nil" : read
        }
        let s = shape(f)
        let classes = s.classes.map { $0 + ".self" }
        let of = classes.count == 1 ? classes[0] : "[" + classes.joined(separator: ", ") + "]"
        let read = "coder.decodeObject(of: \(of), forKey: \(key))"
        let typed: String
        switch s {
        case .number(let kind): typed = read + "?." + kind.numberProperty
        case .custom: typed = read
        case .bridged, .list, .map, .foundation:
            if classes.count == 1, !s.isBridgedCollectionOrValue {
                typed = read
            } else {
                typed = read + (classes.count == 1 ? " as \(s.swift)?" : " as? \(s.swift)")
            }
        }
        // A missing key is nil for an optional field: Foundation on Linux makes
        // decodeObject(of:forKey:) of a missing key fail the whole decoding.
        return f.optional ? "coder.containsValue(forKey: \(key)) ? \(typed) : nil" : typed
    }

    /// The statement writing the field.
    private static func encode(_ f: SecureCodingClass.Field, _ name: String) -> String {
        let key = PlistValue.quoted(f.key)
        if case .inline = f.storage {
            return f.optional ? "if let \(name) { coder.encode(\(name), forKey: \(key)) }" : "coder.encode(\(name), forKey: \(key))"
        }
        let s = shape(f)
        switch s {
        case .number:
            return "coder.encode(" + (f.optional ? "\(name).map { NSNumber(value: $0) }" : "NSNumber(value: \(name))") + ", forKey: \(key))"
        case .bridged, .list, .map:
            guard s.isBridgedCollectionOrValue, let cls = s.foundationClass else { return "coder.encode(\(name), forKey: \(key))" }
            return "coder.encode(" + (f.optional ? "\(name).map { $0 as \(cls) }" : "\(name) as \(cls)") + ", forKey: \(key))"
        case .custom, .foundation:
            return "coder.encode(\(name), forKey: \(key))"
        }
    }
}
