import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSURL`: the relative string in `NS.relative`, the base URL in `NS.base` (`$null` for none).
    static let nsURL = ClassDescription(
        ["NSURL"], framework: .foundation, fields: [.reference("NS.base", "NSURL"), .reference("NS.relative", "string")],
        shape: .reference, swiftType: "URL", bridge: .value, standsFor: .url, typedstream: .url,
        check: { p in
            var found: [String] = []
            if p.graph.string(p.object["NS.relative"]) == nil || !p.isReference(p.object["NS.relative"]) {
                found.append("NS.relative is \(p.describe(p.object["NS.relative"])), not a reference to a string")
            }
            if let base = p.object["NS.base"], !p.isReference(base) {
                found.append("NS.base is \(p.describe(base)), not a reference")
            }
            return found
        },
        read: FoundationValue.url,
        examples: nsURLFoundationExamples
    )
}

extension FoundationValue {
    static func url(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        var base: Int?, relative: Int?
        if case .reference(let r)? = o["NS.base"], r != 0 { base = r }
        if case .reference(let r)? = o["NS.relative"], r != 0 { relative = r }
        return .url(base: base, relative: relative)
    }
}

#if ARCHIVIST_EXAMPLES
private let nsURLFoundationExamples: [ClassExample] = [
    .foundation(shows: "URL \"https://example.com/a\"") { NSURL(string: "https://example.com/a") ?? NSURL(fileURLWithPath: "/") },
]
#else
private let nsURLFoundationExamples: [ClassExample] = []
#endif
