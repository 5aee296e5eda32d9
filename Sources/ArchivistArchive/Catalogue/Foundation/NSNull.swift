import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSNull`: no fields.
    static let nsNull = ClassDescription(
        ["NSNull"], framework: .foundation, shape: .null, swiftType: "NSNull", read: { _, _ in .null },
        examples: nsNullFoundationExamples
    )
}

#if ARCHIVIST_EXAMPLES
private let nsNullFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSNull") { NSNull() },
]
#else
private let nsNullFoundationExamples: [ClassExample] = []
#endif
