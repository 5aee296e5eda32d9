extension ClassDescription {
    /// `NSMeasurement`, known by name: Archivist reads no value from it (a value and a unit object),
    /// so it is shown, exported and checked by its fields.
    static let nsMeasurement = ClassDescription(["NSMeasurement"], framework: .foundation)
}
