import ArchivistCore

/// Swift `Codable` declarations inferred from an archive's classes and the
/// rules: the structs a developer pastes in to replace the wrapper classes.
/// Each custom class (after renames and unwrapping) becomes a struct with a
/// property per key, typed from the values its objects hold, optional where
/// some object lacks the key or holds `$null`.
public struct CodableSchema: Sendable {
    /// A property's type.
    public indirect enum FieldType: Sendable, Equatable {
        case string, int, double, float, bool, date, data, uuid, url, locale, timeZone
        case cgPoint, cgSize, cgRect, nsRange
        case array(FieldType)
        case dictionary(key: FieldType, value: FieldType)
        case named(String)
        /// Values of several types (the first, and the others' names).
        case mixed(FieldType, others: [String])
        /// Nothing but nulls seen.
        case unknown

        /// The Swift spelling.
        public var swift: String {
            switch self {
            case .string: return "String"
            case .int: return "Int"
            case .double: return "Double"
            case .float: return "Float"
            case .bool: return "Bool"
            case .date: return "Date"
            case .data: return "Data"
            case .uuid: return "UUID"
            case .url: return "URL"
            case .locale: return "Locale"
            case .timeZone: return "TimeZone"
            case .cgPoint: return "CGPoint"
            case .cgSize: return "CGSize"
            case .cgRect: return "CGRect"
            case .nsRange: return "NSRange"
            case .array(let t): return "[\(t.swift)]"
            case .dictionary(let k, let v): return "[\(k.swift): \(v.swift)]"
            case .named(let n): return n
            case .mixed(let t, _): return t.swift
            case .unknown: return "String"
            }
        }

        /// The type a Swift spelling names: one of the plain types
        /// (`UUID`, `CGRect`, ...) or an array of one (`[[Int]]`); nil for others.
        init?(swift name: String) {
            if name.hasPrefix("["), name.hasSuffix("]"), name.count > 2 {
                guard let element = FieldType(swift: String(name.dropFirst().dropLast())) else { return nil }
                self = .array(element)
                return
            }
            let plain: [FieldType] = [.string, .int, .double, .float, .bool, .date, .data, .uuid, .url, .locale, .timeZone,
                                      .cgPoint, .cgSize, .cgRect, .nsRange]
            guard let found = plain.first(where: { $0.swift == name }) else { return nil }
            self = found
        }

        /// Notes a reader needs (mixed values, unknown types), if any.
        var note: String? {
            switch self {
            case .mixed(_, let others): return "also holds \(others.joined(separator: ", ")): use an enum with a hand-written init(from:)"
            case .unknown: return "only nulls seen: the type is a guess"
            case .array(let t), .dictionary(_, let t): return t.note
            default: return nil
            }
        }

        /// True when values of several types were seen (here or in elements).
        var isMixed: Bool {
            switch self {
            case .mixed: return true
            case .array(let t), .dictionary(_, let t): return t.isMixed
            default: return false
            }
        }

        func unified(with other: FieldType) -> FieldType {
            if self == other { return self }
            switch (self, other) {
            case (.unknown, _): return other
            case (_, .unknown): return self
            case (.int, .double), (.double, .int), (.float, .double), (.double, .float), (.int, .float), (.float, .int): return .double
            case (.array(let a), .array(let b)): return .array(a.unified(with: b))
            case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)) where k1 == k2: return .dictionary(key: k1, value: v1.unified(with: v2))
            case (.mixed(let t, let others), _):
                return others.contains(other.swift) || t == other ? self : .mixed(t, others: others + [other.swift])
            default: return .mixed(self, others: [other.swift])
            }
        }
    }

    /// A stored property.
    public struct Property: Sendable, Equatable {
        /// The key in the archive and the JSON.
        public var key: String
        /// The type.
        public var type: FieldType
        /// True when some object lacks the key or holds null there.
        public var optional: Bool
        /// How many objects hold it.
        var seen: Int
        /// The key in the archive when a rule renamed it.
        var archivedKey: String?
        /// Where each of its types was first seen (`FILE: root.key`).
        var places: [TypeSighting] = []

        /// Where two or more types were seen, as `TYPE at PLACE` phrases;
        /// empty when the property has one type.
        var conflictingPlaces: [String] {
            guard places.count > 1, type.isMixed else { return [] }
            return places.map { "\($0.type) at \($0.place)" }
        }
    }

    /// A type seen for a property, and where.
    struct TypeSighting: Sendable, Equatable {
        var type: String
        var place: String
    }

    /// A struct.
    public struct TypeDeclaration: Sendable, Equatable {
        /// Its name.
        public var name: String
        /// Its properties in the order first met.
        public var properties: [Property]
        /// How many objects it was inferred from.
        var objects: Int
        /// Each property's index in `properties`, by key (code points: `PlistKey`).
        var propertyIndex: [PlistKey: Int] = [:]
    }

    /// The inference over every input added so far.
    private var inference: SchemaInference

    /// The structs, the first input's root first.
    public var types: [TypeDeclaration] { inference.order.compactMap { inference.declarations[$0] } }
    /// The type of the root values.
    public private(set) var rootType: FieldType?

    /// A schema of no input yet; `add(_:label:)` merges inputs into it.
    ///
    /// - Parameter rules: The renames, removals and Codable rules the inputs
    ///   are read with.
    public init(rules: MigrationRules = MigrationRules()) {
        inference = SchemaInference(rules: rules)
    }

    /// Infers the structs of a keyed archive (or of archives nested in a plain
    /// property list's data values), or of a plain property list's dictionaries.
    ///
    /// - Parameters:
    ///   - tree: A document's tree.
    ///   - rules: The renames, removals and Codable rules to apply.
    /// - Throws: `PlistError` when the input holds no archive or dictionary,
    ///   or an archive is broken.
    public init(_ tree: PlistTree, rules: MigrationRules = MigrationRules()) throws {
        self.init(rules: rules)
        try add(tree, label: "")
    }

    /// Merges one more input (a file, a row) into the schema: a struct's field
    /// that some inputs lack becomes optional, and a field seen with several
    /// types keeps where each was seen (`conflicts`). `label` names the input
    /// in those places. When the input cannot be read, the schema is left as
    /// it was.
    ///
    /// - Parameters:
    ///   - tree: A document's tree.
    ///   - label: The input's name, as conflicts name it.
    /// - Throws: `PlistError` when the input cannot be read; the schema is
    ///   then unchanged.
    public mutating func add(_ tree: PlistTree, label: String) throws {
        var next = inference
        next.label = label
        let type = try next.document(tree, nameHint: "Root", path: "", depth: 0)
        inference = next
        if let type { rootType = rootType.map { $0.unified(with: type) } ?? type }
    }

    /// Fields seen with several types, each with where every type was seen
    /// (`Foo.title is String at a.plist: root.title, Int at b.plist: root.title`).
    public var conflicts: [String] {
        types.flatMap { decl in
            decl.properties.compactMap { p in
                let places = p.conflictingPlaces
                return places.isEmpty ? nil : "\(decl.name).\(p.key) is " + places.joined(separator: ", ")
            }
        }
    }

    /// The declarations as Swift source.
    public var swift: String { swift(codingKeysForRenames: false) }

    /// The declarations as Swift source, with a `CodingKeys` enum (listing
    /// every key) in each struct with a key that is not its property's name;
    /// with `codingKeysForRenames`, also in each struct that has a key a rule
    /// renamed, the renamed ones marked with their archived key. A struct
    /// that contains itself (directly or through other structs, not through
    /// an array or a dictionary) is declared a `final class`, which can.
    ///
    /// - Parameter codingKeysForRenames: Also write `CodingKeys` for the keys
    ///   rules renamed.
    /// - Returns: The Swift source of the declarations.
    public func swift(codingKeysForRenames: Bool) -> String {
        let decls = types
        let recursive = Self.recursiveTypes(decls)
        var out = "import Foundation\n"
        if let rootType, decls.first?.name != rootType.swift { out += "\n// The root value is \(rootType.swift)\(rootType.note.map { " (\($0))" } ?? "").\n" }
        for decl in decls {
            out += "\n\(recursive.contains(decl.name) ? "final class" : "struct") \(decl.name): Codable {\n"
            let names = SwiftNames.propertyNames(for: decl.properties.map(\.key), avoiding: [])
            let renamed = codingKeysForRenames && decl.properties.contains { $0.archivedKey != nil }
            // A CodingKeys enum must list every property, or Codable cannot be synthesized.
            var codingKeys: [(name: String, key: String, archived: String?)] = []
            if renamed || zip(decl.properties, names).contains(where: { !PlistKeys.same($0.0.key, $0.1) }) {
                codingKeys = zip(decl.properties, names).map { ($1, $0.key, renamed ? $0.archivedKey : nil) }
            }
            for (p, name) in zip(decl.properties, names) {
                var line = "    var \(name): \(p.type.swift)\(p.optional ? "?" : "")"
                let places = p.conflictingPlaces
                if !places.isEmpty {
                    line += " // " + SwiftNames.comment(places.joined(separator: ", ")) + ": use an enum with a hand-written init(from:)"
                } else if let note = p.type.note {
                    line += " // " + note
                }
                out += line + "\n"
            }
            if !codingKeys.isEmpty {
                out += "\n    enum CodingKeys: String, CodingKey {\n"
                for c in codingKeys {
                    out += "        case \(c.name)" + (c.name == c.key ? "" : " = \(PlistValue.quoted(c.key))")
                    out += c.archived.map { " // archived as \(PlistValue.quoted($0))" } ?? ""
                    out += "\n"
                }
                out += "    }\n"
            }
            out += "}\n"
        }
        return out
    }

    /// The structs that contain themselves through stored fields (a struct
    /// cannot; a class can).
    static func recursiveTypes(_ decls: [TypeDeclaration]) -> Set<String> {
        func named(_ t: FieldType) -> String? {
            switch t {
            case .named(let n): return n
            case .mixed(let first, _): return named(first)
            default: return nil
            }
        }
        var edges: [String: [String]] = [:]
        for decl in decls { edges[decl.name] = decl.properties.compactMap { named($0.type) } }
        var out: Set<String> = []
        for decl in decls {
            var stack = edges[decl.name] ?? []
            var seen: Set<String> = []
            while let next = stack.popLast() {
                if next == decl.name { out.insert(decl.name); break }
                if seen.insert(next).inserted { stack += edges[next] ?? [] }
            }
        }
        return out
    }
}

