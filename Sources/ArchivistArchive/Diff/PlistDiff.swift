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

    /// Compares two compact trees (documents' `tree`s). Archives are
    /// compared as object graphs, walked from `$top` in step: objects are
    /// paired by reference, and a pair met again (a shared object, a cycle)
    /// is not compared again, so the work is linear in the objects. A change
    /// inside an object shared on both sides is reported once, at the key
    /// path where the walk first meets it.
    package init(_ a: PlistTree, _ b: PlistTree) throws {
        let pair = DiffPair(try DiffSide(a), try DiffSide(b))
        try compare(pair.a.root, pair.b.root, in: pair, path: [], depth: 0, levels: 0)
    }

    /// The key of an archived object's class in the compared tree: its
    /// description, then its `$classes` chain.
    static let classKey = "$class"
    /// The key of the one-entry dictionary that stands for an inline primitive.
    static let inlineKey = "$inline"

    private mutating func record(_ kind: Change.Kind, _ path: [String], _ old: DiffItem?, _ new: DiffItem?,
                                 in pair: DiffPair, depth: Int) throws {
        guard changes.count < Self.maxChanges else { return }
        record(kind, path, try old.map { try pair.a.value(of: $0, path: path, depth: depth) },
                   try new.map { try pair.b.value(of: $0, path: path, depth: depth) })
    }

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

    private mutating func compare(_ a: DiffItem, _ b: DiffItem, in pair: DiffPair, path: [String], depth: Int, levels: Int) throws {
        guard changes.count < Self.maxChanges else { return }
        WorkCounter.note(.diffStep)
        // Objects on the path are marked on their side: references back to them are left out.
        let objectA = pair.a.object(a), objectB = pair.b.object(b)
        if let objectA, let objectB, !pair.visited.insert(PairKey(objectA, objectB)).inserted { return }
        // (The path an object was entered at names a cycle in an error; a diff omits cycles.)
        if let objectA { pair.a.exporter.entered[objectA] = "" }
        if let objectB { pair.b.exporter.entered[objectB] = "" }
        // Off the path again; and before the pair itself is built whole for a change.
        func leave() {
            if let objectA { pair.a.exporter.entered[objectA] = nil }
            if let objectB { pair.b.exporter.entered[objectB] = nil }
        }
        defer { leave() }
        let x = try pair.a.shape(of: a, path: path, depth: depth), y = try pair.b.shape(of: b, path: path, depth: depth)
        switch (x, y) {
        case (.dictionary(let xKeys, let xValues, let xClass), .dictionary(let yKeys, let yValues, let yClass)) where depth < 1_000:
            if (xClass == nil) != (yClass == nil) {
                leave()
                try record(.changed, path, a, b, in: pair, depth: depth)
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
            yIndex.reserveCapacity(yKeys.count)
            for (i, k) in yKeys.enumerated() where yIndex[PlistKey(k)] == nil { yIndex[PlistKey(k)] = i }
            var seen = Set<PlistKey>()
            seen.reserveCapacity(xKeys.count)
            for (k, v) in zip(xKeys, xValues) {
                seen.insert(PlistKey(k))
                if let i = yIndex[PlistKey(k)] {
                    try compare(v, yValues[i], in: pair, path: path + [k], depth: depth + 1, levels: levels)
                } else {
                    try record(.removed, path + [k], v, nil, in: pair, depth: depth + 1)
                }
            }
            for (k, v) in zip(yKeys, yValues) where !seen.contains(PlistKey(k)) {
                try record(.added, path + [k], nil, v, in: pair, depth: depth + 1)
            }
        case (.array(let xs), .array(let ys)) where depth < 1_000:
            for i in 0..<max(xs.count, ys.count) {
                if i < xs.count, i < ys.count { try compare(xs[i], ys[i], in: pair, path: path + [String(i)], depth: depth + 1, levels: levels) }
                else if i < xs.count { try record(.removed, path + [String(i)], xs[i], nil, in: pair, depth: depth + 1) }
                else { try record(.added, path + [String(i)], nil, ys[i], in: pair, depth: depth + 1) }
            }
        case (.leaf(.data(let dx)), .leaf(.data(let dy))) where dx != dy && depth < 1_000 && NestedDocuments.mayOpen(level: levels):
            // Documents in data are compared by content; one that cannot be compared is changed data.
            let before = (changes.count, widthChanges.count)
            do {
                guard let nx = NestedDocuments.open(dx, level: levels), let ny = NestedDocuments.open(dy, level: levels) else {
                    throw PlistError(.invalidValue, "no document")
                }
                let nested = DiffPair(try DiffSide(nx.document.tree), try DiffSide(ny.document.tree))
                try compare(nested.a.root, nested.b.root, in: nested, path: path, depth: depth + 1, levels: levels + 1)
            } catch {
                changes.removeSubrange(before.0...)
                widthChanges.removeSubrange(before.1...)
                record(.changed, path, .data(dx), .data(dy))
            }
        case (.leaf(let va), .leaf(let vb)):
            leaves(va, vb, path: path)
        default:
            // Containers of different kinds (or nested too deep): compared whole.
            leave()
            let va = try pair.a.value(of: a, path: path, depth: depth), vb = try pair.b.value(of: b, path: path, depth: depth)
            leaves(va, vb, path: path)
        }
    }

    private mutating func leaves(_ a: PlistValue, _ b: PlistValue, path: [String]) {
        if Self.differOnlyInWidth(a, b) {
            if widthChanges.count < Self.maxChanges { widthChanges.append(PlistKeyPath(components: path).description) }
            return
        }
        if a != b { record(.changed, path, a, b) }
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
