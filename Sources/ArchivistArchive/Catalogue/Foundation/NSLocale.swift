import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSLocale`: its identifier in `NS.identifier`.
    static let nsLocale = ClassDescription(
        ["NSLocale"], framework: .foundation, fields: [.reference("NS.identifier", "string")],
        shape: .text, swiftType: "Locale", bridge: .value, check: { $0.string("NS.identifier") },
        read: FoundationValue.locale,
        examples: nsLocaleFoundationExamples
    )
}

extension FoundationValue {
    static func locale(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        graph.string(o["NS.identifier"]).map {
            .described(.text("locale", $0, lead: .className, shown: DumpText.quoted($0), entries: PlistDictionary([("identifier", .string($0))]),
                             exported: .dictionary(PlistDictionary([("identifier", .string($0))])), swiftType: "Locale"))
        }
    }
}

#if ARCHIVIST_EXAMPLES
private let nsLocaleFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSLocale \"fr_CH\"") { NSLocale(localeIdentifier: "fr_CH") },
]
#else
private let nsLocaleFoundationExamples: [ClassExample] = []
#endif
