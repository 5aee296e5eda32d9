extension ClassDescription {
    /// `NSRegularExpression`, known by name: Archivist reads no value from it (its pattern and options),
    /// so it is shown, exported and checked by its fields.
    static let nsRegularExpression = ClassDescription(["NSRegularExpression"], framework: .foundation)
}
