extension ClassDescription {
    /// `NSError`, known by name: Archivist reads no value from it (domain, code and user info),
    /// so it is shown, exported and checked by its fields.
    static let nsError = ClassDescription(["NSError"], framework: .foundation)
}
