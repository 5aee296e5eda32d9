extension ClassDescription {
    /// `NSNumber`, known by name: Archivist reads no value from it (keyed archives write numbers inline, so an NSNumber object is rare),
    /// so it is shown, exported and checked by its fields.
    static let nsNumber = ClassDescription(["NSNumber"], chain: ["NSNumber", "NSValue", "NSObject"], framework: .foundation, standsFor: .number, typedstream: .number)
}
