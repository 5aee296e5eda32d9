import ArchivistCore

/// Swift source for the code a migration moves to, from the archives and the
/// rules file (`archivist codegen`): the custom classes as `NSSecureCoding`
/// reads them after the migration, the classes to allow when decoding them,
/// and a Core Data transformer. Each input is migrated in memory with the
/// rules first (class and key renames, boxed primitives), so the code matches
/// the migrated archives; archives nested in `<data>` values are included.
public struct SwiftCodegen: Sendable {
    /// The rules the archives are migrated with.
    public let rules: MigrationRules
    /// The custom classes as folded from the archives, in the order first met.
    private var folded: [SecureCodingClass] = []
    /// The fields (by class as Swift names it after the migration, and key
    /// after it) that hold an inline primitive in the archives as they were:
    /// those can never be nil, boxed or not.
    private var inlineBeforeMigration: Set<FieldName> = []
    /// Each class's index in `classes`, by Swift type.
    private var classIndex: [String: Int] = [:]
    /// Every class of the migrated archives.
    private var census = ClassCensus()
    /// False to read the archives as they are (version 1, for `--upgrade`).
    private var migrating = true
    /// The classes of the archives' root objects (`$top` `root`), each once:
    /// a custom class as Swift names it, one of Apple's by its archived name.
    private(set) var rootClasses: [(name: String, isCustom: Bool)] = []

    /// How deep a field's collections are followed for their element classes.
    static let maxShapeDepth = 64

    /// Code generation for archives migrated with `rules`.
    ///
    /// - Parameter rules: The migration rules the archives are migrated with.
    public init(rules: MigrationRules = MigrationRules()) {
        self.rules = rules
    }

    /// Code generation for archives read as they are, unmigrated: the classes
    /// of version 1 that `--upgrade` reads.
    init(unmigrated rules: MigrationRules) {
        self.rules = rules
        migrating = false
    }

    /// Adds one input (a file, a row): a keyed archive or a property list
    /// holding archives in `<data>` values. Throws a `PlistError` when it
    /// holds no archive, an archive is broken or the rules clash with it; the
    /// code is then left as it was.
    ///
    /// - Parameter tree: A document's tree.
    /// - Throws: `PlistError` when it holds no archive, an archive is broken
    ///   or the rules clash with it.
    public mutating func add(_ tree: PlistTree) throws {
        // The generated code allows every class it declares, so the migration
        // here must not refuse a class the rules file does not allow yet:
        // allowing NSObject allows every class derived from it.
        var ruleSet = rules
        ruleSet.allowedClasses.append(ClassDescription.nsObject.name)
        let migrated: PlistTree
        do {
            migrated = migrating ? try Migrator(rules: ruleSet).migrate(tree).tree : tree
        } catch let refused as MigrationRefused {
            // Only a class outside NSObject's hierarchy can still be refused.
            throw refused.errors.first ?? PlistError(.archive, "a secure decoder would refuse the migrated archive")
        }
        var next = self
        if migrating {
            try NestedArchiveWalk.archives(in: tree, broken: .fail) { archive in
                guard archive.kind != .typedstream else { return }
                next.noteInlineFields(archive.graph)
            }
        }
        try NestedArchiveWalk.archives(in: migrated, broken: .fail) { archive in
            guard archive.kind != .typedstream else { return }
            next.census.add(archive.graph)
            try next.fold(archive.graph)
        }
        self = next
    }

    /// A field of a class, both as Swift code of version 2 names them.
    private struct FieldName: Hashable {
        var type: String
        var key: PlistKey
    }

    /// Records the fields of the unmigrated graph's custom objects that hold
    /// inline primitives, under the class and key the migration gives them.
    private mutating func noteInlineFields(_ graph: ObjectGraph) {
        for node in graph.nodes {
            guard case .object(let o) = node, Self.isCustom(o, in: graph) else { continue }
            let rule = rules.rule(for: o.className)
            let type = (rule?.renameTo).map { ClassName(archived: $0).swiftType } ?? o.className.swiftType
            for field in o.fields {
                guard case .inline(let v) = field.value, SecureNumberKind(v) != nil else { continue }
                let keyRule = rule?.key(archivedAs: field.key)
                inlineBeforeMigration.insert(FieldName(type: type, key: PlistKey(keyRule?.renameTo ?? field.key)))
            }
        }
    }

