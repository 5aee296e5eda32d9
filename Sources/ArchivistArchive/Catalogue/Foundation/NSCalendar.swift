extension ClassDescription {
    /// `NSCalendar`, known by name: Archivist reads no value from it (its identifier, time zone and locale),
    /// so it is shown, exported and checked by its fields.
    static let nsCalendar = ClassDescription(["NSCalendar"], framework: .foundation)
}
