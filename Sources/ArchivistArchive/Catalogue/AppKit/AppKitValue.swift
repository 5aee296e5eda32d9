import ArchivistCore

/// AppKit's classes that archive a value rather than an object graph: colours,
/// fonts and named images, as compiled nibs hold them (`NSColor`, `NSFont`,
/// `NSCustomResource`, `NSButtonImageSource`).
///
/// Read only from the exact field sets AppKit writes; an object of these
/// classes with any other field stays a generic object, so nothing is hidden.
///
/// Every view reads it as a ``DescribedValue`` (``described``): its `text`,
/// and its typed `fields` under its `kind` (`color`, `font`, `resource`).
package struct AppKitValue: Equatable, Sendable {
    /// An `NSFont`: `NSName` and `NSSize` (`NSfFlags`, AppKit's private flags
    /// word, is not shown).
    package struct Font: Equatable, Sendable {
        /// The font's PostScript name.
        package var name: String
        /// The point size.
        package var size: Double
    }

    /// A resource named in a nib: `NSCustomResource` (`NSClassName`,
    /// `NSResourceName`), e.g. an `NSImage` by name; or `NSButtonImageSource`
    /// (`NSImageName`). Newer nibs add Interface Builder's `IBNamespaceID`
    /// ("system") and `IBDesignSize` (an NSValue size), with
    /// `IBDesignImageConfiguration` nil
    /// (`sparkle/Sources/Sparkle/Autoupdate.app/Contents/Resources/SUStatus.nib`).
    package struct Resource: Equatable, Sendable {
        /// The resource's class (`NSImage`, `NSSound`).
        package var className: String
        /// Its name.
        package var name: String
        /// `IBNamespaceID`, when the nib gives one.
        package var namespace: String?
        /// `IBDesignSize` as `dump` shows a size (`{w, h}`), when the nib gives one.
        package var designSize: String?
    }

    private enum Shape: Equatable, Sendable {
        case color(ArchivedColor)
        case font(Font)
        case resource(Resource)
    }

    private let shape: Shape

    private init(_ shape: Shape) {
        self.shape = shape
    }

    /// A colour.
    init(color: ArchivedColor) { self.init(.color(color)) }

    /// A font.
    init(font: Font) { self.init(.font(font)) }

    /// A named resource.
    init(resource: Resource) { self.init(.resource(resource)) }

    /// The one-line text `dump` shows: `NSColor(calibratedWhite 0.5 1)`,
    /// `NSColor(catalog System/controlColor)`, `NSFont("LucidaGrande" 13)`,
    /// `NSImage(named "NSSwitch")`.
    package var text: String {
        switch shape {
        case .color(let c): return "NSColor(\(c.text))"
        case .font(let f): return "NSFont(\(PlistValue.quoted(f.name)) \(Self.number(f.size)))"
        case .resource(let r):
            var text = "\(Self.word(r.className))(named \(PlistValue.quoted(r.name))"
            if let namespace = r.namespace { text += " in \(Self.word(namespace))" }
            if let designSize = r.designSize { text += " design size \(designSize)" }
            return text + ")"
        }
    }

    /// The kind, as `dump --json` names its entry: `color`, `font` or `resource`.
    package var kind: String {
        switch shape {
        case .color: return "color"
        case .font: return "font"
        case .resource: return "resource"
        }
    }

    /// The typed fields as a property-list dictionary, for JSON.
    package var fields: PlistValue {
        switch shape {
        case .color(let c): return c.fields
        case .font(let f): return .dictionary(PlistDictionary([("name", .string(f.name)), ("size", .double(f.size))]))
        case .resource(let r):
            var d = PlistDictionary([("class", .string(r.className)), ("name", .string(r.name))])
            if let namespace = r.namespace { d["namespace"] = .string(namespace) }
            if let designSize = r.designSize { d["designSize"] = .string(designSize) }
            return .dictionary(d)
        }
    }

    /// The value as every view shows it: its text with no class before it,
    /// `dump --json`'s `value` and the typed fields under ``kind``, exported
    /// as its text; key paths still reach the archived fields.
    var described: DescribedValue {
        .scalar("appKit", lead: .none, text: text, entries: PlistDictionary([("value", .string(text)), (kind, fields)]),
                           exported: .string(text), swiftType: "String", keepsFields: true)
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

    static func double(_ v: PlistValue) -> Double? {
        switch v {
        case .real(let r): return r.value
        case .integer(let i): return i.doubleValue
        case .bool, .string, .date, .data, .array, .dictionary, .uid, .null: return nil
        }
    }
}
