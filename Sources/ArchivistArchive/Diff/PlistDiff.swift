import ArchivistCore

/// A structural diff of two property lists in any formats (an XML and a binary
/// plist of the same tree are equal). Keyed archives are compared as object
/// graphs from their `$top` keys: each object as its class (archived name and
/// `$classes` chain) and fields, references followed, so an object that moved
/// to another `$objects` index is not a change, while everything `migrate`
/// changes is: a class renamed, a key renamed or removed, an inline primitive
/// boxed into an NSNumber.
package struct PlistDiff: Sendable {
    /// One difference.
    package struct Change: Sendable, Equatable {
        /// Added, removed, or changed.
        package enum Kind: String, Sendable {
            case added, removed, changed
        }

        /// What happened.
        package var kind: Kind
        /// The key path (dotted, `\.` for a dot in a key).
        package var path: String
        /// The value before (nil when added).
        package var old: PlistValue?
        /// The value after (nil when removed).
        package var new: PlistValue?
        /// What the value before is, in words: its type (`real`), how an
        /// archive stores it where that changed (`inline real`, `NSNumber`),
        /// `class` for an object's class (nil when added).
        package var oldType: String?
        /// What the value after is, as `oldType` (nil when removed).
        package var newType: String?
    }

    /// The differences, in the order met (the first file's keys first).
    package private(set) var changes: [Change] = []

    /// The key paths of reals stored in another width on each side (a
    /// 32-bit real written back as 64-bit) whose values are the same number
    /// as the narrower width holds it: not changes, since a 32-bit real read
    /// back as a `Float` is the one written (the 32-bit `0.9456522` and the
    /// 64-bit `0.945652186870575` are one `Float`). In the order met, at
    /// most `maxChanges`.
    package private(set) var widthChanges: [String] = []

    /// The most changes collected; a diff beyond stops there.
    package static let maxChanges = 100_000

    /// Compares two compact trees (documents' `tree`s): archives' graphs are
    /// built on the trees, not on values converted from them.
    package init(_ a: PlistTree, _ b: PlistTree) throws {
        compare(try Self.comparable(a), try Self.comparable(b), path: [], depth: 0, levels: 0)
    }

    /// The tree compared for a file: an archive as its objects.
    static func comparable(_ tree: PlistTree) throws -> PlistValue {
        guard KeyedArchive.looksLikeArchive(tree) else { return tree.value }
        return try comparable(try ObjectGraph(tree))
    }

    /// An archive's objects, keyed by `$top` key.
    private static func comparable(_ graph: ObjectGraph) throws -> PlistValue {
        var exporter = CodableExporter(graph: graph, rules: MigrationRules(),
                                       options: CodableOptions(cycles: .omit, nativeLeaves: true), budget: 1_000_000, nesting: 0)
        exporter.classKey = classKey
        exporter.inlineKey = inlineKey
        exporter.keepsRealWidth = true
        // Archives in data are compared as archives, by `$top` key (root.data.root.name).
        exporter.expandsNestedArchives = false
        try exporter.refuseExpansion(of: graph.top.map(\.object), path: graph.top.count == 1 ? graph.top[0].key : "")
        var top = PlistDictionary()
        for (key, entry) in graph.topEntries {
            switch entry {
            case .object(let index): top[key] = try exporter.object(index, path: key, depth: 0) ?? .null
            case .value(let value): top[key] = value
            }
        }
        // Keyed by $top keys, so paths read as `get` takes them (root.name).
        return .dictionary(top)
    }

    /// The key of an archived object's class in the compared tree: its
    /// description, then its `$classes` chain.
    static let classKey = "$class"
    /// The key of the one-entry dictionary that stands for an inline primitive.
    static let inlineKey = "$inline"

    private mutating func record(_ kind: Change.Kind, _ path: [String], _ old: PlistValue?, _ new: PlistValue?) {
        guard changes.count < Self.maxChanges else { return }
        let oldInline = old.flatMap(Self.inlined), newInline = new.flatMap(Self.inlined)
        // Boxing shows as the storage it changed: `inline real 3.5 -> NSNumber 3.5`.
        func type(_ v: PlistValue?, inline: PlistValue?, otherInline: PlistValue?) -> String? {
            if let inline { return "inline " + inline.typeName }
            guard let v else { return nil }
            if otherInline != nil, SecureCodingCheck.isPrimitive(v) { return ClassCatalogue.standing(for: .number).name }
            return v.typeName
        }
        changes.append(Change(kind: kind, path: PlistKeyPath(components: path).description,
                              old: oldInline ?? old, new: newInline ?? new,
                              oldType: type(old, inline: oldInline, otherInline: newInline),
                              newType: type(new, inline: newInline, otherInline: oldInline)))
    }

    /// The value an inline-primitive stand-in holds.
    private static func inlined(_ v: PlistValue) -> PlistValue? {
        guard case .dictionary(let d) = v, d.count == 1, let inner = d[inlineKey] else { return nil }
        return inner
    }

    /// An archived object's class entry: its description and chain.
    private static func classEntry(_ d: PlistDictionary) -> [String]? {
        guard case .array(let names)? = d[classKey] else { return nil }
        return names.compactMap(\.stringValue)
    }

    private mutating func compare(_ a: PlistValue, _ b: PlistValue, path: [String], depth: Int, levels: Int) {
        guard changes.count < Self.maxChanges else { return }
        switch (a, b) {
        case (.dictionary(let x), .dictionary(let y)) where depth < 1_000 && Self.inlined(a) == nil && Self.inlined(b) == nil:
            let xClass = Self.classEntry(x), yClass = Self.classEntry(y)
            if (xClass == nil) != (yClass == nil) {
                record(.changed, path, a, b)
                return
            }
            if let xClass, let yClass, xClass != yClass {
                // `root: class A -> B`, or the chain when only a superclass changed.
                let sameClass = xClass.first == yClass.first
                recordClass(path, sameClass ? xClass.dropFirst().joined(separator: " < ") : xClass.first ?? "",
                            sameClass ? yClass.dropFirst().joined(separator: " < ") : yClass.first ?? "", chain: sameClass)
            }
            // Keys match only with the same code points, as CoreFoundation's do.
            var yIndex: [PlistKey: Int] = [:]
            for (i, k) in y.keys.enumerated() { yIndex[PlistKey(k)] = i }
            var xKeys = Set<PlistKey>()
            for (k, v) in x {
                xKeys.insert(PlistKey(k))
                if xClass != nil, PlistKeys.same(k, Self.classKey) { continue }
                if let i = yIndex[PlistKey(k)] { compare(v, y.values[i], path: path + [k], depth: depth + 1, levels: levels) } else { record(.removed, path + [k], v, nil) }
            }
            for (k, v) in y where !xKeys.contains(PlistKey(k)) && !(yClass != nil && PlistKeys.same(k, Self.classKey)) { record(.added, path + [k], nil, v) }
        case (.array(let x), .array(let y)) where depth < 1_000:
            for i in 0..<max(x.count, y.count) {
                if i < x.count, i < y.count { compare(x[i], y[i], path: path + [String(i)], depth: depth + 1, levels: levels) }
                else if i < x.count { record(.removed, path + [String(i)], x[i], nil) }
                else { record(.added, path + [String(i)], nil, y[i]) }
            }
        case (.data(let x), .data(let y)) where x != y && depth < 1_000 && NestedDocuments.mayOpen(level: levels):
            // Documents in data are compared by content.
            if let dx = NestedDocuments.open(x, level: levels), let dy = NestedDocuments.open(y, level: levels),
               let cx = try? Self.comparable(dx.document.tree), let cy = try? Self.comparable(dy.document.tree) {
                compare(cx, cy, path: path, depth: depth + 1, levels: levels + 1)
            } else {
                record(.changed, path, a, b)
            }
        default:
            if Self.differOnlyInWidth(a, b) {
                if widthChanges.count < Self.maxChanges { widthChanges.append(PlistKeyPath(components: path).description) }
                return
            }
            if a != b { record(.changed, path, a, b) }
        }
    }

    /// True for two reals (plain, or both inline in an archive) of different
    /// widths that are one number as the narrower width holds it: the 64-bit
    /// one rounds to the 32-bit one's `Float` (or is exactly that `Float`).
    private static func differOnlyInWidth(_ a: PlistValue, _ b: PlistValue) -> Bool {
        guard case .real(let x) = inlined(a) ?? a, case .real(let y) = inlined(b) ?? b,
              (inlined(a) == nil) == (inlined(b) == nil), x.width != y.width else { return false }
        let (narrow, wide) = x.width == .bits32 ? (x.value, y.value) : (y.value, x.value)
        // A 32-bit real read is exactly a Float; a wide value beyond Float's
        // range would round to infinity, which is not the same number.
        return narrow.isFinite && wide.isFinite && Double(Float(narrow)) == narrow && Float(narrow) == Float(wide)
    }

    private mutating func recordClass(_ path: [String], _ old: String, _ new: String, chain: Bool) {
        guard changes.count < Self.maxChanges else { return }
        let type = chain ? "class chain" : "class"
        changes.append(Change(kind: .changed, path: PlistKeyPath(components: path).description,
                              old: .string(old), new: .string(new), oldType: type, newType: type))
    }

    /// The changes as lines: `+ PATH: TYPE VALUE`, `- PATH: ...`, `~ PATH: OLD -> NEW`
    /// (`~ root: class A -> B` for a class).
    package var lines: [String] {
        changes.map { c in
            let where_ = c.path.isEmpty ? "(top level)" : c.path
            switch c.kind {
            case .added: return "+ \(where_): \(Self.describe(c.new, c.newType))"
            case .removed: return "- \(where_): \(Self.describe(c.old, c.oldType))"
            case .changed:
                if let type = c.oldType, type == c.newType, type.hasPrefix("class"),
                   case .string(let old)? = c.old, case .string(let new)? = c.new {
                    return "~ \(where_): \(type) \(old) -> \(new)"
                }
                return "~ \(where_): \(Self.describe(c.old, c.oldType)) -> \(Self.describe(c.new, c.newType))"
            }
        }
    }

    static func describe(_ v: PlistValue?, _ type: String?) -> String {
        guard let v else { return "nothing" }
        switch v {
        case .array(let a): return "array of \(a.count)"
        case .dictionary(let d):
            if let cls = classEntry(d)?.first { return "\(cls) object" }
            return "dictionary of \(counted(d.count, "key"))"
        case .real(let r) where r.width == .bits32:
            // A 32-bit real as the Float it is (0.9456522), as JSONEncoder writes it.
            return (type ?? v.typeName) + " " + Float(r.value).description
        default: return (type ?? v.typeName) + " " + DumpText.scalar(v)
        }
    }
}
