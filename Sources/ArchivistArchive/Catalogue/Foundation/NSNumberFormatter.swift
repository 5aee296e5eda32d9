extension ClassDescription {
    /// `NSNumberFormatter`, known by name: Archivist reads no value from it (a formatter's settings),
    /// so it is shown, exported and checked by its fields.
    static let nsNumberFormatter = ClassDescription(["NSNumberFormatter"], chain: ["NSNumberFormatter", "NSFormatter", "NSObject"], framework: .foundation, secureCoding: .insecure)
}
