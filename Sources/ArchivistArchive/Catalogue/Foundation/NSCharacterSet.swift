extension ClassDescription {
    /// `NSCharacterSet`, known by name: Archivist reads no value from it (a bitmap or a built-in set's number),
    /// so it is shown, exported and checked by its fields.
    static let nsCharacterSet = ClassDescription(["NSCharacterSet", "NSMutableCharacterSet"], framework: .foundation)
}