    /// The custom classes, in the order first met, with the fields that hold
    /// objects made optional: an object field of an archive can always be
    /// `$null`, whatever the samples hold. In version 1's classes (read as
    /// they are) every object field is optional; in version 2's, every one
    /// but those the rules mark `required` and those boxed from an inline
    /// primitive (which version 1 always wrote).
    var classes: [SecureCodingClass] {
        folded.map { c in
            var c = c
            let rule = rules.rule(for: ClassName(archived: c.archivedNames.first ?? c.swiftType))
            for i in c.fields.indices where !c.fields[i].isInline && !c.fields[i].optional {
                let key = c.fields[i].key
                let required = migrating && (rule?.key(key)?.required == true
                    || inlineBeforeMigration.contains(FieldName(type: c.swiftType, key: PlistKey(key))))
                if !required { c.fields[i].optional = true }
            }
            return c
        }
    }

    /// Folds every custom object of a graph into its class.
    private mutating func fold(_ graph: ObjectGraph) throws {
        var shapes = ShapeReader(graph: graph)
        for entry in graph.top where entry.key == "root" {
            guard case .object(let o)? = graph.nodes[safe: entry.object] else { continue }
            let root = Self.isCustom(o, in: graph) ? (o.className.swiftType, true) : (o.className.archived, false)
            if !rootClasses.contains(where: { $0 == root }) { rootClasses.append(root) }
        }
        for (index, node) in graph.nodes.enumerated() {
            guard case .object(let o) = node else { continue }
            let custom = Self.isCustom(o, in: graph)
            let ancestors = custom ? Self.customAncestors(of: o) : []
            for name in [o.className] + ancestors where !SwiftNames.isTypeExpression(custom ? name.swiftType : name.archived) {
                throw PlistError(.invalidValue, "class \(PlistValue.quoted(name.readable)) is not a Swift type name; give it one with renameTo in the rules file",
                                 at: .archive(object: index, keyPath: ""))
            }
            guard custom else { continue }
            var found: [(key: String, storage: SecureCodingClass.Storage)] = []
            for field in o.fields {
                switch field.value {
                case .inline(let v):
                    if let kind = SecureNumberKind(v) { found.append((field.key, .inline(kind))) } else { found.append((field.key, .object(ShapeReader.valueShape(v)))) }
                case .reference(let r):
                    found.append((field.key, .object(shapes.shape(of: r, depth: 0))))
                case .references(let rs):
                    found.append((field.key, .object(shapes.collection(ClassCatalogue.standing(for: .array).name, rs, depth: 0))))
                }
            }
            let line = [o.className] + ancestors
            for (i, name) in line.enumerated() {
                let c = entry(name, superclass: line.indices.contains(i + 1) ? line[i + 1].swiftType : nil)
                if i == 0 { folded[c].add(found) }
            }
        }
    }

    /// The index of a class in `classes`, added when first met (a superclass
    /// is met through its subclasses' chains, with or without objects).
    private mutating func entry(_ name: ClassName, superclass: String?) -> Int {
        let type = name.swiftType
        if let i = classIndex[type] {
            if !folded[i].archivedNames.contains(name.archived) { folded[i].archivedNames.append(name.archived) }
            if folded[i].superclass == nil, let superclass, !descends(superclass, from: type) { folded[i].superclass = superclass }
            return i
        }
        var c = SecureCodingClass(swiftType: type, archivedNames: [name.archived])
        if let superclass, !descends(superclass, from: type) { c.superclass = superclass }
        classIndex[type] = folded.count
        folded.append(c)
        return folded.count - 1
    }

    /// True when `type` is `ancestor` or one of its known superclasses: making
    /// it `ancestor`'s superclass would close a loop (a hostile chain).
    private func descends(_ type: String, from ancestor: String) -> Bool {
        var seen: Set<String> = []
        var next: String? = type
        while let name = next, seen.insert(name).inserted {
            if name == ancestor { return true }
            next = classIndex[name].map { folded[$0].superclass } ?? nil
        }
        return false
    }

