import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSData` and `NSMutableData`: the bytes in `NS.data` or `NS.bytes`.
    static let nsData = ClassDescription(
        ["NSData", "NSMutableData"], framework: .foundation,
        fields: [.inline("NS.data", "data", optional: true), .inline("NS.bytes", "data", optional: true)],
        shape: .bytes, swiftType: "Data", bridge: .value, standsFor: .data, typedstream: .data,
        check: { p in
            if case .inline(.data)? = p.object["NS.data"] ?? p.object["NS.bytes"] { return [] }
            return ["NS.data is \(p.describe(p.object["NS.data"] ?? p.object["NS.bytes"])), not data"]
        },
        read: FoundationValue.data,
        examples: nsDataFoundationExamples
    )
}

extension FoundationValue {
    static func data(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        if case .inline(.data(let b))? = o["NS.data"] ?? o["NS.bytes"] { return .data(b) }
        return nil
    }
}

#if ARCHIVIST_EXAMPLES
private let nsDataFoundationExamples: [ClassExample] = [
    .foundation(shows: "<data 3 bytes 0x010203>") { NSMutableData(bytes: [1, 2, 3] as [UInt8], length: 3) },
]
#else
private let nsDataFoundationExamples: [ClassExample] = []
#endif
