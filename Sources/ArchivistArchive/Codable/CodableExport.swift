import ArchivistCore

/// Keyed archives as the JSON that Swift's `JSONEncoder` writes for the structs
/// the archived classes stand for (scenario 2: struct-wrapper archives).
///
/// - a custom object becomes an object of its fields (no `$class`; `$null`
///   fields left out, as synthesized `encodeIfPresent` does); rules rename and
///   remove keys, and `unwrap` replaces a wrapper by one of its fields (when
///   that field is data holding a property list or JSON, by the decoded content);
/// - NSArray, NSSet, NSOrderedSet and NSCountedSet become arrays; NSDictionary
///   with string keys an object, with integer keys an object keyed by their
///   decimal text (as `[Int: V]` encodes), with other keys the flat
///   `[key, value, ...]` array `JSONEncoder` writes for such dictionaries;
/// - NSString a string, NSNumber a number or bool, NSData base64, NSUUID the
///   uppercase UUID string, NSURL its absolute string, NSDate per the date
///   strategy, NSNull `null`; NSValue points, sizes, rects, ranges and edge
///   insets the arrays CoreGraphics and Foundation types encode to, NSLocale and
///   NSTimeZone `{"identifier": ...}`, attributed strings their text;
/// - a shared object is written at each reference; a cycle is an error naming
///   its path unless `CodableOptions.cycles` is `.omit`;
/// - data holding a keyed archive is replaced by the archive's root object.
///
/// A plain property list converts the same way (dates and data as above).
public enum CodableExport {
    /// The Codable-shaped value of a keyed archive or a plain property list,
    /// as a reader built it (`document.tree`): an archive's graph is built on
    /// the tree.
    ///
    /// - Parameters:
    ///   - tree: A document's tree: an archive, or a plain property list.
    ///   - rules: The renames, removals and Codable rules to apply.
    ///   - options: Dates, cycles and limits.
    /// - Returns: The plain value `JSONEncoder` would have encoded.
    /// - Throws: `PlistError`: a broken archive, a cycle (reason
    ///   `PlistError.Reason.referenceCycle`), a limit.
    public static func value(_ tree: PlistTree, rules: MigrationRules = MigrationRules(),
                             options: CodableOptions = CodableOptions()) throws -> PlistValue {
        var budget = options.maxValues
        return try CodableExporter.export(tree, rules: rules, options: options, budget: &budget, nesting: 0) ?? .null
    }

    /// The Codable-shaped value of one node of an object graph.
    ///
    /// - Parameters:
    ///   - graph: The object graph.
    ///   - node: The node's index in `graph.nodes`.
    ///   - rules: The renames, removals and Codable rules to apply.
    ///   - options: Dates, cycles and limits.
    /// - Returns: The plain value of the node.
    /// - Throws: `PlistError`: a cycle, a limit, a class the rules must name.
    public static func value(_ graph: ObjectGraph, node: Int, rules: MigrationRules = MigrationRules(),
                            options: CodableOptions = CodableOptions()) throws -> PlistValue {
        var exporter = CodableExporter(graph: graph, rules: rules, options: options, budget: options.maxValues, nesting: 0)
        try exporter.refuseExpansion(of: [node], path: "")
        return try exporter.object(node, path: "", depth: 0) ?? .null
    }

    /// The Codable-shaped value of an object graph's root (`$top.root`, or
    /// every `$top` entry as an object when there is no `root`).
    ///
    /// - Parameters:
    ///   - graph: The object graph.
    ///   - rules: The renames, removals and Codable rules to apply.
    ///   - options: Dates, cycles and limits.
    /// - Returns: The plain value of the root.
    /// - Throws: `PlistError`: a cycle, a limit, a class the rules must name.
    public static func value(_ graph: ObjectGraph, rules: MigrationRules = MigrationRules(),
                            options: CodableOptions = CodableOptions()) throws -> PlistValue {
        var exporter = CodableExporter(graph: graph, rules: rules, options: options, budget: options.maxValues, nesting: 0)
        return try exporter.root()
    }
}

