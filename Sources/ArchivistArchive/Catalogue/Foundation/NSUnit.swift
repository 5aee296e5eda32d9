extension ClassDescription {
    /// `NSUnit`, known by name: Archivist reads no value from it (a unit's symbol (its subclasses `NSUnitLength`, ... count as Foundation's too)),
    /// so it is shown, exported and checked by its fields.
    static let nsUnit = ClassDescription(["NSUnit"], framework: .foundation, family: .prefix("NSUnit"))
}
