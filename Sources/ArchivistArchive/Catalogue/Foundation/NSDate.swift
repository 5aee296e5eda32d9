import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSDate`: seconds since 2001 in `NS.time`.
    static let nsDate = ClassDescription(
        ["NSDate"], framework: .foundation, fields: [.inline("NS.time", "real")],
        shape: .date, swiftType: "Date", bridge: .value, standsFor: .date,
        check: { p in
            switch p.object["NS.time"] {
            case .inline(.real)?, .inline(.integer)?: return []
            default: return ["NS.time is \(p.describe(p.object["NS.time"])), not a real (seconds since 2001)"]
            }
        },
        read: FoundationValue.date,
        examples: nsDateFoundationExamples
    )
}

extension FoundationValue {
    static func date(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        switch o["NS.time"] {
        case .inline(.real(let r))?: return .date(r.value)
        case .inline(.integer(let i))?: return .date(i.doubleValue)
        default: return nil
        }
    }
}

#if ARCHIVIST_EXAMPLES
private let nsDateFoundationExamples: [ClassExample] = [
    .foundation(shows: "2001-01-01T00:01:40Z") { NSDate(timeIntervalSinceReferenceDate: 100) },
]
#else
private let nsDateFoundationExamples: [ClassExample] = []
#endif
