import ArchivistCore

extension ClassDescription {
    /// `NSString` and `NSMutableString`: `NS.string`, or UTF-8 in `NS.bytes`.
    static let nsString = ClassDescription(
        ["NSString", "NSMutableString"], framework: .foundation,
        fields: [.inline("NS.string", "string", optional: true), .inline("NS.bytes", "data", optional: true)],
        shape: .text, swiftType: "String", bridge: .value, standsFor: .string, typedstream: .string,
        check: { p in
            if case .inline(.string)? = p.object["NS.string"] { return [] }
            if case .inline(.data)? = p.object["NS.bytes"] { return [] }
            return [p.object["NS.string"] == nil && p.object["NS.bytes"] == nil ? "has neither NS.string nor NS.bytes"
                : "NS.string is \(p.describe(p.object["NS.string"])), not a string"]
        },
        read: FoundationValue.string,
        examples: [
            // Foundation writes strings inline; objects of the class are older archives' and typedstreams'.
            .built("NSMutableString", [("NS.string", .string("héllo"))], shows: "\"héllo\""),
            .built("NSString", [("NS.bytes", .data(Array("bytes".utf8)))], shows: "\"bytes\""),
        ]
    )
}

extension FoundationValue {
    static func string(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        if case .inline(.string(let s))? = o["NS.string"] { return .string(s) }
        if case .inline(.data(let b))? = o["NS.bytes"] { return .string(String(decoding: b, as: UTF8.self)) }
        return nil
    }
}