/// The walk behind `CodableSchema`: types of values, structs of classes.
struct SchemaInference: Sendable {
    let rules: MigrationRules
    var declarations: [String: CodableSchema.TypeDeclaration] = [:]
    var order: [String] = []
    /// The input being walked, for the places of types.
    var label = ""
    /// Objects already folded into their struct, per archive.
    private var visited: Set<String> = []
    /// Types of Foundation containers already inferred, per archive, so that a
    /// container shared along many paths (or containing itself) is walked once.
    private var foundationTypes: [String: CodableSchema.FieldType?] = [:]
    private var archiveCount = 0
    /// The data values entered to the document walked (`NestedDocuments`' levels).
    private var level = 0

    init(rules: MigrationRules) {
        self.rules = rules
    }

    /// A property's field as the walk met it.
    private struct Met {
        var key: String
        var archivedKey: String?
        var type: CodableSchema.FieldType?
        var path: String
    }

    /// The type of a document (an input, or one held in data); nil for null.
    /// An archive is its `$top` `root` object, or (as `convert --to
    /// codable-json` writes it) a struct of every `$top` entry when there is
    /// no `root`; its graph is built on the tree. A plain document is read as
    /// the values it holds.
    mutating func document(_ tree: PlistTree, nameHint: String, path: String, depth: Int) throws -> CodableSchema.FieldType? {
        guard depth < 64 else { return .unknown }
        if KeyedArchive.looksLikeArchive(tree) {
            let graph = try ObjectGraph(tree)
            archiveCount += 1
            let tag = "\(archiveCount)"
            if let root = graph.top.first(where: { $0.key == "root" }) {
                return try node(root.object, in: graph, tag: tag, path: join(path, "root"), depth: depth)
            }
            let name = typeName(nameHint)
            reserve(name)
            var props: [Met] = []
            for (key, entry) in graph.topEntries {
                let at = join(path, key)
                switch entry {
                case .object(let index):
                    props.append(Met(key: key, type: try node(index, in: graph, tag: tag, path: at, depth: depth + 1), path: at))
                case .value(let plain):
                    props.append(Met(key: key, type: try value(plain, nameHint: key, path: at, depth: depth + 1), path: at))
                }
            }
            record(name, props)
            return .named(name)
        }
        return try value(tree.value, nameHint: nameHint, path: path, depth: depth)
    }

