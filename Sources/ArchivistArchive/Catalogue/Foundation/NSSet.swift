import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSSet` and `NSMutableSet`: the members in `NS.objects`.
    static let nsSet = ClassDescription(
        ["NSSet", "NSMutableSet"], framework: .foundation, fields: [.references("NS.objects")],
        shape: .sequence, swiftType: "Set<AnyHashable>", bridge: .set, typedstream: .list, check: { $0.sequence() },
        read: FoundationValue.list,
        examples: nsSetFoundationExamples
    )
}

#if ARCHIVIST_EXAMPLES
private let nsSetFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSSet [") { NSSet(array: [NSString(string: "a")]) },
]
#else
private let nsSetFoundationExamples: [ClassExample] = []
#endif
