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
        let paths = graph.paths()
        var found: [SecureCodingViolation] = []
        for index in graph.nodes.indices where paths.isReached(index) {
            guard case .object(let o) = graph.nodes[index] else { continue }
            if !policy.allows(o.className, chain: o.classChain) {
                found.append(SecureCodingViolation(problem: .classNotAllowed, className: o.className, object: index,
                                                   keyPath: paths.path(to: index) ?? ""))
            }
            guard !SecurePolicy.isFrameworkClass(o.className) else { continue }
            for field in o.fields {
                guard case .inline(let v) = field.value, isPrimitive(v), !policy.acceptsInline(key: field.key, of: o.className) else { continue }
                let base = paths.path(to: index) ?? ""
                found.append(SecureCodingViolation(problem: .inlinePrimitive(key: field.key, value: v), className: o.className,
                                                   object: index, keyPath: ArchivePaths.joined(base, field.key)))
            }
        }
        return found
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
            for violation in violations(in: archive.graph, policy: policy) {
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