/// One archive's export: a depth-first walk with the objects on the current
/// path marked, so a reference back to one of them is seen as a cycle.
struct CodableExporter {
    let graph: ObjectGraph
    let rules: MigrationRules
    let options: CodableOptions
    var budget: Int
    /// Bytes of shared strings and data that may still be written again.
    var sharedBytes: Int
    /// The most bytes of shared strings and data the export may repeat.
    let sharedLimit: Int
    /// The `$objects` entries written so far.
    var exported: Set<Int> = []
    let nesting: Int
    /// For each object on the current path, the path at which it was entered
    /// (a diff walking beside the export marks its own path here).
    var entered: [Int: String] = [:]
    /// When set, each custom object also gets this key holding its class
    /// (readable and archived) followed by its `$classes` chain (for diffs,
    /// where a class change is a change).
    var classKey: String?
    /// When set, each inline integer, real or boolean of a custom object is a
    /// dictionary of this one key (for diffs, where boxing it is a change).
    var inlineKey: String?
    /// Whether data holding a keyed archive is replaced by its root object;
    /// diffs keep the data, to compare it as an archive of its own.
    var expandsNestedArchives = true
    /// Whether a 32-bit real stays 32-bit; otherwise it becomes the 64-bit
    /// real of its shortest form, as JSONEncoder writes a Float. Diffs keep
    /// the width, to tell a width change from a change of value.
    var keepsRealWidth = false

    /// When set, a custom object deeper than this is not exported but stood
    /// for by `.uid(n)`, `n` its index in `deferred`, to export when it is
    /// read (`exportDeferred(_:)`): `KeyedArchiveDecoder` reads the graph so,
    /// one object at a time, as the decoded type asks for it.
    var shallowBelow: Int?
    /// The objects a shallow export stood for by UIDs.
    var deferred: [DeferredObject] = []

    /// A custom object left for later by a shallow export: where it was met,
    /// with the objects then on the path (a reference back to one of them
    /// is a cycle), and the type tag of a mixed array it is in.
    struct DeferredObject {
        var index: Int
        var path: String
        var depth: Int
        var entered: [Int: String]
        var tag: (key: String, name: String)?
    }

    init(graph: ObjectGraph, rules: MigrationRules, options: CodableOptions, budget: Int, nesting: Int) {
        self.graph = graph
        self.rules = rules
        self.options = options
        self.budget = budget
        // What is repeated grows with the input, not with its sharing.
        var limits = Limits.default
        limits.maxSharedExpansion = options.maxSharedBytes
        sharedLimit = graph.inputMeasure.map { limits.repeatBudget(forInput: $0) } ?? options.maxSharedBytes
        sharedBytes = sharedLimit
        self.nesting = nesting
    }

    /// Exports an object a shallow export left for later, one level deep.
    mutating func exportDeferred(_ k: Int) throws -> PlistValue {
        let d = deferred[k]
        entered = d.entered
        shallowBelow = d.depth
        defer { entered = [:] }
        var v = try object(d.index, path: d.path, depth: d.depth) ?? .null
        if let tag = d.tag, case .dictionary(var dict) = v {
            dict[tag.key] = .string(tag.name)
            v = .dictionary(dict)
        }
        return v
    }

    /// Exports a tree that may be an archive (its graph is built on the
    /// tree); nil when it is `$null`.
    static func export(_ tree: PlistTree, rules: MigrationRules, options: CodableOptions, budget: inout Int, nesting: Int) throws -> PlistValue? {
        if KeyedArchive.looksLikeArchive(tree) {
            var exporter = CodableExporter(graph: try ObjectGraph(tree), rules: rules, options: options, budget: budget, nesting: nesting)
            defer { budget = exporter.budget }
            return try exporter.root()
        }
        var exporter = CodableExporter(graph: ObjectGraph.empty, rules: rules, options: options, budget: budget, nesting: nesting)
        defer { budget = exporter.budget }
        return try exporter.plain(tree.value, path: "", depth: 0)
    }

    mutating func root() throws -> PlistValue {
        // A shallow export reads the root one level deep: nothing to refuse, nothing whole.
        let whole = shallowBelow == nil
        if whole { WholeDocumentConversions.note() }
        if let root = graph.top.first(where: { $0.key == "root" }) {
            if whole { try refuseExpansion(of: [root.object], path: "root") }
            return try object(root.object, path: "root", depth: 0) ?? .null
        }
        if whole { try refuseExpansion(of: graph.top.map(\.object), path: "") }
        var out = PlistDictionary(minimumCapacity: graph.top.count + graph.topValues.count)
        for (key, entry) in graph.topEntries {
            switch entry {
            case .object(let index): if let v = try object(index, path: key, depth: 0) { out[key] = v }
            case .value(let value): out[key] = try plain(value, path: key, depth: 0)
            }
        }
        return .dictionary(out)
    }

    private mutating func count(_ path: String) throws {
        budget -= 1
        guard budget >= 0 else {
            throw PlistError(.limitExceeded, "the JSON would hold more than \(options.maxValues) values (shared objects are written at every reference)",
                             at: .archive(object: nil, keyPath: path))
        }
    }

