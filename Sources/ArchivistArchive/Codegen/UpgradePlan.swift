import ArchivistCore

/// How version 1's classes map to version 2's for `codegen --upgrade`: which
/// classes need a reader of their version-1 shape, and what every archived
/// name of version 1 decodes as.
struct UpgradePlan {
    /// A class whose archived shape changes, with the reader of its version-1 shape.
    struct Reader {
        /// The class as version 1 archives it.
        var legacy: SecureCodingClass
        /// The reader: the version-1 shape under the reader's name, holding
        /// readers where version 1 holds changed classes.
        var reader: SecureCodingClass
        /// The class as version 2 archives it.
        var target: SecureCodingClass
        /// Its version-2 Swift type.
        var targetType: String { target.swiftType }
    }

    let rules: MigrationRules
    /// The readers, in the order the classes were first met.
    private(set) var readers: [Reader] = []
    /// Each version-1 Swift type's version-2 type.
    private var targetTypes: [String: String] = [:]
    /// The version-1 Swift types that need a reader.
    private var changed: Set<String> = []
    /// Every archived name of version 1 with the Swift type it decodes as
    /// (a reader, or the version-2 class when the shape does not change).
    private(set) var legacyNames: [(archived: String, type: String)] = []

    /// The plan for classes folded from the same archives, as they are
    /// (`legacy`) and migrated (`target`). Throws when a changed class has
    /// custom superclasses.
    init(rules: MigrationRules, legacy: [SecureCodingClass], target: [SecureCodingClass]) throws {
        self.rules = rules
        let targets = Dictionary(target.map { ($0.swiftType, $0) }, uniquingKeysWith: { first, _ in first })
        for c in legacy {
            let name = ClassName(archived: c.archivedNames.first ?? c.swiftType)
            targetTypes[c.swiftType] = (rules.rule(for: name)?.renameTo).map { ClassName(archived: $0).swiftType } ?? name.swiftType
        }
        // A class changes when its own fields do, or when it holds a class that changes.
        for c in legacy where ownShapeChanges(c, targets: targets) { changed.insert(c.swiftType) }
        var grew = true
        while grew {
            grew = false
            for c in legacy where !changed.contains(c.swiftType) {
                if c.fields.contains(where: { Self.customTypes(in: $0.storage).contains(where: changed.contains) }) {
                    changed.insert(c.swiftType)
                    grew = true
                }
            }
        }
        for c in legacy {
            let type = decodingType(ofLegacy: c.swiftType)
            legacyNames += c.archivedNames.map { ($0, type) }
            guard changed.contains(c.swiftType) else { continue }
            guard let targetType = targetTypes[c.swiftType], let t = targets[targetType] else {
                throw PlistError(.unsupported, "class \(PlistValue.quoted(c.swiftType)) of version 1 has no class in version 2")
            }
            if c.superclass != nil || t.superclass != nil {
                throw PlistError(.unsupported, "class \(PlistValue.quoted(c.swiftType)) changes its archived shape and has custom superclasses").because(.upgradeOfSubclass)
            }
            var reader = c
            reader.swiftType = Self.readerName(c.swiftType)
            reader.fields = c.fields.map { f in
                var field = f
                if case .object(let shape?) = f.storage { field.storage = .object(shape.renamingCustomTypes(decodingType(ofLegacy:))) }
                return field
            }
            readers.append(Reader(legacy: c, reader: reader, target: t))
        }
    }

    /// The name of the reader of a version-1 class (`CPU.CPUCoder` is read by
    /// `CPUCPUCoderVersion1`).
    static func readerName(_ type: String) -> String {
        type.split(separator: ".").joined() + "Version1"
    }

    /// The Swift type a version-1 class decodes as: its reader when its shape
    /// changes, else its version-2 class.
    func decodingType(ofLegacy type: String) -> String {
        changed.contains(type) ? Self.readerName(type) : targetTypes[type] ?? type
    }

    /// True when a version-1 class is a reader (its shape changes).
    func isChanged(_ legacyType: String) -> Bool {
        changed.contains(legacyType)
    }

    /// The version-2 type of a version-1 class.
    func targetType(ofLegacy type: String) -> String {
        targetTypes[type] ?? type
    }

    /// The version-1 field that becomes a version-2 key (renamed or not), if
    /// the rules keep one.
    func legacyField(becoming key: String, in reader: Reader) -> SecureCodingClass.Field? {
        let rule = rules.rule(for: ClassName(archived: reader.legacy.archivedNames.first ?? reader.legacy.swiftType))
        return reader.legacy.fields.first { f in
            let keyRule = rule?.key(archivedAs: f.key)
            return keyRule?.remove != true && PlistKeys.same(keyRule?.renameTo ?? f.key, key)
        }
    }

    /// True when the rules change a class's fields: a key removed or
    /// renamed, a primitive boxed, a class it holds renamed to another Swift
    /// type, a field version 1 lacks.
    private func ownShapeChanges(_ c: SecureCodingClass, targets: [String: SecureCodingClass]) -> Bool {
        guard let type = targetTypes[c.swiftType], let t = targets[type] else { return true }
        let rule = rules.rule(for: ClassName(archived: c.archivedNames.first ?? c.swiftType))
        var kept = 0
        for f in c.fields {
            let keyRule = rule?.key(archivedAs: f.key)
            if keyRule?.remove == true { return true }
            let key = keyRule?.renameTo ?? f.key
            guard PlistKeys.same(key, f.key), let g = t.fields.first(where: { PlistKeys.same($0.key, key) }) else { return true }
            kept += 1
            switch (f.storage, g.storage) {
            case (.inline(let a), .inline(let b)) where a == b:
                continue
            case (.object(let a), .object(let b)):
                if a?.renamingCustomTypes(targetType(ofLegacy:)) != b { return true }
            default:
                return true
            }
        }
        return kept != t.fields.count
    }

    /// The custom classes a field's storage names.
    static func customTypes(in storage: SecureCodingClass.Storage) -> [String] {
        guard case .object(let shape?) = storage else { return [] }
        return shape.customTypes
    }
}

extension SecureFieldShape {
    /// The same shape with every custom class renamed by `rename`.
    func renamingCustomTypes(_ rename: (String) -> String) -> SecureFieldShape {
        switch self {
        case .number, .bridged: return self
        case .custom(let type, let ancestors): return .custom(rename(type), ancestors: ancestors.map(rename))
        case .foundation(let className, let holding): return .foundation(className: className, holding: holding.map { $0.renamingCustomTypes(rename) })
        case .list(let className, let element): return .list(className: className, element: element?.renamingCustomTypes(rename))
        case .map(let className, let key, let value):
            return .map(className: className, key: key?.renamingCustomTypes(rename), value: value?.renamingCustomTypes(rename))
        }
    }

    /// Every custom class the shape holds.
    var customTypes: [String] {
        switch self {
        case .number, .bridged: return []
        case .custom(let type, let ancestors): return [type] + ancestors
        case .foundation(_, let holding): return holding.flatMap(\.customTypes)
        case .list(_, let element): return element?.customTypes ?? []
        case .map(_, let key, let value): return (key?.customTypes ?? []) + (value?.customTypes ?? [])
        }
    }
}
