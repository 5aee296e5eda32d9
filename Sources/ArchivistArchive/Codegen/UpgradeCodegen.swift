import ArchivistCore

/// `codegen --upgrade`: Swift source for an app that upgrades its users'
/// archives where they are (on the device, at launch). It holds version 2's
/// classes (as ``SwiftCodegen/secureCodingSource`` writes them), a reader of
/// version 1's shape for every class whose archived shape the rules change
/// (itself `NSSecureCoding`), the conversion of those readers to version 2,
/// `upgradeArchive(_:)`, which returns version 2 data for version 1 or
/// version 2 data and throws for anything else, and its use where archives
/// are kept: `upgradeDefaults(_:forKey:)` and `upgradeFiles(in:named:)`.
///
/// The inputs are version 1 archives (files, property lists holding them,
/// rows); each is read as it is for version 1's classes and migrated in
/// memory with the rules for version 2's.
public struct UpgradeCodegen: Sendable {
    /// The rules that take version 1 to version 2.
    public let rules: MigrationRules
    /// Version 2: the archives migrated with the rules.
    private var target: SwiftCodegen
    /// Version 1: the archives as they are.
    private var legacy: SwiftCodegen
    /// When set, version 2 is the Codable structs of `schema`, written with
    /// this encoding (`JSONEncoder` or `PropertyListEncoder`).
    public let codable: CodableEncoding?
    /// The Codable structs (with `codable`).
    private var schema: CodableSchema

    /// Upgrade code for archives migrated with `rules`; with `codable`, to
    /// the bytes that encoder writes for the Codable structs the classes stand
    /// for (as `Migrator` with ``Migrator/codable`` writes them), instead of
    /// a secure-coded archive.
    ///
    /// - Parameters:
    ///   - rules: The migration rules version 1's archives are migrated with.
    ///   - codable: The encoding of Codable data to upgrade to, or nil for a
    ///     secure-coded archive.
    public init(rules: MigrationRules = MigrationRules(), codable: CodableEncoding? = nil) {
        self.rules = rules
        self.codable = codable
        target = SwiftCodegen(rules: rules)
        legacy = SwiftCodegen(unmigrated: rules)
        schema = CodableSchema(rules: rules)
    }

    /// Adds one version 1 input (a keyed archive or a property list holding
    /// archives in `<data>` values). Throws a `PlistError` as
    /// ``SwiftCodegen/add(_:)`` does; the code is then left as it was.
    ///
    /// - Parameter tree: A version 1 document's tree.
    /// - Throws: `PlistError` when it holds no archive, an archive is broken
    ///   or the rules clash with it.
    public mutating func add(_ tree: PlistTree) throws {
        var newTarget = target, newLegacy = legacy, newSchema = schema
        if codable != nil { try newSchema.add(tree, label: "") } else { try newTarget.add(tree) }
        try newLegacy.add(tree)
        target = newTarget
        legacy = newLegacy
        schema = newSchema
    }

    /// Fields of version 2 whose generated code needs a hand's touch, as
    /// ``SwiftCodegen/warnings`` names them.
    public var warnings: [String] { target.warnings }

    /// The Swift source; with `transformer`, also a Core Data transformer of
    /// that name (as ``SwiftCodegen/transformerSource(named:)`` writes it)
    /// whose `reverseTransformedValue` reads version 1 blobs as well. Throws
    /// a `PlistError` for what the upgrade cannot convert: an archive whose
    /// root is not one of the app's classes, a changed class with custom
    /// superclasses, version-1 objects held in a collection other than an
    /// array, a set or a dictionary's values; and for a transformer name that
    /// is no Swift type name.
    ///
    /// - Parameter transformer: The Swift type name of a Core Data transformer
    ///   to write as well, or nil.
    /// - Returns: The Swift source.
    /// - Throws: `PlistError` for what the upgrade cannot convert, its
    ///   `PlistError.reason` saying which limit (`PlistError.Reason.rootNotOfTheApp`...).
    public func source(transformer: String? = nil) throws -> String {
        if let codable {
            guard transformer == nil else { throw PlistError(.unsupported, "a Core Data transformer reads archives").because(.transformerOfCodableUpgrade) }
            return try codableSource(codable)
        }
        let plan = try UpgradePlan(rules: rules, legacy: legacy.classes, target: target.classes)
        let v2Roots = try target.rootClasses.map { root -> String in
            guard root.isCustom else { throw Self.notCustomRoot(root.name) }
            return root.name
        }
        let v1Roots = try legacy.rootClasses.map { root -> String in
            guard root.isCustom else { throw Self.notCustomRoot(root.name) }
            return plan.decodingType(ofLegacy: root.name)
        }
        var out = target.secureCodingSource
        out += "\n// MARK: - Version 1, read only to upgrade it\n"
        for reader in plan.readers {
            out += "\n" + SecureCodingRenderer.declaration(of: reader.reader, in: [:], bases: [])
            out += "\n" + (try UpgradeRenderer.conversion(of: reader, plan: plan))
        }
        out += "\n" + UpgradeRenderer.upgradeArchive(
            version2: (roots: v2Roots, names: target.classes.flatMap { c in c.archivedNames.map { ($0, c.swiftType) } }),
            version1: (roots: v1Roots, names: plan.legacyNames),
            readers: plan.readers.map(\.reader.swiftType))
        out += "\n" + UpgradeRenderer.places
        out += "\n" + UpgradeRenderer.support
        if let transformer { out += "\n" + (try target.transformerSource(named: transformer, upgrading: true)) }
        return out
    }

    /// The source with version 2 as Codable structs: every class read by a
    /// reader and converted to its struct.
    private func codableSource(_ encoding: CodableEncoding) throws -> String {
        let renderer = try CodableUpgradeRenderer(rules: rules, legacy: legacy.classes, schema: schema)
        guard legacy.rootClasses.count == 1, let root = legacy.rootClasses.first else {
            throw PlistError(.unsupported, "the archives' roots are of \(legacy.rootClasses.count) classes").because(.rootsOfSeveralClasses)
        }
        guard root.isCustom, let rootClass = legacy.classes.first(where: { $0.swiftType == root.name }) else { throw Self.notCustomRoot(root.name) }
        var out = schema.swift(codingKeysForRenames: true)
        out += "\n// MARK: - Version 1, read only to upgrade it\n"
        out += try renderer.readers()
        out += "\n" + CodableUpgradeRenderer.upgradeArchive(
            root: renderer.structName(of: rootClass), reader: UpgradePlan.readerName(rootClass.swiftType),
            names: legacy.classes.flatMap { c in c.archivedNames.map { ($0, UpgradePlan.readerName(c.swiftType)) } }, encoding: encoding)
        out += "\n" + UpgradeRenderer.places
        out += "\n" + UpgradeRenderer.support
        return out
    }

    private static func notCustomRoot(_ name: String) -> PlistError {
        PlistError(.unsupported, "an archive's root object is \(PlistValue.quoted(name))").because(.rootNotOfTheApp)
    }
}