    /// Spends bytes of strings and data written again.
    private mutating func countRepeated(_ bytes: Int, _ path: String) throws {
        sharedBytes -= min(bytes, sharedBytes + 1)
        guard sharedBytes >= 0 else {
            throw PlistError(.limitExceeded, "the JSON would repeat more than \(sharedLimit) bytes of shared strings and data (shared objects are written at every reference)",
                             at: .archive(object: nil, keyPath: path))
        }
    }

    /// An object of the graph; nil for `$null` and for an omitted back-reference.
    mutating func object(_ index: Int, path: String, depth: Int) throws -> PlistValue? {
        guard graph.nodes.indices.contains(index) else {
            throw PlistError(.archive, "reference to object \(index), past the \(graph.nodes.count) objects", at: .archive(object: index, keyPath: path))
        }
        guard depth < options.maxDepth else {
            throw PlistError(.limitExceeded, "objects nest deeper than \(options.maxDepth)", at: .archive(object: index, keyPath: path))
        }
        if let shallowBelow, depth > shallowBelow, case .object(let o) = graph.nodes[index], entered[index] == nil,
           FoundationValue.interpret(o, in: graph) == nil {
            deferred.append(DeferredObject(index: index, path: path, depth: depth, entered: entered))
            return .uid(UInt64(deferred.count - 1))
        }
        let first = exported.insert(index).inserted
        switch graph.nodes[index] {
        case .null:
            return nil
        case .value(let v):
            let result = try plain(v, path: path, depth: depth)
            if !first { try countRepeated(ViewBudget.allBytes(of: result), path) }
            return result
        case .classDescription:
            throw PlistError(.archive, "a field refers to a class description", at: .archive(object: index, keyPath: path))
        case .object(let o):
            if let earlier = entered[index] {
                if options.cycles == .omit { return nil }
                throw PlistError(.cycle, "\(path) refers back to \(earlier), a cycle JSON cannot hold",
                                 at: .archive(object: index, keyPath: path)).because(.referenceCycle)
            }
            try count(path)
            entered[index] = path
            defer { entered[index] = nil }
            let result = try archived(o, index: index, path: path, depth: depth)
            // An object's own text or bytes (NSString, NSData) repeat with it; its fields count themselves.
            if !first, let result { try countRepeated(ViewBudget.bytes(of: result), path) }
            return result
        }
    }

    private mutating func archived(_ o: ArchivedObject, index: Int, path: String, depth: Int) throws -> PlistValue? {
        let rule = rules.rule(for: o.className)
        if options.requireClassRules, rule == nil, !SecurePolicy.isFrameworkClass(o.className) {
            throw PlistError(.notRepresentable, "the rules do not map class \(o.className), so its Codable type is unknown; name it under \"classes\" (\"renameTo\" gives the struct)",
                             at: .archive(object: index, keyPath: path))
        }
        if let field = rules.codableRule(for: o.className)?.unwrap {
            guard let value = o[field] else {
                throw PlistError(.invalidValue, "\(o.className) has no field \"\(field)\" to unwrap (fields: \(o.fields.map(\.key).joined(separator: ", ")))",
                                 at: .archive(object: index, keyPath: path))
            }
            if let bytes = rawData(value), let decoded = embedded(bytes) {
                return try exportEmbedded(decoded, path: path, depth: depth)
            }
            return try fieldValue(value, path: path, depth: depth + 1)
        }
        if let foundation = FoundationValue.standIn(o, in: graph) {
            return try self.foundation(foundation, path: path, depth: depth)
        }
        var out = PlistDictionary(minimumCapacity: o.fields.count + 1)
        if let classKey { out[classKey] = .array([.string(o.className.description)] + o.classChain.map { .string($0) }) }
        for field in o.fields {
            let keyRule = rule?.key(archivedAs: field.key)
            if keyRule?.remove == true { continue }
            let key = keyRule?.renameTo ?? field.key
            let childPath = ArchivePaths.joined(path, field.key)
            guard let v = try fieldValue(field.value, path: childPath, depth: depth + 1) else { continue }
            if case .null = v { continue }
            out[key] = v
        }
        return .dictionary(out)
    }

    private mutating func fieldValue(_ value: FieldValue, path: String, depth: Int) throws -> PlistValue? {
        switch value {
        case .inline(let v):
            let value = try plain(v, path: path, depth: depth)
            if let inlineKey, SecureCodingCheck.isPrimitive(v) { return .dictionary(PlistDictionary([(inlineKey, value)])) }
            return value
        case .reference(let r): return try object(r, path: path, depth: depth)
        case .references(let rs): return .array(try list(rs, path: path, depth: depth))
        }
    }

