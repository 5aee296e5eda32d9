import ArchivistCore

/// What a migration changes, as users write it in a rules file:
///
/// ```json
/// {
///   "classes": {
///     "ScaryCreatures.ScaryCreatureData": {
///       "renameTo": "ScaryCreatures2.ScaryCreatureData",
///       "keys": { "Rating": { "box": true }, "Name": { "renameTo": "Title", "required": true }, "Obsolete": { "remove": true } }
///     }
///   },
///   "boxPrimitives": true,
///   "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]
/// }
/// ```
///
/// The same file holds the Codable-export part (``codable``): a class may also
/// `unwrap` a wrapper (replace it by one of its fields) or give the `typeName`
/// written under the top-level `typeKey` in arrays that mix classes; `migrate`
/// (without `--codable`), `lint --secure` and `codegen --secure-coding` do not
/// read those. Class names may be mangled or readable. Unknown fields, wrong
/// types and contradictions are errors that name their place in the file.
public struct MigrationRules: Sendable, Equatable {
    /// What happens to one key of a class.
    public struct KeyRule: Sendable, Equatable {
        /// The key it is written under in the archive.
        public var key: String
        /// The new key, if it is renamed.
        public var renameTo: String?
        /// Box (true) or leave inline (false) an inline primitive; nil follows `boxPrimitives`.
        public var box: Bool?
        /// Remove the field.
        public var remove: Bool
        /// Version 2 always holds an object here (never nil): the code
        /// `codegen` writes declares the field non-optional. Without it, a
        /// field holding an object is optional in that code, since an object
        /// field of an archive can always be `$null` whatever one sample holds.
        public var required: Bool

        /// A rule for `key`: rename it, box or leave inline its primitive
        /// (nil follows the file's `boxPrimitives`), remove it, or mark it
        /// required, as `"keys": {"KEY": {...}}` says in a rules file.
        ///
        /// - Parameters:
        ///   - key: The archived key the rule is about.
        ///   - renameTo: The key's new name, or nil to keep it.
        ///   - box: Whether an inline primitive is boxed into an NSNumber
        ///     (nil: as the file's `boxPrimitives` says).
        ///   - remove: Whether the key is removed.
        ///   - required: Whether the field must hold a value (`codegen`
        ///     declares it non-optional).
        public init(key: String, renameTo: String? = nil, box: Bool? = nil, remove: Bool = false, required: Bool) {
            self.key = key
            self.renameTo = renameTo
            self.box = box
            self.remove = remove
            self.required = required
        }

        /// A rule for `key` that does not mark it required (see
        /// ``init(key:renameTo:box:remove:required:)``).
        ///
        /// - Parameters:
        ///   - key: The archived key the rule is about.
        ///   - renameTo: The key's new name, or nil to keep it.
        ///   - box: Whether an inline primitive is boxed into an NSNumber
        ///     (nil: as the file's `boxPrimitives` says).
        ///   - remove: Whether the key is removed.
        public init(key: String, renameTo: String? = nil, box: Bool? = nil, remove: Bool = false) {
            self.init(key: key, renameTo: renameTo, box: box, remove: remove, required: false)
        }

        /// True when this rule is about `name`, before or after a rename.
        package func matches(_ name: String) -> Bool { PlistKeys.same(name, key) || renameTo.map { PlistKeys.same(name, $0) } == true }
    }

    /// What happens to one class.
    public struct ClassRule: Sendable, Equatable {
        /// The class as the rules name it (either spelling).
        public var name: String
        /// The new archived class name, if it is renamed.
        public var renameTo: String?
        /// Rules for its keys, in file order.
        public var keys: [KeyRule] {
            didSet { (byKey, byNewName) = Self.index(keys) }
        }
        /// The first key rule of each archived key, and of each new name: a
        /// class with thousands of key rules finds one without a scan.
        /// Keys match by code points (`PlistKey`), as the archive's keys do.
        private var byKey: [PlistKey: Int]
        private var byNewName: [PlistKey: Int]

        /// A rule for the class `name` (mangled or readable): rename it to
        /// `renameTo` and apply `keys`, as `"classes": {"NAME": {...}}` says in
        /// a rules file.
        ///
        /// - Parameters:
        ///   - name: The class's archived name, mangled or readable.
        ///   - renameTo: The class's new name, or nil to keep it.
        ///   - keys: The rules of its keys.
        public init(name: String, renameTo: String? = nil, keys: [KeyRule] = []) {
            self.name = name
            self.renameTo = renameTo
            self.keys = keys
            (byKey, byNewName) = Self.index(keys)
        }

        private static func index(_ keys: [KeyRule]) -> ([PlistKey: Int], [PlistKey: Int]) {
            var byKey: [PlistKey: Int] = [:], byNewName: [PlistKey: Int] = [:]
            for (position, rule) in keys.enumerated() {
                if byKey[PlistKey(rule.key)] == nil { byKey[PlistKey(rule.key)] = position }
                if let renameTo = rule.renameTo, byNewName[PlistKey(renameTo)] == nil { byNewName[PlistKey(renameTo)] = position }
            }
            return (byKey, byNewName)
        }

