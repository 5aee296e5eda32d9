extension ClassDescription {
    /// `NSDateInterval`, known by name: Archivist reads no value from it (a start date and a duration),
    /// so it is shown, exported and checked by its fields.
    static let nsDateInterval = ClassDescription(["NSDateInterval"], framework: .foundation)
}
