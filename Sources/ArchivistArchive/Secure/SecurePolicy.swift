import ArchivistCore

/// What the new code's secure decoder accepts: the classes passed to
/// `unarchivedObject(ofClasses:from:)` (Foundation's secure classes and an
/// allowlist) and which inline primitives it reads with `decodeInteger`,
/// `decodeDouble` or `decodeBool` rather than `decodeObject(of:forKey:)`.
public struct SecurePolicy: Sendable {
    /// Foundation classes that adopt NSSecureCoding and are allowed without
    /// being named.
    public static let foundationSecureClasses: Set<String> = Set(
        ClassCatalogue.all.filter { $0.framework == .foundation && $0.secureCoding == .secure }.flatMap(\.names)
    )

    /// Classes allowed beyond Foundation's, in either spelling.
    public var allowedClasses: [String] {
        didSet { allowedIndex = ClassNameIndex(allowedClasses) }
    }
    /// The allowed classes, to check an object's class without a scan.
    private var allowedIndex: ClassNameIndex
    /// The migration rules the policy comes from, for per-key inline settings.
    package var rules: MigrationRules

    /// The policy a rules file describes.
    ///
    /// - Parameter rules: The rules whose allowlist and boxing settings apply.
    public init(rules: MigrationRules) {
        self.rules = rules
        self.allowedClasses = rules.allowedClasses
        self.allowedIndex = ClassNameIndex(rules.allowedClasses)
    }

    /// A policy from a plain allowlist: every inline primitive of a custom
    /// object must be boxed.
    ///
    /// - Parameter classes: The classes allowed beyond Foundation's, in
    ///   either spelling.
    public init(allowing classes: [String]) {
        self.rules = MigrationRules(allowedClasses: classes)
        self.allowedClasses = classes
        self.allowedIndex = ClassNameIndex(classes)
    }

    /// True when an object of this class (with its `$classes` chain) may be
    /// decoded: the class or a superclass is allowed, as Foundation checks it.
    /// `NSObject` allows everything only when named in the allowlist.
    ///
    /// - Parameters:
    ///   - name: The object's class.
    ///   - chain: Its class chain from `$classes`.
    /// - Returns: True when a secure decoder given this policy decodes it.
    public func allows(_ name: ClassName, chain: [String]) -> Bool {
        if Self.foundationSecureClasses.contains(name.archived) || allowedIndex.contains(name) { return true }
        for n in chain where n != name.archived {
            if Self.foundationSecureClasses.contains(n) || allowedIndex.contains(ClassName(archived: n)) { return true }
        }
        return false
    }

    /// True when the new code reads this inline primitive of a custom object
    /// as it is (its key's rule says `box: false`, or `boxPrimitives` is off
    /// and no rule says `box: true`).
    package func acceptsInline(key: String, of className: ClassName) -> Bool {
        if let box = rules.rule(for: className)?.key(key)?.box { return !box }
        return !rules.boxPrimitives
    }

    /// What `acceptsInline(key:of:)` answers for every key of a class no
    /// rule names (nil when a rule names it: each key is asked).
    package func acceptsEveryInline(of className: ClassName) -> Bool? {
        rules.rule(for: className) == nil ? !rules.boxPrimitives : nil
    }

    /// True when a class is one of Apple's frameworks' (`NS` or `UI` followed by
    /// a capital letter), whose own coding reads its inline fields: those are
    /// never boxed or reported.
    package static func isFrameworkClass(_ name: ClassName) -> Bool {
        let n = name.archived
        if FoundationClasses.isFoundation(n) { return true }
        guard n.hasPrefix("NS") || n.hasPrefix("UI"), n.utf8.count > 2 else { return false }
        let third = n.utf8[n.utf8.index(n.utf8.startIndex, offsetBy: 2)]
        return third >= UInt8(ascii: "A") && third <= UInt8(ascii: "Z")
    }
}
