import ArchivistCore

extension ClassDescription {
    /// `NSNibOutletConnector`: an outlet of a nib, `NSLabel` of `NSSource` set
    /// to `NSDestination`, shown as `outlet delegate -> @2 (NSCustomObject) from @65 (NSWindowTemplate)`.
    /// Newer nibs add `NSChildControllerCreationSelectorName` (nil).
    static let nsNibOutletConnector = ClassDescription(
        ["NSNibOutletConnector"], chain: ["NSNibOutletConnector", "NSNibConnector", "NSObject"], framework: .appKit,
        fields: [.reference("NSSource"), .reference("NSDestination"), .reference("NSLabel", "string"),
                 .reference("NSChildControllerCreationSelectorName", optional: true)],
        shape: .scalar, swiftType: "NSNibOutletConnector", secureCoding: .secureWhenNamed,
        read: { o, graph in ArchivedLine.connector("outlet", o, in: graph, optional: ["NSDestination", "NSChildControllerCreationSelectorName"]).map { .line($0) } },
        examples: [
            .shared("real-world/sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "outlet delegate -> "),
            .shared("real-world/sparkle/Sources/Sparkle/Autoupdate.app/Contents/Resources/SUStatus.nib", shows: "outlet "),
        ]
    )
}