        /// True when an archived class is this rule's class, before or after a rename.
        package func matches(_ className: ClassName) -> Bool {
            className.matches(name) || renameTo.map { className.matches($0) } == true
        }

        /// Where the rule is in its file, as errors name it: `classes."A.B"`.
        package var path: String { "classes." + MigrationRules.pathComponent(name) }

        /// The rule for a key, by its old or new name.
        ///
        /// - Parameter name: The key's archived or new name.
        /// - Returns: The key's rule, or nil.
        public func key(_ name: String) -> KeyRule? {
            earliest(byKey[PlistKey(name)], byNewName[PlistKey(name)]).map { keys[$0] }
        }

        /// The rule for a key by the name it has in the archive (before a rename).
        package func key(archivedAs name: String) -> KeyRule? {
            byKey[PlistKey(name)].map { keys[$0] }
        }
    }

    /// Per-class rules, in file order.
    public var classes: [ClassRule] {
        didSet { classIndex = Self.index(of: classes) }
    }
    /// The rules' class names (old and new), to find a class's rule without a scan.
    private var classIndex: ClassNameIndex
    /// Box every inline primitive of every custom object (default true).
    public var boxPrimitives: Bool
    /// Classes the new code allows, beyond Foundation's own secure classes.
    public var allowedClasses: [String]
    /// The Codable-export part of the file.
    public var codable: CodableRules

    /// Rules in code.
    ///
    /// - Parameters:
    ///   - classes: The per-class rules.
    ///   - boxPrimitives: Box every inline primitive of custom objects.
    ///   - allowedClasses: Classes the new code allows beyond Foundation's.
    ///   - codable: The Codable-export rules.
    public init(classes: [ClassRule] = [], boxPrimitives: Bool = true, allowedClasses: [String] = [], codable: CodableRules = CodableRules()) {
        self.classes = classes
        self.classIndex = Self.index(of: classes)
        self.boxPrimitives = boxPrimitives
        self.allowedClasses = allowedClasses
        self.codable = codable
    }

    /// The rule for an archived class, if any.
    ///
    /// - Parameter className: An archived class, under its old or new name.
    /// - Returns: The class's rule, or nil.
    public func rule(for className: ClassName) -> ClassRule? {
        classIndex.first(matching: className).map { classes[$0] }
    }

    /// The index of rules' names: each rule's name and new name at its position.
    private static func index(of classes: [ClassRule]) -> ClassNameIndex {
        var index = ClassNameIndex()
        for (position, rule) in classes.enumerated() {
            index.insert(rule.name, at: position)
            if let renameTo = rule.renameTo { index.insert(renameTo, at: position) }
        }
        return index
    }

    /// The Codable-export rule for an archived class, if any (found through
    /// its entry, so a renamed class matches under either name).
    package func codableRule(for className: ClassName) -> CodableRules.ClassRule? {
        rule(for: className).flatMap { codable.classes[$0.name] }
    }

    /// The largest rules file the command line reads (16 MiB): a rules file
    /// is written by hand or by `--suggest-rules`, and one naming 10,000
    /// classes, each renamed with three key rules, is about 3 MiB of indented
    /// JSON, so anything much bigger (a device, a runaway file) is refused
    /// before it is read.
    package static let maxFileSize = 16 << 20

    /// Reads rules from a file's bytes (JSON, or any property-list format).
    ///
    /// - Parameter bytes: A rules file's bytes.
    /// - Throws: `PlistError` naming the place in the file of a mistake or
    ///   contradiction.
    public init(bytes: [UInt8]) throws {
        try self.init(value: try PropertyList.read(bytes).tree.value)
    }

    /// Reads rules from a tree.
    ///
    /// - Parameter value: A rules file's top dictionary.
    /// - Throws: `PlistError` naming the place in the file of a mistake or
    ///   contradiction.
    public init(value: PlistValue) throws {
        let top = try Self.dictionary(value, at: "")
        try Self.onlyFields(top, ["classes", "boxPrimitives", "allowedClasses", "typeKey"], at: "")
        classes = []
        classIndex = ClassNameIndex()
        codable = CodableRules(typeKey: try top["typeKey"].map { try Self.name($0, at: "typeKey") })
        boxPrimitives = try top["boxPrimitives"].map { try Self.bool($0, at: "boxPrimitives") } ?? true
        allowedClasses = []
        if let list = top["allowedClasses"] {
            guard case .array(let items) = list else { throw Self.fail("allowedClasses", "is \(list.aTypeName), not an array of class names") }
            for (i, item) in items.enumerated() {
                allowedClasses.append(try Self.name(item, at: "allowedClasses[\(i)]"))
            }
        }
        if let list = top["classes"] {
            let entries = try Self.dictionary(list, at: "classes")
            var earlierNames = ArchivedClassIndex()
            for (name, body) in entries {
                let at = "classes.\(Self.pathComponent(name))"
                guard !name.isEmpty else { throw Self.fail(at, "a class name is empty") }
                if let earlier = earlierNames.positions(matching: name).first {
                    throw Self.fail(at, "names the same class as \"\(classes[earlier].name)\"")
                }
                let (rule, export) = try Self.classRule(name, body, at: at)
                earlierNames.insert(ClassName(archived: name), at: classes.count)
                classes.append(rule)
                if let export { codable.classes[name] = export }
            }
        }
        classIndex = Self.index(of: classes)
    }

