import ArchivistCore

/// AppKit's classes that archive a value rather than an object graph: colours,
/// fonts and named images, as compiled nibs hold them (`NSColor`, `NSFont`,
/// `NSCustomResource`, `NSButtonImageSource`).
///
/// Read only from the exact field sets AppKit writes; an object of these
/// classes with any other field stays a generic object, so nothing is hidden.
public enum AppKitValue: Equatable, Sendable {
    /// An `NSColor`.
    case color(ArchivedColor)
    /// An `NSFont` (`NSName`, `NSSize`; `NSfFlags`, AppKit's private flags word, is not shown).
    case font(name: String, size: Double)
    /// A resource named in a nib: `NSCustomResource` (`NSClassName`, `NSResourceName`),
    /// e.g. an `NSImage` by name; or `NSButtonImageSource` (`NSImageName`).
    /// Newer nibs add Interface Builder's `IBNamespaceID` ("system") and
    /// `IBDesignSize` (an NSValue size), with `IBDesignImageConfiguration` nil
    /// (`sparkle/Sources/Sparkle/Autoupdate.app/Contents/Resources/SUStatus.nib`).
    case resource(className: String, name: String, namespace: String? = nil, designSize: String? = nil)

    /// The class's value read from an object, or nil when the object is not
    /// one of these classes in a shape AppKit writes.
    static func interpret(_ o: ArchivedObject, in graph: ObjectGraph) -> AppKitValue? {
        switch o.className.archived {
        case "NSColor":
            return ArchivedColor(o, in: graph).map { .color($0) }
        case "NSFont":
            guard Self.only(o, ["NSName", "NSSize"], optional: ["NSfFlags"]),
                  let name = graph.string(o["NSName"]), let size = graph.number(o["NSSize"]).flatMap(Self.double) else { return nil }
            return .font(name: name, size: size)
        case "NSCustomResource":
            guard Self.only(o, ["NSClassName", "NSResourceName"], optional: ["IBNamespaceID", "IBDesignSize", "IBDesignImageConfiguration"]),
                  let className = graph.string(o["NSClassName"]), let name = graph.string(o["NSResourceName"]) else { return nil }
            if let configuration = o["IBDesignImageConfiguration"], configuration != .reference(0) { return nil }
            var namespace: String?, designSize: String?
            if let field = o["IBNamespaceID"] {
                guard let s = graph.string(field) else { return nil }
                namespace = s
            }
            if case .reference(let r)? = o["IBDesignSize"] {
                guard let value = graph.object(r), case .geometry(.size(let s))? = FoundationValue.interpret(value, in: graph) else { return nil }
                designSize = s
            } else if o["IBDesignSize"] != nil {
                return nil
            }
            return .resource(className: className, name: name, namespace: namespace, designSize: designSize)
        case "NSButtonImageSource":
            guard Self.only(o, ["NSImageName"]), let name = graph.string(o["NSImageName"]) else { return nil }
            return .resource(className: "NSImage", name: name)
        default:
            return nil
        }
    }

    /// The one-line text `dump` shows: `NSColor(calibratedWhite 0.5 1)`,
    /// `NSColor(catalog System/controlColor)`, `NSFont("LucidaGrande" 13)`,
    /// `NSImage(named "NSSwitch")`.
    public var text: String {
        switch self {
        case .color(let c): return "NSColor(\(c.text))"
        case .font(let name, let size): return "NSFont(\(PlistValue.quoted(name)) \(Self.number(size)))"
        case .resource(let className, let name, let namespace, let designSize):
            var text = "\(Self.word(className))(named \(PlistValue.quoted(name))"
            if let namespace { text += " in \(Self.word(namespace))" }
            if let designSize { text += " design size \(designSize)" }
            return text + ")"
        }
    }

    /// The kind, as `dump --json` names its entry: `color`, `font` or `resource`.
    public var kind: String {
        switch self {
        case .color: return "color"
        case .font: return "font"
        case .resource: return "resource"
        }
    }

    /// The typed fields as a property-list dictionary, for JSON.
    public var fields: PlistValue {
        switch self {
        case .color(let c): return c.fields
        case .font(let name, let size): return .dictionary(PlistDictionary([("name", .string(name)), ("size", .double(size))]))
        case .resource(let className, let name, let namespace, let designSize):
            var d = PlistDictionary([("class", .string(className)), ("name", .string(name))])
            if let namespace { d["namespace"] = .string(namespace) }
            if let designSize { d["designSize"] = .string(designSize) }
            return .dictionary(d)
        }
    }

    /// A number as the shortest text that reads back the same, without `.0` for whole numbers.
    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15, let i = Int64(exactly: d) { return String(i) }
        return "\(d)"
    }

    /// A name as it is when it is plain (ASCII letters, digits, `_`, `.`, `-`), else quoted.
    static func word(_ s: String) -> String {
        let plain = !s.isEmpty && s.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2E || b == 0x2D
        }
        return plain ? s : PlistValue.quoted(s)
    }

    /// Whether the object's fields are exactly `required` plus any of `optional`.
    static func only(_ o: ArchivedObject, _ required: Set<String>, optional: Set<String> = []) -> Bool {
        var seen = 0
        for field in o.fields {
            if required.contains(field.key) { seen += 1 } else if !optional.contains(field.key) { return false }
        }
        return seen == required.count
    }

    private static func double(_ v: PlistValue) -> Double? {
        switch v {
        case .real(let r): return r.value
        case .integer(let i): return i.doubleValue
        case .bool, .string, .date, .data, .array, .dictionary, .uid, .null: return nil
        }
    }
}