    private mutating func list(_ refs: [Int], path: String, depth: Int) throws -> [PlistValue] {
        // Arrays that mix classes name each object's type under the rules'
        // typeKey, as hand-written polymorphic init(from:) code reads it.
        var typeKey: String?
        if let key = rules.codable.typeKey {
            let classes = Set(refs.compactMap { graph.object($0) }.filter { isTaggable($0) }.map(\.className.archived))
            if classes.count > 1 { typeKey = key }
        }
        var items: [PlistValue] = []
        items.reserveCapacity(min(refs.count, 1 << 16))
        for (i, r) in refs.enumerated() {
            guard var v = try object(r, path: "\(path).\(i)", depth: depth + 1) else { continue }
            if let typeKey, let o = graph.object(r), isTaggable(o) {
                if case .dictionary(var d) = v {
                    d[typeKey] = .string(Self.typeName(of: o.className, rules: rules))
                    v = .dictionary(d)
                } else if shallowBelow != nil, case .uid(let k) = v, let k = Int(exactly: k), deferred.indices.contains(k) {
                    deferred[k].tag = (typeKey, Self.typeName(of: o.className, rules: rules))
                }
            }
            items.append(v)
        }
        return items
    }

    /// A custom object that exports as an object of its own fields.
    private func isTaggable(_ o: ArchivedObject) -> Bool {
        rules.codableRule(for: o.className)?.unwrap == nil && FoundationValue.standIn(o, in: graph) == nil
    }

    /// The discriminator of a class: its rule's `typeName`, else its struct name.
    static func typeName(of name: ClassName, rules: MigrationRules) -> String {
        rules.codableRule(for: name)?.typeName ?? structName(of: name, rules: rules)
    }

    /// The Swift type a class becomes: the last component of its new or
    /// readable name (`MusicBox.CPU` -> `CPU`).
    static func structName(of name: ClassName, rules: MigrationRules) -> String {
        let full = rules.rule(for: name)?.renameTo ?? name.readable
        return full.split(separator: ".").last.map(String.init) ?? full
    }

    mutating func foundation(_ value: FoundationValue, path: String, depth: Int) throws -> PlistValue? {
        switch value {
        case .list(let refs):
            return .array(try list(refs, path: path, depth: depth))
        case .counted(let entries):
            return .array(try list(entries.map(\.object), path: path, depth: depth))
        case .map(let keys, let values):
            var resolved: [(PlistValue, PlistValue)] = []
            for (i, (k, v)) in zip(keys, values).enumerated() {
                guard let key = try object(k, path: "\(path).<key \(i)>", depth: depth + 1) else { continue }
                let keyText: String
                switch key {
                case .string(let s): keyText = s
                default: keyText = "\(i)"
                }
                guard let value = try object(v, path: ArchivePaths.joined(path, keyText), depth: depth + 1) else { continue }
                resolved.append((key, value))
            }
            if resolved.allSatisfy({ if case .string = $0.0 { return true } else { return false } }) {
                var out = PlistDictionary(minimumCapacity: resolved.count)
                var seen = Set<PlistKey>()
                for (k, v) in resolved { if case .string(let s) = k, seen.insert(PlistKey(s)).inserted { out.appendUnchecked(key: s, value: v) } }
                return .dictionary(out)
            }
            if resolved.allSatisfy({ if case .integer = $0.0 { return true } else { return false } }) {
                var out = PlistDictionary(minimumCapacity: resolved.count)
                var seen = Set<String>()
                for (k, v) in resolved { if case .integer(let i) = k, seen.insert(i.description).inserted { out.appendUnchecked(key: i.description, value: v) } }
                return .dictionary(out)
            }
            return .array(resolved.flatMap { [$0.0, $0.1] })
        case .string(let s):
            return .string(s)
        case .data(let bytes):
            return try data(bytes, path: path, depth: depth)
        case .date(let t):
            return date(PlistDate(secondsSinceReferenceDate: t))
        case .described(let d):
            return d.exported
        case .url(let base, let relative):
            let relativeText = relative.flatMap { graph.string(.reference($0)) } ?? ""
            guard let base else { return .string(relativeText) }
            guard case .string(let baseText)? = try object(base, path: path + ".base", depth: depth + 1) else { return .string(relativeText) }
            return .string(URLResolution.resolve(relativeText, against: baseText))
        case .null:
            return .null
        case .attributedString(let a):
            return .string(a.text)
        case .line(let line):
            // The parts by name: texts as strings, objects as they export.
            var out = PlistDictionary(minimumCapacity: line.parts.count)
            for part in line.parts {
                switch part.value {
                case .word(let s), .text(let s): out[part.key] = .string(s)
                case .object(let r):
                    if let v = try object(r, path: ArchivePaths.joined(path, part.key), depth: depth + 1) { out[part.key] = v }
                }
            }
            return .dictionary(out)
        }
    }

