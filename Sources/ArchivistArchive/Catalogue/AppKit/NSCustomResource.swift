import ArchivistCore

extension ClassDescription {
    /// `NSCustomResource`, a resource named in a nib (`NSClassName`,
    /// `NSResourceName`), e.g. an `NSImage` by name. Newer nibs add Interface
    /// Builder's `IBNamespaceID` ("system") and `IBDesignSize` (an NSValue
    /// size), with `IBDesignImageConfiguration` nil
    /// (`sparkle/Sources/Sparkle/Autoupdate.app/Contents/Resources/SUStatus.nib`).
    static let nsCustomResource = ClassDescription(
        ["NSCustomResource"], framework: .appKit,
        fields: [.reference("NSClassName", "string"), .reference("NSResourceName", "string"),
                 .reference("IBNamespaceID", "string", optional: true), .reference("IBDesignSize", "NSValue", optional: true),
                 .reference("IBDesignImageConfiguration", optional: true)],
        shape: .scalar, swiftType: "NSImage", secureCoding: .secureWhenNamed, read: AppKitValue.customResource,
        examples: [.shared("real-world/sparkle/Sources/Sparkle/Autoupdate.app/Contents/Resources/SUStatus.nib",
                           shows: "NSImage(named \"NSApplicationIcon\" in system design size {32, 32})")]
    )
}

extension AppKitValue {
    static func customResource(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard only(o, ["NSClassName", "NSResourceName"], optional: ["IBNamespaceID", "IBDesignSize", "IBDesignImageConfiguration"]),
              let className = graph.string(o["NSClassName"]), let name = graph.string(o["NSResourceName"]) else { return nil }
        if let configuration = o["IBDesignImageConfiguration"], configuration != .reference(0) { return nil }
        var namespace: String?, designSize: String?
        if let field = o["IBNamespaceID"] {
            guard let s = graph.string(field) else { return nil }
            namespace = s
        }
        if case .reference(let r)? = o["IBDesignSize"] {
            guard let value = graph.object(r), ClassDescription.nsValue.names.contains(value.className.archived),
                  case .size(let s)? = NSValueGeometry(value, in: graph) else { return nil }
            designSize = s
        } else if o["IBDesignSize"] != nil {
            return nil
        }
        return .described(AppKitValue(resource: Resource(className: className, name: name, namespace: namespace, designSize: designSize)).described)
    }
}
