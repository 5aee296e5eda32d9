extension ClassDescription {
    /// `NSController`, known by name: the root of AppKit's bindings controllers. An unlisted `NS` class whose
    /// chain reaches it is AppKit's (`NSTextField < NSControl < NSView < NSResponder`).
    static let nsController = ClassDescription(["NSController"], framework: .appKit, secureCoding: .secureWhenNamed)
}
