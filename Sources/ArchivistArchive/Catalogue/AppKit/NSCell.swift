extension ClassDescription {
    /// `NSCell`, known by name: the root of AppKit's cells. An unlisted `NS` class whose
    /// chain reaches it is AppKit's (`NSTextField < NSControl < NSView < NSResponder`).
    static let nsCell = ClassDescription(["NSCell"], framework: .appKit, secureCoding: .secureWhenNamed)
}
