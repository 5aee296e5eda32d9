import ArchivistCore

/// What migration rules do to every object of one class of an archive read:
/// its new name and chain, and for each field whether it is removed, boxed
/// or renamed. A graph keeps one per class (``ArchivedNodes``), not one
/// edited object per object, and makes each object's migrated node from the
/// archive's tree when it is read.
package final class ClassMigration: Sendable {
    /// The class as read.
    let oldName: ClassName
    /// The class as written (`oldName` when not renamed).
    let name: ClassName
    /// The chain as written: built once, shared by every object of the class.
    let chain: [String]
    /// The class's rule, when the rules name it.
    let rule: MigrationRules.ClassRule?
    /// Whether an inline primitive of a key without a `box` rule is boxed.
    let boxesByDefault: Bool

    /// The migration of a class, or nil when the rules change nothing in its objects.
    ///
    /// - Parameters:
    ///   - name: The class as read.
    ///   - chain: Its `$classes` as read.
    ///   - rules: The migration rules.
    init?(_ name: ClassName, chain: [String], rules: MigrationRules) {
        let rule = rules.rule(for: name)
        let boxes = !SecurePolicy.isFrameworkClass(name) && rules.boxPrimitives
        var newName = name
        if let renamed = rule?.renameTo, renamed != name.archived { newName = ClassName(archived: renamed) }
        let newChain = chain.map { entry in
            entry == name.archived ? newName.archived : (rules.rule(for: ClassName(archived: entry))?.renameTo ?? entry)
        }
        guard rule != nil || boxes || newChain != chain || newName.archived != name.archived else { return nil }
        oldName = name
        self.name = newName
        self.chain = newChain == chain ? chain : newChain
        self.rule = rule
        boxesByDefault = boxes
    }

    /// Whether the class is renamed.
    var renamesClass: Bool { name.archived != oldName.archived }

    /// Whether a key rule of the class renames a key (only then can two
    /// fields of a migrated object share a name).
    var renamesKeys: Bool { rule?.keys.contains { $0.renameTo != nil } ?? false }

    /// What happens to a field as read.
    enum FieldChange {
        case remove
        /// Kept; `box`: its inline primitive becomes a referenced number;
        /// `renameTo`: its new key.
        case keep(box: Bool, renameTo: String?)
    }

    /// What the rules do to a field with this key and value as read.
    func change(_ key: String, _ value: FieldValue) -> FieldChange {
        let byKey = keyChange(key)
        if byKey.remove { return .remove }
        var box = false
        if case .inline(let v) = value, SecureCodingCheck.isPrimitive(v) { box = byKey.boxesPrimitive }
        return .keep(box: box, renameTo: byKey.renameTo)
    }

    /// What the rules do to every field with a key, whatever its value: the
    /// part of `change` that depends on the key alone, for readers that
    /// decide once per key.
    struct KeyChange {
        /// The field is removed.
        var remove: Bool
        /// Its new key, when renamed.
        var renameTo: String?
        /// An inline primitive under this key is boxed.
        var boxesPrimitive: Bool
    }

    /// What the rules do to fields with this key as read.
    func keyChange(_ key: String) -> KeyChange {
        let keyRule = rule?.key(archivedAs: key)
        if keyRule?.remove == true { return KeyChange(remove: true, renameTo: nil, boxesPrimitive: false) }
        var renameTo: String?
        if let newKey = keyRule?.renameTo, !PlistKeys.same(newKey, key) { renameTo = newKey }
        return KeyChange(remove: false, renameTo: renameTo, boxesPrimitive: keyRule?.box ?? boxesByDefault)
    }

    /// Whether a stored field value node is an inline primitive this key boxes
    /// (as `change` decides for the value made from it).
    func boxes(_ key: String, valueKind: PlistKind, isReference: Bool) -> Bool {
        guard !isReference, Self.isPrimitive(valueKind) else { return false }
        return keyChange(key).boxesPrimitive
    }

    /// Integers, reals and booleans: what a class's migration may box.
    static func isPrimitive(_ kind: PlistKind) -> Bool {
        switch kind {
        case .integer, .real, .bool: return true
        case .string, .date, .data, .array, .dictionary, .uid, .null: return false
        }
    }

    /// An object of the class, migrated: its class renamed, fields removed,
    /// boxed (the k-th boxed field refers to `boxed(k)`) and renamed.
    func migrated(_ o: ArchivedObject, boxed: (Int) -> Int) -> ArchivedObject {
        var out = o
        out.className = name
        out.classChain = chain
        var fields: [Field] = []
        fields.reserveCapacity(o.fields.count)
        var k = 0
        for var field in o.fields {
            switch change(field.key, field.value) {
            case .remove:
                continue
            case .keep(let box, let renameTo):
                if box {
                    field.value = .reference(boxed(k))
                    k += 1
                }
                if let renameTo { field.key = renameTo }
                fields.append(field)
            }
        }
        out.fields = fields
        return out
    }

    /// Records in a report what `migrated` does to an object as read.
    func record(_ o: ArchivedObject, in report: inout MigrationReport, at path: String) {
        let old = oldName.archived
        for field in o.fields {
            switch change(field.key, field.value) {
            case .remove:
                report.record(.removeKey(className: old, key: field.key), in: path)
            case .keep(let box, let renameTo):
                if box { report.record(.box(className: old, key: field.key), in: path) }
                if let renameTo { report.record(.renameKey(className: old, from: field.key, to: renameTo), in: path) }
            }
        }
        if renamesClass { report.record(.renameClass(from: old, to: name.archived), in: path) }
    }
}
