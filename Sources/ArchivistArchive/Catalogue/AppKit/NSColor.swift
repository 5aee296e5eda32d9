import ArchivistCore

extension ClassDescription {
    /// `NSColor`, in each form AppKit archives it (``ArchivedColor``): a
    /// numbered colour space's components, a catalog colour, or components
    /// in an archived `NSColorSpace`.
    static let nsColor = ClassDescription(
        ["NSColor"], framework: .appKit,
        fields: [.inline("NSColorSpace", "integer"), .inline("NSRGB", "data", optional: true), .inline("NSWhite", "data", optional: true),
                 .inline("NSCMYK", "data", optional: true), .reference("NSCatalogName", "string", optional: true),
                 .reference("NSColorName", "string", optional: true), .reference("NSColor", "NSColor", optional: true),
                 .inline("NSComponents", "data", optional: true), .reference("NSCustomColorSpace", "NSColorSpace", optional: true)],
        shape: .scalar, swiftType: "NSColor", secureCoding: .secureWhenNamed,
        read: { o, graph in ArchivedColor(o, in: graph).map { .described(AppKitValue(color: $0).described) } },
        examples: [
            .shared("real-world/sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "NSColor(calibratedWhite 0 0.80000001)"),
            .shared("real-world/sparkle/Sources/Sparkle/Autoupdate.app/Contents/Resources/SUStatus.nib",
                    shows: "NSColor(custom \"Generic Gray Gamma 2.2 Profile\""),
            // A Terminal profile's colour: the component string alone (`NSWhite` "0\0",
            // 2 bytes), its predefined space named by `NSID` in `NSCustomColorSpace`.
            .built("NSColor", [("NSColorSpace", .int(3)), ("NSWhite", .data([0x30, 0])), ("NSCustomColorSpace", .uid(2))],
                   extra: [.dictionary(PlistDictionary([("NSID", .int(9)), ("$class", .uid(4))]))], classes: [["NSColorSpace", "NSObject"]],
                   shows: "NSColor(calibratedWhite 0 1)"),
        ]
    )
}
