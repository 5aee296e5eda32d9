import ArchivistCore

/// A reason a secure decoder would refuse an archive.
public struct SecureCodingViolation: Sendable, Equatable {
    /// What is wrong.
    public enum Problem: Sendable, Equatable {
        /// Neither the object's class nor a class of its chain is allowed.
        case classNotAllowed
        /// A custom object holds a primitive inline where the new code calls
        /// `decodeObject(of:forKey:)`: "Object 3.5 is not a reference".
        case inlinePrimitive(key: String, value: PlistValue)
    }

    /// What is wrong.
    public var problem: Problem
    /// The object's class.
    public var className: ClassName
    /// The object's `$objects` index.
    public var object: Int
    /// The key path from `$top` to the object (and the key, for a primitive).
    public var keyPath: String

    /// The violation as a located error.
    public var error: PlistError {
        switch problem {
        case .classNotAllowed:
            return PlistError(.archive, "class \(className) is not allowed by a secure decoder; add it to the allowed classes",
                              at: .archive(object: object, keyPath: keyPath))
        case .inlinePrimitive(let key, let value):
            return PlistError(.archive, "\(key) of \(className) holds the \(value.typeName) \(DumpText.scalar(value)) inline, which decodeObject(of:forKey:) cannot read; box it into an NSNumber",
                              at: .archive(object: object, keyPath: keyPath))
        }
    }
}

/// Checks an object graph against a secure-coding policy without decoding it:
/// every object reachable from `$top` must be of an allowed class, and no
/// custom object may hold an inline primitive that the policy wants boxed.
public enum SecureCodingCheck {
    /// Every violation of the objects reachable from `$top`, in `$objects` order.
    ///
    /// - Parameters:
    ///   - graph: The archive's object graph.
    ///   - policy: What the secure decoder is given.
    /// - Returns: Each violation, located.
    public static func violations(in graph: ObjectGraph, policy: SecurePolicy) -> [SecureCodingViolation] {
        var found: [SecureCodingViolation] = []
        forEachViolation(in: ArchiveCheckWalk(graph), policy: policy) { found.append($0) }
        return found
    }

    /// `violations(in:policy:)`, each handed to `body` as it is found: one
    /// visit of each reached object, its class judged once per class, its
    /// fields read from the archive's tree (no node made) and a key path made
    /// only for a violation.
    static func forEachViolation(in walk: ArchiveCheckWalk, policy: SecurePolicy,
                                 _ body: (SecureCodingViolation) throws -> Void) rethrows {
        let graph = walk.graph
        // The verdict on the last class met, and on every class by the index
        // of its class dictionary (a migrated class's under its new name).
        var verdicts: [UInt32: ClassVerdict] = [:]
        var last: (c: UInt32, verdict: ClassVerdict)?
        var visited = 0
        defer { WorkCounter.note(.secureObjectVisit, times: visited) }
        for index in graph.nodes.indices where walk.reached[index] {
            // An object as read, or as a class migration lays over it: both read from the tree.
            let read: (ArchiveStorage, ClassMigration?)? = graph.nodes.unedited(index).map { ($0, nil) }
                ?? graph.nodes.migratedObject(index).map { ($0.0, $0.1) }
            guard let (storage, migration) = read else {
                guard case .object(let o) = graph.nodes[index] else { continue }
                visited += 1
                try check(o, at: index, walk: walk, policy: policy, body)
                continue
            }
            guard let c = storage.classOf(index), let info = storage.classInfo[c] else { continue }
            visited += 1
            let className = migration?.name ?? info.name
            let verdict: ClassVerdict
            if let last, last.c == c {
                verdict = last.verdict
            } else if let known = verdicts[c] {
                verdict = known
            } else {
                verdict = ClassVerdict(className, chain: migration?.chain ?? info.chain, policy: policy)
                verdicts[c] = verdict
            }
            last = (c, verdict)
            if !verdict.allowed {
                try body(SecureCodingViolation(problem: .classNotAllowed, className: className, object: index, keyPath: walk.path(to: index)))
            }
            // No inline field to report when the policy takes every one of the class's.
            guard !verdict.framework, verdict.acceptsEveryInline != true else { continue }
            let tree = storage.tree
            let node = Int(storage.objects[index])
            for i in 0..<tree.count(of: node) {
                let (key, value) = tree.entry(i, of: node)
                guard ClassMigration.isPrimitive(tree.kind(of: value)), !storage.isClassKey(key) else { continue }
                var name = tree.string(at: key) ?? ""
                if let migration {
                    // Removed and boxed fields hold no inline primitive once migrated.
                    let change = migration.keyChange(name)
                    if change.remove || change.boxesPrimitive { continue }
                    if let renamed = change.renameTo { name = renamed }
                }
                if verdict.acceptsEveryInline == nil, policy.acceptsInline(key: name, of: className) { continue }
                try body(SecureCodingViolation(problem: .inlinePrimitive(key: name, value: tree.value(at: value)), className: className,
                                               object: index, keyPath: ArchivePaths.joined(walk.path(to: index), name)))
            }
        }
    }

