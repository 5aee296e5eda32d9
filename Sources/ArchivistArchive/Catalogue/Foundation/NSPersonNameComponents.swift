extension ClassDescription {
    /// `NSPersonNameComponents`, known by name.
    static let nsPersonNameComponents = ClassDescription(["NSPersonNameComponents"], framework: .foundation)
}
