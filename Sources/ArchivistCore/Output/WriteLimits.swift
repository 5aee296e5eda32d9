extension Limits {
    /// The bounds of converting a value to a tree for a writer: none on depth,
    /// since a value is as deep as its maker allowed (readers apply their
    /// limits) and each writer bounds its own nesting (XML and binary at 512
    /// levels; JSON and OpenStep walk without recursion, as before).
    static let writing: Limits = {
        var limits = Limits()
        limits.maxDepth = .max
        return limits
    }()
}