    /// A plain value: inline in an object, stored in `$objects`, or a plain plist.
    mutating func plain(_ value: PlistValue, path: String, depth: Int) throws -> PlistValue {
        guard depth < options.maxDepth else {
            throw PlistError(.limitExceeded, "values nest deeper than \(options.maxDepth)", at: .archive(object: nil, keyPath: path))
        }
        try count(path)
        switch value {
        case .string, .integer, .bool, .null:
            return value
        case .real(let r):
            // A 32-bit real is a Float: JSONEncoder writes its shortest form (0.1, not 0.10000000149011612).
            guard r.width == .bits32, !keepsRealWidth, let shortest = Double(Float(r.value).description) else { return value }
            return .real(PlistReal(shortest))
        case .date(let d):
            return date(d)
        case .data(let bytes):
            return try data(bytes, path: path, depth: depth)
        case .uid(let u):
            throw PlistError(.notRepresentable, "a UID (\(u)) outside a keyed archive has no Codable form", at: .archive(object: nil, keyPath: path))
        case .array(let items):
            var out: [PlistValue] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() { out.append(try plain(item, path: ArchivePaths.joined(path, String(i)), depth: depth + 1)) }
            return .array(out)
        case .dictionary(let d):
            var out = PlistDictionary(minimumCapacity: d.count)
            // Keys of a dictionary read are unique already.
            for (key, item) in d { out.appendUnchecked(key: key, value: try plain(item, path: ArchivePaths.joined(path, key), depth: depth + 1)) }
            return .dictionary(out)
        }
    }

    private func date(_ d: PlistDate) -> PlistValue {
        if options.nativeLeaves { return .date(d) }
        switch options.dates {
        case .deferred: return .double(d.secondsSinceReferenceDate)
        case .seconds1970: return .double(d.secondsSince1970)
        case .milliseconds1970: return .double(d.secondsSince1970 * 1000)
        case .iso8601: return .string(ISO8601.format(d))
        }
    }

    /// Data: a keyed archive inside it is replaced by its root object; other
    /// data stays data (base64 in JSON).
    private mutating func data(_ bytes: [UInt8], path: String, depth: Int) throws -> PlistValue {
        if expandsNestedArchives, let nested = NestedDocuments.open(bytes, level: nesting), case .keyedArchive = nested.kind {
            return try exportEmbedded(nested.document.tree, path: path, depth: depth) ?? .null
        }
        return options.nativeLeaves ? .data(bytes) : .string(String(decoding: Base64.encode(bytes), as: UTF8.self))
    }

    /// A document held in data (opened by `NestedDocuments`, which keeps
    /// to the level limit), its errors located under the data's key path.
    private mutating func exportEmbedded(_ tree: PlistTree, path: String, depth: Int) throws -> PlistValue? {
        try NestedDocuments.located(under: path) {
            try Self.export(tree, rules: rules, options: options, budget: &budget, nesting: nesting + 1)
        }
    }

    /// The bytes a field holds, inline or by reference to data or NSData.
    private func rawData(_ value: FieldValue) -> [UInt8]? {
        switch value {
        case .inline(.data(let b)): return b
        case .reference(let r):
            switch graph.nodes[safe: r] {
            case .value(.data(let b))?: return b
            case .object(let o)?:
                if case .data(let b)? = FoundationValue.interpret(o, in: graph) { return b }
                return nil
            default: return nil
            }
        default: return nil
        }
    }

    /// A property list or JSON document held in data (a struct stored with
    /// `PropertyListEncoder` or `JSONEncoder` inside a wrapper).
    private func embedded(_ bytes: [UInt8]) -> PlistTree? {
        guard let nested = NestedDocuments.open(bytes, level: nesting), nested.holdsEncodedValue else { return nil }
        return nested.document.tree
    }
}

extension ObjectGraph {
    /// A graph with no objects, for exporting plain property lists.
    static let empty = ObjectGraph(nodes: [.null], top: [])
}