    /// One class entry: its migration rule and, when it has `unwrap` or
    /// `typeName`, its Codable-export rule.
    private static func classRule(_ name: String, _ body: PlistValue, at path: String) throws -> (ClassRule, CodableRules.ClassRule?) {
        let d = try dictionary(body, at: path)
        try onlyFields(d, ["renameTo", "keys", "unwrap", "typeName"], at: path)
        var rule = ClassRule(name: name, renameTo: try d["renameTo"].map { try self.name($0, at: path + ".renameTo") }, keys: [])
        let export = CodableRules.ClassRule(unwrap: try d["unwrap"].map { try self.name($0, at: path + ".unwrap") },
                                            typeName: try d["typeName"].map { try self.name($0, at: path + ".typeName") })
        if let keys = d["keys"] {
            var keyRules: [KeyRule] = []
            // Where each name ends up after migration, to find a clash without a scan:
            // a key renamed to it, or a key kept under it.
            var renamedTo: [PlistKey: Int] = [:], keptAs: [PlistKey: Int] = [:]
            for (key, keyBody) in try dictionary(keys, at: path + ".keys") {
                let at = path + ".keys." + pathComponent(key)
                guard !key.isEmpty else { throw fail(at, "a key is empty") }
                let k = try dictionary(keyBody, at: at)
                try onlyFields(k, ["renameTo", "box", "remove", "required"], at: at)
                let keyRule = KeyRule(key: key,
                                      renameTo: try k["renameTo"].map { try self.name($0, at: at + ".renameTo") },
                                      box: try k["box"].map { try bool($0, at: at + ".box") },
                                      remove: try k["remove"].map { try bool($0, at: at + ".remove") } ?? false,
                                      required: try k["required"].map { try bool($0, at: at + ".required") } ?? false)
                if keyRule.remove, keyRule.renameTo != nil || keyRule.box != nil || keyRule.required {
                    throw fail(at, "remove cannot be combined with renameTo, box or required")
                }
                if let target = keyRule.renameTo, let clash = earliest(renamedTo[PlistKey(target)], keptAs[PlistKey(target)]) {
                    throw fail(at + ".renameTo", "\"\(target)\" is also the name of key \"\(keyRules[clash].key)\" after migration")
                }
                if let target = keyRule.renameTo {
                    if renamedTo[PlistKey(target)] == nil { renamedTo[PlistKey(target)] = keyRules.count }
                } else if !keyRule.remove, keptAs[PlistKey(key)] == nil {
                    keptAs[PlistKey(key)] = keyRules.count
                }
                keyRules.append(keyRule)
            }
            rule.keys = keyRules
        }
        let exports = export.unwrap != nil || export.typeName != nil
        if rule.renameTo == nil, rule.keys.isEmpty, !exports {
            throw fail(path, "says nothing to do: give renameTo, keys, unwrap or typeName")
        }
        return (rule, exports ? export : nil)
    }

    private static func fail(_ path: String, _ message: String) -> PlistError {
        PlistError(.invalidValue, path.isEmpty ? message : "\(path): \(message)")
    }

    private static func dictionary(_ value: PlistValue, at path: String) throws -> PlistDictionary {
        guard case .dictionary(let d) = value else {
            throw fail(path, "is \(value.aTypeName), not an object")
        }
        return d
    }

    private static func onlyFields(_ d: PlistDictionary, _ allowed: [String], at path: String) throws {
        for (key, _) in d where !allowed.contains(key) {
            let list = allowed.dropLast().joined(separator: ", ") + " or " + (allowed.last ?? "")
            throw fail(path.isEmpty ? key : path + "." + key, "unknown field \"\(key)\"; expected \(allowed.count == 1 ? allowed[0] : list)")
        }
    }

    private static func bool(_ value: PlistValue, at path: String) throws -> Bool {
        guard case .bool(let b) = value else { throw fail(path, "is \(value.aTypeName), not true or false") }
        return b
    }

    private static func name(_ value: PlistValue, at path: String) throws -> String {
        guard case .string(let s) = value, !s.isEmpty else {
            throw fail(path, value.stringValue == nil ? "is \(value.aTypeName), not a name" : "is empty")
        }
        return s
    }

    /// A class name or key as one component of a path into the rules file,
    /// quoted when it holds a dot or a space.
    package static func pathComponent(_ key: String) -> String {
        key.contains(".") || key.contains(" ") ? "\"\(key)\"" : key
    }
}
