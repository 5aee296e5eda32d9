extension ClassDescription {
    /// `NSISO8601DateFormatter`, known by name: Archivist reads no value from it (a formatter's settings),
    /// so it is shown, exported and checked by its fields.
    static let nsISO8601DateFormatter = ClassDescription(["NSISO8601DateFormatter"], chain: ["NSISO8601DateFormatter", "NSFormatter", "NSObject"], framework: .foundation, secureCoding: .insecure)
}
