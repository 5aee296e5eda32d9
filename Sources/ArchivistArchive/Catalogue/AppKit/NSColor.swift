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
        read: { o, graph in ArchivedColor(o, in: graph).map { .appKit(AppKitValue(color: $0)) } },
        examples: [
            .shared("real-world/sparkle/Sources/Sparkle/Base.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "NSColor(calibratedWhite"),
        ]
    )
}
