import ArchivistCore

extension ClassDescription {
    /// `NSNibBindingConnector`: a Cocoa binding of a nib, `NSBinding` of
    /// `NSSource` bound to `NSKeyPath` of `NSDestination`, with `NSOptions`
    /// and, for a second binding of one name, `NSPreviousConnector`; shown as
    /// `binding value -> @2 (NSCustomObject) keyPath "titleText" from @87 (NSTextField)`.
    /// `NSLabel` repeats the binding and key path; `NSNibBindingConnectorVersion` is not shown.
    static let nsNibBindingConnector = ClassDescription(
        ["NSNibBindingConnector"], chain: ["NSNibBindingConnector", "NSNibConnector", "NSObject"], framework: .appKit,
        fields: [.reference("NSSource"), .reference("NSDestination"), .reference("NSLabel", "string"), .reference("NSBinding", "string"),
                 .reference("NSKeyPath", "string"), .inline("NSNibBindingConnectorVersion", "integer"),
                 .reference("NSOptions", "NSDictionary", optional: true), .reference("NSPreviousConnector", "NSNibBindingConnector", optional: true)],
        shape: .scalar, swiftType: "NSNibBindingConnector", secureCoding: .secureWhenNamed,
        read: { o, graph in ArchivedLine.connector(
            "binding", o, in: graph, optional: ["NSNibBindingConnectorVersion", "NSOptions", "NSPreviousConnector"]).map { .line($0) } },
        examples: [
            .shared("real-world/sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "binding value -> "),
            .shared("real-world/sparkle/SUStatus.nib/keyedobjects.nib", shows: " previous "),
        ]
    )
}
