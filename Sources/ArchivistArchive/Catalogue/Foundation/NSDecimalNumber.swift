extension ClassDescription {
    /// `NSDecimalNumber`, known by name: Archivist reads no value from it (its mantissa and exponent fields are shown as they are),
    /// so it is shown, exported and checked by its fields.
    static let nsDecimalNumber = ClassDescription(["NSDecimalNumber"], chain: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"], framework: .foundation)
}
