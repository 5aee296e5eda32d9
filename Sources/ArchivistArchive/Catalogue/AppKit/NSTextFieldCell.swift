import ArchivistCore

extension ClassDescription {
    /// `NSTextFieldCell`: captioned by its text (`NSContents`), its fields
    /// following (colours, font, flags, control view):
    /// `NSTextFieldCell @94 "Release Notes:" {`.
    static let nsTextFieldCell = ClassDescription(
        ["NSTextFieldCell"], chain: ["NSTextFieldCell", "NSActionCell", "NSCell", "NSObject"], framework: .appKit,
        fields: ClassField.cellFields + [
            .reference("NSTextColor", "NSColor", optional: true), .reference("NSBackgroundColor", "NSColor", optional: true),
            .inline("NSDrawsBackground", "bool", optional: true)],
        shape: .scalar, swiftType: "NSTextFieldCell", secureCoding: .secureWhenNamed,
        read: { o, graph in ArchivedLine.cellTitle(o, in: graph) },
        examples: [.shared("real-world/sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "NSTextFieldCell @94 \"Release Notes:\" {")]
    )
}
