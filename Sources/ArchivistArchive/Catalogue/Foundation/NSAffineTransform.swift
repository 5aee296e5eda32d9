extension ClassDescription {
    /// `NSAffineTransform`, known by name: Archivist reads no value from it (the six matrix entries),
    /// so it is shown, exported and checked by its fields.
    static let nsAffineTransform = ClassDescription(["NSAffineTransform"], framework: .foundation)
}