    /// The type of a plain value (of a plain document, or a field or `$top`
    /// entry of an archive); nil for null.
    mutating func value(_ v: PlistValue, nameHint: String, path: String, depth: Int) throws -> CodableSchema.FieldType? {
        guard depth < 64 else { return .unknown }
        switch v {
        case .string: return .string
        case .integer: return .int
        case .real(let r): return r.width == .bits32 ? .float : .double
        case .bool: return .bool
        case .date: return .date
        case .null, .uid: return nil
        case .data(let bytes):
            if let nested = NestedDocuments.open(bytes, level: level), case .keyedArchive = nested.kind {
                return try nestedDocument(nested, nameHint: nameHint, path: path, depth: depth)
            }
            return .data
        case .array(let items):
            var t: CodableSchema.FieldType = .unknown
            for (i, item) in items.enumerated() {
                if let it = try value(item, nameHint: singular(nameHint), path: path + "[\(i)]", depth: depth + 1) { t = t.unified(with: it) }
            }
            return .array(t)
        case .dictionary(let d):
            let name = typeName(nameHint)
            reserve(name)
            var props: [Met] = []
            for (key, item) in d {
                let at = join(path, key)
                props.append(Met(key: key, type: try value(item, nameHint: key, path: at, depth: depth + 1), path: at))
            }
            record(name, props)
            return .named(name)
        }
    }