    /// What a policy makes of a class, worked out once per class.
    private struct ClassVerdict {
        /// A secure decoder given the policy decodes its objects.
        var allowed: Bool
        /// One of Apple's frameworks' classes: its inline fields are never reported.
        var framework: Bool
        /// True or false when the policy takes every inline primitive of the
        /// class alike (no rule names it); nil when each key is asked.
        var acceptsEveryInline: Bool?

        init(_ name: ClassName, chain: [String], policy: SecurePolicy) {
            allowed = policy.allows(name, chain: chain)
            framework = SecurePolicy.isFrameworkClass(name)
            acceptsEveryInline = policy.acceptsEveryInline(of: name)
        }
    }

    /// The violations of one object made by an edit (not read from the archive's tree).
    private static func check(_ o: ArchivedObject, at index: Int, walk: ArchiveCheckWalk, policy: SecurePolicy,
                              _ body: (SecureCodingViolation) throws -> Void) rethrows {
        if !policy.allows(o.className, chain: o.classChain) {
            try body(SecureCodingViolation(problem: .classNotAllowed, className: o.className, object: index, keyPath: walk.path(to: index)))
        }
        guard !SecurePolicy.isFrameworkClass(o.className) else { return }
        for field in o.fields {
            guard case .inline(let v) = field.value, isPrimitive(v), !policy.acceptsInline(key: field.key, of: o.className) else { continue }
            try body(SecureCodingViolation(problem: .inlinePrimitive(key: field.key, value: v), className: o.className,
                                           object: index, keyPath: ArchivePaths.joined(walk.path(to: index), field.key)))
        }
    }

    /// Every violation in a tree: a keyed archive, and archives nested in its
    /// `<data>` values or in those of a plain property list (followed 8
    /// levels deep, as every command follows them). A nested archive's errors carry the
    /// key path of the data holding it (`currentUser.root.age`, as `get` takes
    /// it). Typedstreams are left out: NSUnarchiver reads them, not a secure
    /// decoder. Throws when an archive is broken.
    ///
    /// - Parameters:
    ///   - tree: A document's tree.
    ///   - policy: What the secure decoder is given.
    /// - Returns: Each violation as a located error.
    /// - Throws: `PlistError` when an archive is broken.
    public static func errors(in tree: PlistTree, policy: SecurePolicy) throws -> [PlistError] {
        var out: [PlistError] = []
        try NestedArchiveWalk.archives(in: tree, broken: .fail) { archive in
            guard archive.kind != .typedstream else { return }
            forEachViolation(in: ArchiveCheckWalk(archive.graph), policy: policy) { violation in
                out.append(NestedDocuments.relocated(violation.error, under: archive.keyPath))
            }
        }
        return out
    }

    /// Integers, reals and booleans: what `encode(_: Int/Float/Double/Bool, forKey:)` writes inline.
    static func isPrimitive(_ value: PlistValue) -> Bool {
        switch value {
        case .integer, .real, .bool: return true
        case .string, .date, .data, .array, .dictionary, .uid, .null: return false
        }
    }
}
