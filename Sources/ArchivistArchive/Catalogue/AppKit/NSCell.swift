import ArchivistCore

extension ClassDescription {
    /// `NSCell`, known by name: the root of AppKit's cells. An unlisted `NS` class whose
    /// chain reaches it is AppKit's (`NSTextField < NSControl < NSView < NSResponder`).
    /// Its cells with a title (`NSButtonCell`, `NSTextFieldCell`) are captioned
    /// by it (``ArchivedLine/cellTitle(_:in:key:)``).
    static let nsCell = ClassDescription(["NSCell"], framework: .appKit, secureCoding: .secureWhenNamed)
}

extension ClassField {
    /// The fields every `NSCell` writes: its flags, contents, font (`NSSupport`) and control view.
    static let cellFields: [ClassField] = [
        .inline("NSCellFlags", "integer"), .inline("NSCellFlags2", "integer"), .reference("NSContents", "string", optional: true),
        .reference("NSSupport", "NSFont", optional: true), .reference("NSControlView", optional: true),
        .inline("NSControlSize2", "integer", optional: true),
    ]
}

extension ArchivedLine {
    /// A cell's caption: its title (`NSContents`, a string or an attributed
    /// string's text) and, when `key` names it and it is not empty, its key
    /// equivalent. A cell whose contents are not text (an image) is not captioned.
    static func cellTitle(_ o: ArchivedObject, in graph: ObjectGraph, key: String? = nil) -> FoundationValue? {
        var title = graph.string(o["NSContents"])
        if title == nil, case .reference(let r)? = o["NSContents"], let contents = graph.object(r),
           case .attributedString(let a)? = FoundationValue.interpret(contents, in: graph) {
            title = a.text
        }
        guard let title else { return nil }
        var line = ArchivedLine("cell", captions: true)
        line.add("title", .text(title))
        if let key, case .some(let equivalent?) = optionalString(o[key], in: graph), !equivalent.isEmpty {
            line.add("keyEquivalent", .text(equivalent), label: "key")
        }
        return .line(line)
    }
}