    private func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    private func singular(_ name: String) -> String {
        name.hasSuffix("s") && name.count > 1 ? String(name.dropLast()) : name + "Item"
    }

    private func typeName(_ hint: String) -> String {
        let camel = SwiftNames.camelCase(hint)
        return SwiftNames.typeIdentifier(camel.prefix(1).uppercased() + camel.dropFirst())
    }

    /// Puts a struct in the output order when first met, before its fields'
    /// types, so that the root comes first.
    private mutating func reserve(_ name: String) {
        guard declarations[name] == nil else { return }
        declarations[name] = CodableSchema.TypeDeclaration(name: name, properties: [], objects: 0)
        order.append(name)
    }

    /// Folds one object's properties into its struct.
    private mutating func record(_ name: String, _ props: [Met]) {
        reserve(name)
        guard var decl = declarations[name] else { return }
        decl.objects += 1
        for met in props {
            let place = CodableSchema.TypeSighting(type: met.type?.swift ?? "", place: label.isEmpty ? met.path : label + ": " + met.path)
            if let i = decl.propertyIndex[PlistKey(met.key)] {
                decl.properties[i].seen += 1
                if decl.properties[i].archivedKey == nil { decl.properties[i].archivedKey = met.archivedKey }
                if let type = met.type {
                    decl.properties[i].type = decl.properties[i].type.unified(with: type)
                    if !decl.properties[i].places.contains(where: { $0.type == place.type }) { decl.properties[i].places.append(place) }
                } else {
                    decl.properties[i].optional = true
                }
            } else {
                decl.propertyIndex[PlistKey(met.key)] = decl.properties.count
                decl.properties.append(CodableSchema.Property(key: met.key, type: met.type ?? .unknown, optional: met.type == nil || decl.objects > 1, seen: 1,
                                                              archivedKey: met.archivedKey, places: met.type == nil ? [] : [place]))
            }
        }
        for i in decl.properties.indices where decl.properties[i].seen < decl.objects { decl.properties[i].optional = true }
        declarations[name] = decl
    }

    private mutating func field(_ f: FieldValue, in graph: ObjectGraph, tag: String, hint: String, path: String, depth: Int) throws -> CodableSchema.FieldType? {
        switch f {
        case .inline(let v): return try value(v, nameHint: hint, path: path, depth: depth + 1)
        case .reference(let r): return try node(r, in: graph, tag: tag, path: path, depth: depth + 1)
        case .references(let rs):
            var t: CodableSchema.FieldType = .unknown
            for (i, r) in rs.enumerated() { if let it = try node(r, in: graph, tag: tag, path: path + "[\(i)]", depth: depth + 1) { t = t.unified(with: it) } }
            return .array(t)
        }
    }

