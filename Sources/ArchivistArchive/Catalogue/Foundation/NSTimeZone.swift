import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSTimeZone`: its name in `NS.name` (Foundation adds the zone's data in `NS.data`).
    static let nsTimeZone = ClassDescription(
        ["NSTimeZone"], framework: .foundation, fields: [.reference("NS.name", "string"), .reference("NS.data", "data", optional: true)],
        shape: .text, swiftType: "TimeZone", bridge: .value, check: { $0.string("NS.name") },
        read: FoundationValue.timeZone,
        examples: nsTimeZoneFoundationExamples
    )
}

extension FoundationValue {
    static func timeZone(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        graph.string(o["NS.name"]).map {
            .described(.text("timeZone", $0, lead: .className, shown: DumpText.quoted($0), entries: PlistDictionary([("name", .string($0))]),
                             exported: .dictionary(PlistDictionary([("identifier", .string($0))])), swiftType: "TimeZone"))
        }
    }
}

#if ARCHIVIST_EXAMPLES
private let nsTimeZoneFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSTimeZone \"Europe/Zurich\"") { NSTimeZone(name: "Europe/Zurich") ?? NSTimeZone.default as NSTimeZone },
]
#else
private let nsTimeZoneFoundationExamples: [ClassExample] = []
#endif
