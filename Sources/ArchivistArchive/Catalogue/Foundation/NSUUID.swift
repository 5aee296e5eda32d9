import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSUUID`: 16 bytes in `NS.uuidbytes`.
    static let nsUUID = ClassDescription(
        ["NSUUID"], framework: .foundation, fields: [.inline("NS.uuidbytes", "data")],
        shape: .text, swiftType: "UUID", bridge: .value, standsFor: .uuid,
        check: { p in
            if case .inline(.data(let bytes))? = p.object["NS.uuidbytes"] {
                return bytes.count == 16 ? [] : ["NS.uuidbytes holds \(bytes.count) bytes, not 16"]
            }
            return ["NS.uuidbytes is \(p.describe(p.object["NS.uuidbytes"])), not 16 bytes of data"]
        },
        read: FoundationValue.uuid,
        examples: nsUUIDFoundationExamples
    )
}

extension FoundationValue {
    static func uuid(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard case .inline(.data(let b))? = o["NS.uuidbytes"], b.count == 16 else { return nil }
        let s = uuidString(b)
        return .described(.text("uuid", s, lead: .word("UUID"), shown: s, entries: PlistDictionary([("uuid", .string(s))]),
                                exported: .string(s), swiftType: "UUID"))
    }
}

#if ARCHIVIST_EXAMPLES
private let nsUUIDFoundationExamples: [ClassExample] = [
    .foundation(shows: "UUID 0F3E2A1C-7B5D-4E8F-9A6B-1C2D3E4F5A6B") {
        NSUUID(uuidString: "0F3E2A1C-7B5D-4E8F-9A6B-1C2D3E4F5A6B") ?? NSUUID()
    },
]
#else
private let nsUUIDFoundationExamples: [ClassExample] = []
#endif
