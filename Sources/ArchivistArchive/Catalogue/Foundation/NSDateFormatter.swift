extension ClassDescription {
    /// `NSDateFormatter`, known by name: Archivist reads no value from it (a formatter's settings),
    /// so it is shown, exported and checked by its fields.
    static let nsDateFormatter = ClassDescription(["NSDateFormatter"], chain: ["NSDateFormatter", "NSFormatter", "NSObject"], framework: .foundation, secureCoding: .insecure)
}
