import ArchivistCore

extension ClassDescription {
    /// `NSMenuItem`: captioned by its title (`NSTitle`), key equivalent
    /// (`NSKeyEquiv`, with `NSKeyEquivModMask`'s modifiers), state (`NSIsSeparator`,
    /// `NSIsDisabled`), action (`NSAction`, written for a submenu's item as
    /// `submenuAction:`) and submenu's title (`NSSubmenu`'s `NSTitle`):
    /// `NSMenuItem "Quit" key ⌘ "q" {`, its fields following (its menu, images, tag).
    static let nsMenuItem = ClassDescription(
        ["NSMenuItem"], framework: .appKit,
        fields: [.reference("NSTitle", "string"), .reference("NSKeyEquiv", "string"), .inline("NSKeyEquivModMask", "integer", optional: true),
                 .inline("NSMnemonicLoc", "integer", optional: true), .reference("NSMenu", "NSMenu"),
                 .reference("NSOnImage", "NSCustomResource", optional: true), .reference("NSMixedImage", "NSCustomResource", optional: true),
                 .inline("NSIsSeparator", "bool", optional: true), .inline("NSIsDisabled", "bool", optional: true),
                 .inline("NSTag", "integer", optional: true), .reference("NSAction", "string", optional: true),
                 .reference("NSSubmenu", "NSMenu", optional: true)],
        shape: .scalar, swiftType: "NSMenuItem", secureCoding: .secureWhenNamed, read: ArchivedLine.menuItem,
        examples: [
            .shared("real-world/sparkle/Test_Application/English.lproj/MainMenu.nib/keyedobjects.nib", shows: "NSMenuItem @90 \"Bring All to Front\" {"),
            .shared("real-world/sparkle/Test_Application/English.lproj/MainMenu.nib/keyedobjects.nib", shows: "\"Minimize\" key ⌘ \"m\""),
            .shared("real-world/sparkle/Test_Application/English.lproj/MainMenu.nib/keyedobjects.nib",
                    shows: "\"Window\" action submenuAction: submenu \"Window\""),
            .shared("real-world/sparkle/Test_Application/English.lproj/MainMenu.nib/keyedobjects.nib", shows: "\"\" separator disabled {"),
        ]
    )
}

extension ArchivedLine {
    static func menuItem(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard let title = graph.string(o["NSTitle"]), let key = optionalString(o["NSKeyEquiv"], in: graph),
              let action = optionalString(o["NSAction"], in: graph), let submenu = optionalObject(o["NSSubmenu"]) else { return nil }
        var line = ArchivedLine("menuItem", captions: true)
        line.add("title", .text(title))
        if let key, !key.isEmpty {
            if case .inline(.integer(let mask))? = o["NSKeyEquivModMask"], let bits = mask.int64Value, bits != 0 {
                // Shift, control, option, command, as menus show them.
                var modifiers = ""
                for (bit, sign) in [(Int64(1) << 18, "⌃"), (1 << 19, "⌥"), (1 << 17, "⇧"), (1 << 20, "⌘")] where bits & bit != 0 { modifiers += sign }
                if !modifiers.isEmpty { line.add("modifiers", .word(modifiers), label: "key") }
                line.add("key", .text(key), label: modifiers.isEmpty ? "key" : nil)
            } else {
                line.add("key", .text(key), label: "key")
            }
        }
        if case .inline(.bool(true))? = o["NSIsSeparator"] { line.add("separator", .word("separator")) }
        if case .inline(.bool(true))? = o["NSIsDisabled"] { line.add("disabled", .word("disabled")) }
        if let action { line.add("action", .word(action), label: "action") }
        if let submenu, let menu = graph.object(submenu) {
            guard let name = optionalString(menu["NSTitle"], in: graph) else { return nil }
            line.add("submenu", .text(name ?? ""), label: "submenu")
        }
        return .line(line)
    }
}
