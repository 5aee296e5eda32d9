import ArchivistCore

extension ClassDescription {
    /// `NSFont`: `NSName` and `NSSize` (`NSfFlags`, AppKit's private flags word, is not shown).
    static let nsFont = ClassDescription(
        ["NSFont"], framework: .appKit,
        fields: [.reference("NSName", "string"), .inline("NSSize", "real"), .inline("NSfFlags", "integer", optional: true)],
        shape: .scalar, swiftType: "NSFont", secureCoding: .secureWhenNamed, read: AppKitValue.font,
        examples: [.shared("real-world/sparkle/en.lproj/SUUpdateAlert.nib/keyedobjects.nib", shows: "NSFont(")]
    )
}

extension AppKitValue {
    static func font(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard only(o, ["NSName", "NSSize"], optional: ["NSfFlags"]),
              let name = graph.string(o["NSName"]), let size = graph.number(o["NSSize"]).flatMap(double) else { return nil }
        return .described(AppKitValue(font: Font(name: name, size: size)).described)
    }
}
