extension ClassDescription {
    /// `NSByteCountFormatter`, known by name: Archivist reads no value from it (a formatter's settings),
    /// so it is shown, exported and checked by its fields.
    static let nsByteCountFormatter = ClassDescription(["NSByteCountFormatter"], chain: ["NSByteCountFormatter", "NSFormatter", "NSObject"], framework: .foundation, secureCoding: .insecure)
}
