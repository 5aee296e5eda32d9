import ArchivistCore

extension ClassDescription {
    /// `NSButtonImageSource`: an image by name in `NSImageName`.
    static let nsButtonImageSource = ClassDescription(
        ["NSButtonImageSource"], framework: .appKit, fields: [.reference("NSImageName", "string")],
        shape: .scalar, swiftType: "NSImage", secureCoding: .secureWhenNamed, read: AppKitValue.buttonImageSource,
        examples: [.shared("real-world/sparkle/Test_Application/English.lproj/MainMenu.nib/keyedobjects.nib", shows: "NSImage(named \"NSSwitch\")")]
    )
}

extension AppKitValue {
    static func buttonImageSource(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard only(o, ["NSImageName"]), let name = graph.string(o["NSImageName"]) else { return nil }
        return .described(AppKitValue(resource: Resource(className: "NSImage", name: name)).described)
    }
}
