import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSPersonNameComponents`: the name's parts, each a string or nil
    /// (`NS.namePrefix`, `NS.givenName`, `NS.middleName`, `NS.familyName`,
    /// `NS.nameSuffix`, `NS.nickname`; swift-corelibs-foundation writes all six),
    /// and Apple's phonetic representation (another name, `NS.phoneticRepresentation`):
    /// `NSPersonNameComponents prefix "Lady" given "Ada" family "Lovelace"`.
    static let nsPersonNameComponents = ClassDescription(
        ["NSPersonNameComponents"], framework: .foundation,
        fields: ArchivedLine.nameParts.map { .reference($0.key, "string", optional: true) }
            + [.reference("NS.phoneticRepresentation", "NSPersonNameComponents", optional: true)],
        shape: .scalar, swiftType: "PersonNameComponents", read: ArchivedLine.personName,
        examples: nsPersonNameComponentsFoundationExamples + [
            .built("NSPersonNameComponents", [("NS.givenName", .uid(2)), ("NS.phoneticRepresentation", .uid(3))],
                   extra: [.string("太郎"), .dictionary(PlistDictionary([("NS.givenName", .uid(4)), ("$class", .uid(5))])), .string("Tarō")],
                   shows: "NSPersonNameComponents given \"太郎\" phonetic NSPersonNameComponents given \"Tarō\""),
        ]
    )
}

extension ArchivedLine {
    /// The string parts of a person's name, by key, with the word `dump` shows before each.
    static let nameParts: [(key: String, word: String)] = [
        ("NS.namePrefix", "prefix"), ("NS.givenName", "given"), ("NS.middleName", "middle"),
        ("NS.familyName", "family"), ("NS.nameSuffix", "suffix"), ("NS.nickname", "nickname"),
    ]

    static func personName(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard AppKitValue.only(o, [], optional: Set(nameParts.map(\.key) + ["NS.phoneticRepresentation"])) else { return nil }
        var line = ArchivedLine("name")
        for part in nameParts {
            guard let value = optionalString(o[part.key], in: graph) else { return nil }
            if let value { line.add(String(part.key.dropFirst(3)), .text(value), label: part.word) }
        }
        guard let phonetic = optionalObject(o["NS.phoneticRepresentation"]) else { return nil }
        if let phonetic { line.add("phoneticRepresentation", .object(phonetic), label: "phonetic") }
        return .line(line)
    }
}

#if ARCHIVIST_EXAMPLES
private let nsPersonNameComponentsFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSPersonNameComponents prefix \"Lady\" given \"Ada\" family \"Lovelace\" nickname \"A\"") {
        let name = NSPersonNameComponents()
        name.namePrefix = "Lady"
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        name.nickname = "A"
        return name
    },
]
#else
private let nsPersonNameComponentsFoundationExamples: [ClassExample] = []
#endif
