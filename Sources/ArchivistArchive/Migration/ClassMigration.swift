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

    /// What happens to a field as read.
    enum FieldChange {
        case remove
        /// Kept; `box`: its inline primitive becomes a referenced number;
        /// `renameTo`: its new key.
        case keep(box: Bool, renameTo: String?)
    }

    /// What the rules do to a field with this key and value as read.
    func change(_ key: String, _ value: FieldValue) -> FieldChange {
        let keyRule = rule?.key(archivedAs: key)
        if keyRule?.remove == true { return .remove }
        var box = false
        if case .inline(let v) = value, SecureCodingCheck.isPrimitive(v) { box = keyRule?.box ?? boxesByDefault }
        var renameTo: String?
        if let newKey = keyRule?.renameTo, !PlistKeys.same(newKey, key) { renameTo = newKey }
        return .keep(box: box, renameTo: renameTo)
    }

    /// Whether a stored field value node is an inline primitive this key boxes
    /// (as `change` decides for the value made from it).
    func boxes(_ key: String, valueKind: PlistKind, isReference: Bool) -> Bool {
        guard !isReference else { return false }
        switch valueKind {
        case .integer, .real, .bool: break
        case .string, .date, .data, .array, .dictionary, .uid, .null: return false
        }
        let keyRule = rule?.key(archivedAs: key)
        if keyRule?.remove == true { return false }
        return keyRule?.box ?? boxesByDefault
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