    private mutating func node(_ index: Int, in graph: ObjectGraph, tag: String, path: String, depth: Int) throws -> CodableSchema.FieldType? {
        guard depth < 64 else { return .unknown }
        switch graph.nodes[safe: index] {
        case nil, .null?, .classDescription?: return nil
        case .value(let v)?: return try value(v, nameHint: "Value", path: path, depth: depth)
        case .object(let o)?:
            let rule = rules.rule(for: o.className)
            let name = SwiftNames.typeIdentifier(CodableExporter.structName(of: o.className, rules: rules))
            if let unwrap = rules.codableRule(for: o.className)?.unwrap, let inner = o[unwrap] {
                if case .reference(let r) = inner, case .value(.data(let bytes))? = graph.nodes[safe: r] { return try payload(bytes, name: name, path: path, depth: depth) }
                if case .inline(.data(let bytes)) = inner { return try payload(bytes, name: name, path: path, depth: depth) }
                return try field(inner, in: graph, tag: tag, hint: name, path: path, depth: depth)
            }
            if let f = FoundationValue.standIn(o, in: graph) {
                let key = tag + ":" + String(index)
                if let known = foundationTypes[key] { return known }
                foundationTypes[key] = .some(.unknown)
                let type = try foundation(f, in: graph, tag: tag, path: path, depth: depth)
                foundationTypes[key] = .some(type)
                return type
            }
            let key = tag + ":" + String(index)
            if visited.insert(key).inserted {
                reserve(name)
                var props: [Met] = []
                for f in o.fields {
                    let keyRule = rule?.key(archivedAs: f.key)
                    if keyRule?.remove == true { continue }
                    let newKey = keyRule?.renameTo ?? f.key
                    let at = join(path, newKey)
                    props.append(Met(key: newKey, archivedKey: newKey == f.key ? nil : f.key,
                                     type: try field(f.value, in: graph, tag: tag, hint: f.key, path: at, depth: depth), path: at))
                }
                record(name, props)
            }
            return .named(name)
        }
    }

    private mutating func payload(_ bytes: [UInt8], name: String, path: String, depth: Int) throws -> CodableSchema.FieldType? {
        guard let nested = NestedDocuments.open(bytes, level: level), nested.holdsEncodedValue else { return .data }
        return try nestedDocument(nested, nameHint: name, path: path, depth: depth)
    }

    /// The type of a document held in data, one level further down.
    private mutating func nestedDocument(_ nested: NestedData, nameHint: String, path: String, depth: Int) throws -> CodableSchema.FieldType? {
        level += 1
        defer { level -= 1 }
        return try document(nested.document.tree, nameHint: nameHint, path: path, depth: depth + 1)
    }

    private mutating func foundation(_ f: FoundationValue, in graph: ObjectGraph, tag: String, path: String, depth: Int) throws -> CodableSchema.FieldType? {
        switch f {
        case .list(let refs):
            var t: CodableSchema.FieldType = .unknown
            for (i, r) in refs.enumerated() { if let it = try node(r, in: graph, tag: tag, path: path + "[\(i)]", depth: depth + 1) { t = t.unified(with: it) } }
            return .array(t)
        case .counted(let entries):
            var t: CodableSchema.FieldType = .unknown
            for (i, e) in entries.enumerated() { if let it = try node(e.object, in: graph, tag: tag, path: path + "[\(i)]", depth: depth + 1) { t = t.unified(with: it) } }
            return .array(t)
        case .map(let keys, let values):
            var k: CodableSchema.FieldType = .unknown, v: CodableSchema.FieldType = .unknown
            for (i, key) in keys.enumerated() { if let kt = try node(key, in: graph, tag: tag, path: path + ".<key \(i)>", depth: depth + 1) { k = k.unified(with: kt) } }
            for (i, value) in values.enumerated() { if let vt = try node(value, in: graph, tag: tag, path: path + "[\(i)]", depth: depth + 1) { v = v.unified(with: vt) } }
            return .dictionary(key: k == .unknown ? .string : k, value: v)
        case .string, .attributedString: return .string
        case .data: return .data
        case .date: return .date
        case .described(let d): return CodableSchema.FieldType(swift: d.swiftType) ?? .string
        case .url: return .url
        case .null: return nil
        case .line(let line):
            var v: CodableSchema.FieldType = .unknown
            for part in line.parts {
                switch part.value {
                case .word, .text: v = v.unified(with: .string)
                case .object(let r):
                    if let t = try node(r, in: graph, tag: tag, path: path + "." + part.key, depth: depth + 1) { v = v.unified(with: t) }
                }
            }
            return .dictionary(key: .string, value: v)
        }
    }
}
