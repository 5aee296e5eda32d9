extension ClassDescription {
    /// `NSDateComponents`, known by name: Archivist reads no value from it (one field per component),
    /// so it is shown, exported and checked by its fields.
    static let nsDateComponents = ClassDescription(["NSDateComponents"], framework: .foundation)
}
