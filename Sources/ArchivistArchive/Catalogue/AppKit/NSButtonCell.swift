import ArchivistCore

extension ClassDescription {
    /// `NSButtonCell`: captioned by its title (`NSContents`) and key
    /// equivalent (`NSKeyEquivalent`), its fields following (font, images,
    /// flags, control view): `NSButtonCell @112 "Install Update" key "\r" {`.
    static let nsButtonCell = ClassDescription(
        ["NSButtonCell"], chain: ["NSButtonCell", "NSActionCell", "NSCell", "NSObject"], framework: .appKit,
        fields: ClassField.cellFields + [
            .reference("NSKeyEquivalent", "string", optional: true), .reference("NSAlternateContents", "string", optional: true),
            .reference("NSNormalImage", optional: true), .reference("NSAlternateImage", optional: true),
            .inline("NSButtonFlags", "integer", optional: true), .inline("NSButtonFlags2", "integer", optional: true),
            .inline("NSPeriodicDelay", "integer", optional: true), .inline("NSPeriodicInterval", "integer", optional: true),
            .inline("NSAuxButtonType", "integer", optional: true), .inline("NSTag", "integer", optional: true)],
        shape: .scalar, swiftType: "NSButtonCell", secureCoding: .secureWhenNamed,
        read: { o, graph in ArchivedLine.cellTitle(o, in: graph, key: "NSKeyEquivalent") },
        examples: [
            .shared("real-world/sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "NSButtonCell @112 \"Install Update\" key \"\\r\" {"),
            .shared("real-world/sparkle/de.lproj/SUAutomaticUpdateAlert.nib/keyedobjects.nib", shows: "NSButtonCell"),
        ]
    )
}
