extension ClassDescription {
    /// `NSDateIntervalFormatter`, known by name: Archivist reads no value from it (a formatter's settings),
    /// so it is shown, exported and checked by its fields.
    static let nsDateIntervalFormatter = ClassDescription(["NSDateIntervalFormatter"], chain: ["NSDateIntervalFormatter", "NSFormatter", "NSObject"], framework: .foundation, secureCoding: .insecure)
}
