extension ClassDescription {
    /// `NSObject`, known by name: Archivist reads no value from it (the root class: an object of it holds nothing),
    /// so it is shown, exported and checked by its fields.
    static let nsObject = ClassDescription(["NSObject"], chain: ["NSObject"], framework: .foundation, secureCoding: .insecure)
}
