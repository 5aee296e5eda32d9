import ArchivistCore

extension ClassDescription {
    /// `NSNibControlConnector`: an action of a nib, `NSLabel` sent by
    /// `NSSource` to `NSDestination` (absent: the first responder), shown as
    /// `action installUpdate: -> @2 (NSCustomObject) from @110 (NSButton)`.
    static let nsNibControlConnector = ClassDescription(
        ["NSNibControlConnector"], chain: ["NSNibControlConnector", "NSNibConnector", "NSObject"], framework: .appKit,
        fields: [.reference("NSSource"), .reference("NSDestination", optional: true), .reference("NSLabel", "string")],
        shape: .scalar, swiftType: "NSNibControlConnector", secureCoding: .secureWhenNamed,
        read: { o, graph in ArchivedLine.connector("action", o, in: graph, optional: ["NSDestination"]).map { .line($0) } },
        examples: [
            .shared("real-world/sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "action installUpdate: -> "),
            .shared("real-world/sparkle/Test_Application/English.lproj/MainMenu.nib/keyedobjects.nib",
                    shows: "action print: -> first responder from "),
        ]
    )
}
