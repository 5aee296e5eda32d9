import ArchivistCore

/// `codegen --upgrade --codable`: version 1's classes all read by readers and
/// converted to the Codable structs of ``CodableSchema``, and the upgrade
/// returning the bytes `JSONEncoder` or `PropertyListEncoder` write for the
/// root struct.
struct CodableUpgradeRenderer {
    let rules: MigrationRules
    /// Version 1's custom classes, each read by a reader.
    let legacy: [SecureCodingClass]
    /// The structs, by name.
    let structs: [String: CodableSchema.TypeDeclaration]

    init(rules: MigrationRules, legacy: [SecureCodingClass], schema: CodableSchema) throws {
        self.rules = rules
        self.legacy = legacy
        structs = Dictionary(schema.types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let recursive = CodableSchema.recursiveTypes(schema.types)
        if let name = recursive.first {
            throw PlistError(.unsupported, "struct \(PlistValue.quoted(name)) contains itself").because(.selfContainingStruct)
        }
    }

    /// The struct a version-1 class becomes.
    func structName(of c: SecureCodingClass) -> String {
        SwiftNames.typeIdentifier(CodableExporter.structName(of: ClassName(archived: c.archivedNames.first ?? c.swiftType), rules: rules))
    }

    /// Every reader's declaration and its conversion to its struct.
    func readers() throws -> String {
        var out = ""
        for c in legacy {
            let name = ClassName(archived: c.archivedNames.first ?? c.swiftType)
            if c.superclass != nil {
                throw PlistError(.unsupported, "class \(PlistValue.quoted(c.swiftType)) has custom superclasses").because(.codableUpgradeOfSubclass)
            }
            if rules.codableRule(for: name)?.unwrap != nil {
                throw PlistError(.unsupported, "class \(PlistValue.quoted(c.swiftType)) is unwrapped by the rules").because(.codableUpgradeOfUnwrappedClass)
            }
            var reader = c
            reader.swiftType = UpgradePlan.readerName(c.swiftType)
            reader.fields = c.fields.map { f in
                var field = f
                if case .object(let shape?) = f.storage { field.storage = .object(shape.renamingCustomTypes(UpgradePlan.readerName)) }
                return field
            }
            out += "\n" + SecureCodingRenderer.declaration(of: reader, in: [:], bases: [])
            out += "\n" + (try conversion(of: c, reader: reader))
        }
        return out
    }

    /// A reader's conformance to `Version1Object`: its struct's memberwise
    /// initializer called with the reader's fields.
    private func conversion(of c: SecureCodingClass, reader: SecureCodingClass) throws -> String {
        let target = structName(of: c)
        guard let decl = structs[target] else {
            throw PlistError(.unsupported, "class \(PlistValue.quoted(c.swiftType)) has no struct in the schema")
        }
        let rule = rules.rule(for: ClassName(archived: c.archivedNames.first ?? c.swiftType))
        let readerNames = SecureCodingRenderer.propertyNames(reader.fields)
        let names = SwiftNames.propertyNames(for: decl.properties.map(\.key), avoiding: [])
        var arguments: [String] = []
        for (p, name) in zip(decl.properties, names) {
            let found = readerNames.first { f, _ in
                let keyRule = rule?.key(archivedAs: f.key)
                return keyRule?.remove != true && PlistKeys.same(keyRule?.renameTo ?? f.key, p.key)
            }
            guard let (f, property) = found else {
                guard p.optional else { throw unconvertible(target, p.key, "version 1 has no field that becomes it") }
                arguments.append("\(name): nil")
                continue
            }
            let converted: Converted
            if f.optional {
                let inner = try value("item0", f.storage, to: p.type, depth: 1, target, p.key)
                converted = inner.expression == "item0" ? Converted(property) : Converted("\(inner.throwing ? "try " : "")\(property).map { item0 in \(inner.expression) }", inner.throwing)
            } else {
                converted = try value(property, f.storage, to: p.type, depth: 0, target, p.key)
            }
            // The struct requires what version 1 may hold nil for: an object that lacks it throws.
            let required = f.optional && !p.optional
            arguments.append("\(name): " + (required ? UpgradeRenderer.required(converted.expression, field: "\(target).\(name)") : converted.expression))
        }
        return """
            extension \(reader.swiftType): Version1Object {
                func upgraded(_ conversion: Version1Conversion) throws -> \(target) {
                    \(target)(\(arguments.joined(separator: ", ")))
                }
            }

            """
    }

    /// An expression and whether it throws.
    private struct Converted {
        var expression: String
        var throwing = false

        init(_ expression: String, _ throwing: Bool = false) {
            self.expression = expression
            self.throwing = throwing
        }
    }

    /// The expression converting a non-optional value of a reader's field to
    /// the struct property's type.
    private func value(_ e: String, _ storage: SecureCodingClass.Storage, to type: CodableSchema.FieldType, depth: Int,
                       _ target: String, _ key: String) throws -> Converted {
        switch storage {
        case .inline(let kind): return try number(e, kind, to: type, target, key)
        case .object(nil): return Converted(e)
        case .object(let shape?): return try object(e, shape, to: type, depth: depth, target, key)
        }
    }

    private func number(_ e: String, _ kind: SecureNumberKind, to type: CodableSchema.FieldType, _ target: String, _ key: String) throws -> Converted {
        switch type {
        case .int, .double, .float, .bool:
            if kind.swift == type.swift { return Converted(e) }
            guard kind != .bool, type != .bool else { break }
            return Converted("\(type.swift)(\(e))")
        default:
            break
        }
        throw unconvertible(target, key, "version 1 holds a \(kind.swift), the struct a \(type.swift)")
    }

    private func object(_ e: String, _ shape: SecureFieldShape, to type: CodableSchema.FieldType, depth: Int,
                        _ target: String, _ key: String) throws -> Converted {
        switch (shape, type) {
        case (.number(let kind), _):
            return try number(e, kind, to: type, target, key)
        case (.bridged(_, let swift), _) where swift == type.swift:
            return Converted(e)
        case (.custom, .named):
            return Converted("try conversion.upgrade(\(e))", true)
        case (.list(let className, let element?), .array(let t)) where SecureFieldShape.bridge(of: className) != .set:
            let item = "item\(depth)"
            let inner = try object(item, element, to: t, depth: depth + 1, target, key)
            if inner.expression == item { return Converted(e) }
            return Converted("\(inner.throwing ? "try " : "")\(e).map { \(item) in \(inner.expression) }", inner.throwing)
        case (.list(_, nil), .array):
            return Converted(e)
        case (.map(_, .bridged(_, "String")?, let valueShape?), .dictionary(.string, let t)):
            let item = "item\(depth)"
            let inner = try object(item, valueShape, to: t, depth: depth + 1, target, key)
            if inner.expression == item { return Converted(e) }
            return Converted("\(inner.throwing ? "try " : "")\(e).mapValues { \(item) in \(inner.expression) }", inner.throwing)
        default:
            throw unconvertible(target, key, "version 1 holds \(shape.swift), the struct \(type.swift)")
        }
    }

    private func unconvertible(_ target: String, _ key: String, _ why: String) -> PlistError {
        PlistError(.unsupported, "\(target).\(key) cannot be upgraded: \(why)")
    }

    /// `decodeUpgradedArchive(_:)` and `upgradeArchive(_:)` for one root struct.
    static func upgradeArchive(root: String, reader: String, names: [(archived: String, type: String)], encoding: CodableEncoding) -> String {
        let decoder: String, encoder: String, format: String
        switch encoding {
        case .json:
            decoder = "JSONDecoder()"
            encoder = "    return try JSONEncoder().encode(decoded.root)"
            format = "JSONEncoder"
        case .propertyList(let plist):
            decoder = "PropertyListDecoder()"
            encoder = """
                    let encoder = PropertyListEncoder()
                    encoder.outputFormat = .\(plist == .xml ? "xml" : "binary")
                    return try encoder.encode(decoded.root)
                """
            format = "PropertyListEncoder"
        }
        let list = names.isEmpty ? "[]" : "[\n" + names.map { "        (\(PlistValue.quoted($0.archived)), \($0.type).self),\n" }.joined() + "    ]"
        return """
            /// The root of version 1 or version 2 data as version 2's struct, and whether
            /// the data was version 2 already (what `\(decoder)` reads as \(root); a keyed
            /// archive never is). Version 1 is read with the version-1 readers and
            /// converted. Anything else throws an `ArchiveUpgradeError` naming what the
            /// data holds.
            func decodeUpgradedArchive(_ data: Data) throws -> (root: \(root), wasVersion2: Bool) {
                let currentError: any Error
                do {
                    let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
                    guard (plist as? [String: Any])?["$archiver"] == nil else { throw ArchiveUpgradeError("a keyed archive is not version 2") }
                    return (try \(decoder).decode(\(root).self, from: data), true)
                } catch {
                    currentError = error
                }
                let version1: [(name: String, type: AnyClass)] = \(list)
                switch decodeArchiveRoot(data, allowing: [\(reader).self], classNames: version1) {
                case .success(let root as \(reader)):
                    return (try Version1Conversion().upgrade(root), false)
                case .success(let root):
                    throw ArchiveUpgradeError("the archive's root is \\(type(of: root)), not \(reader)")
                case .failure(let legacyError):
                    throw ArchiveUpgradeError(found: data, version2: currentError, version1: legacyError)
                }
            }

            /// Version 2 of the data, the bytes `\(format)` writes for its root: version 2
            /// data comes back unchanged; version 1 data is read with the version-1 readers
            /// and converted. Anything else throws an `ArchiveUpgradeError` naming what the
            /// data holds.
            func upgradeArchive(_ data: Data) throws -> Data {
                let decoded = try decodeUpgradedArchive(data)
                if decoded.wasVersion2 { return data }
            \(encoder)
            }

            """
    }
}
