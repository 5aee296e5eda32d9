extension ClassDescription {
    /// `NSResponder`, known by name: the root of AppKit's views, windows and controllers. An unlisted `NS` class whose
    /// chain reaches it is AppKit's (`NSTextField < NSControl < NSView < NSResponder`).
    static let nsResponder = ClassDescription(["NSResponder"], framework: .appKit, secureCoding: .secureWhenNamed)
}
