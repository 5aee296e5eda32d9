import ArchivistCore

extension ClassDescription {
    /// `NSNibConnector`, known by name: the root of a nib's connections
    /// (`NSNibOutletConnector`, `NSNibControlConnector`, `NSNibBindingConnector`),
    /// each read by ``ArchivedLine/connector(_:_:in:optional:)``.
    static let nsNibConnector = ClassDescription(["NSNibConnector"], framework: .appKit, secureCoding: .secureWhenNamed)
}

extension ArchivedLine {
    /// A connector's line: `TYPE LABEL -> DESTINATION [keyPath "..."] from SOURCE [options ...]`.
    /// `NSSource` and `NSLabel` are always written; `NSDestination` is
    /// absent for an action sent to the first responder. A binding connector
    /// names its binding and key path (its `NSLabel` repeats them as
    /// `binding: keyPath`, and `NSNibBindingConnectorVersion` is not shown).
    static func connector(_ type: String, _ o: ArchivedObject, in graph: ObjectGraph, optional: Set<String> = []) -> ArchivedLine? {
        let binding = type == "binding"
        let required: Set<String> = binding ? ["NSSource", "NSDestination", "NSLabel", "NSBinding", "NSKeyPath"] : ["NSSource", "NSLabel"]
        guard AppKitValue.only(o, required, optional: optional) else { return nil }
        var line = ArchivedLine("connector")
        line.add("type", .word(type))
        guard case .reference(let source)? = o["NSSource"], source != 0,
              let label = graph.string(o["NSLabel"]), let destination = optionalObject(o["NSDestination"]) else { return nil }
        if binding {
            guard let name = graph.string(o["NSBinding"]), let keyPath = graph.string(o["NSKeyPath"]) else { return nil }
            line.add("binding", .word(name))
            if let destination { line.add("destination", .object(destination), label: "->") }
            line.add("keyPath", .text(keyPath), label: "keyPath")
        } else {
            line.add("label", .word(label))
            line.add("destination", destination.map { .object($0) } ?? .word("first responder"), label: "->")
        }
        line.add("source", .object(source), label: "from")
        for (key, name) in [("NSOptions", "options"), ("NSPreviousConnector", "previous")] {
            guard let object = optionalObject(o[key]) else { return nil }
            if let object { line.add(name, .object(object), label: name) }
        }
        if o["NSChildControllerCreationSelectorName"].map({ $0 != .reference(0) }) == true { return nil }
        return line
    }
}