    /// The custom superclasses in an object's `$classes` chain, nearest first
    /// (up to the first of Apple's classes).
    static func customAncestors(of o: ArchivedObject) -> [ClassName] {
        Array(o.classChain.dropFirst().map(ClassName.init(archived:)).prefix { !SecurePolicy.isFrameworkClass($0) })
    }

    /// True for a plain Swift type name (an ASCII identifier, not a keyword).
    package static func isTypeName(_ name: String) -> Bool {
        SwiftNames.isIdentifier(name)
    }

    /// True for an object of the app's own classes (not Apple's).
    static func isCustom(_ o: ArchivedObject, in graph: ObjectGraph) -> Bool {
        !SecurePolicy.isFrameworkClass(o.className) && FoundationValue.interpret(o, in: graph) == nil
    }

    /// Fields whose generated code needs a hand's touch (values of two types,
    /// inline in some objects and referenced in others), as
    /// `TYPE.KEY: NOTE` lines.
    public var warnings: [String] {
        folded.flatMap { c in c.fields.flatMap { f in f.notes.map { "\(c.swiftType).\(f.key): \($0)" } } }
    }

    /// `--secure-coding`: each custom class as it must look after the
    /// migration, and a function mapping the archived names to them.
    public var secureCodingSource: String {
        var out = "import Foundation\n"
        let classes = classes
        let all = Dictionary(classes.map { ($0.swiftType, $0) }, uniquingKeysWith: { first, _ in first })
        let bases = Set(classes.compactMap(\.superclass))
        for c in classes { out += "\n" + SecureCodingRenderer.declaration(of: c, in: all, bases: bases) }
        out += SecureCodingRenderer.registration(of: classes)
        return out
    }

    /// `--allowed-classes`: the classes to pass to
    /// `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)`, every class the
    /// migrated archives hold.
    public var allowedClassesSource: String {
        """
        import Foundation

        /// The classes the archives hold, for NSKeyedUnarchiver.unarchivedObject(ofClasses:from:) under secure coding.
        var archivedClasses: [AnyClass] { \(census.swiftClassList) }

        """
    }

    /// `--transformer NAME`: an `NSSecureUnarchiveFromDataTransformer`
    /// subclass for a Core Data Transformable attribute holding these archives,
    /// with its registration. Core Data exists on Apple platforms only, so the
    /// source sits behind `#if canImport(CoreData)`.
    /// Throws when `name` is not a Swift type name.
    ///
    /// - Parameter name: The transformer's Swift type name.
    /// - Returns: The Swift source.
    /// - Throws: `PlistError` when `name` is not a Swift type name.
    public func transformerSource(named name: String) throws -> String {
        try transformerSource(named: name, upgrading: false)
    }

    /// The transformer; `upgrading`, it sits in `codegen --upgrade`'s file
    /// (which imports Foundation) and reads version 1 blobs as well, through
    /// that file's `decodeUpgradedArchive(_:)`.
    func transformerSource(named name: String, upgrading: Bool) throws -> String {
        guard Self.isTypeName(name) else {
            throw PlistError(.invalidValue, "\(PlistValue.quoted(name)) is not a Swift type name")
        }
        let reverse = upgrading ? """

                /// The value of a blob of version 1 or version 2 (`decodeUpgradedArchive`), so
                /// that the store's old rows keep working until they are saved again, as
                /// version 2; nil for a blob of neither.
                override func reverseTransformedValue(_ value: Any?) -> Any? {
                    guard let data = value as? Data, let decoded = try? decodeUpgradedArchive(data) else { return nil }
                    return decoded.root
                }

            """ : ""
        return """
        #if canImport(CoreData)
        import CoreData
        \(upgrading ? "" : "import Foundation\n")
        /// The value transformer of a Core Data Transformable attribute holding these
        /// archives: enter \(name) as the attribute's Transformer in the data model and
        /// call \(name).register() before the persistent container loads its stores.
        @objc(\(name))
        final class \(name): NSSecureUnarchiveFromDataTransformer {
            /// The name the data model refers to.
            static let name = NSValueTransformerName(rawValue: \(PlistValue.quoted(name)))

            override class var allowedTopLevelClasses: [AnyClass] {
                \(census.swiftClassList)
            }
        \(reverse)
            /// Registers the transformer under its name.
            static func register() {
                ValueTransformer.setValueTransformer(\(name)(), forName: name)
            }
        }
        #endif

        """
    }
}
