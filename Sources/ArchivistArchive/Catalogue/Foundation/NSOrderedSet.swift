import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSOrderedSet` and `NSMutableOrderedSet`: the members in `NS.objects`
    /// (Apple's Foundation), or in `NS.object.0`, `NS.object.1`, ... (swift-corelibs-foundation).
    static let nsOrderedSet = ClassDescription(
        ["NSOrderedSet", "NSMutableOrderedSet"], framework: .foundation,
        fields: [.references("NS.objects", optional: true), .numbered("NS.object.")],
        shape: .sequence, swiftType: "[Any]",
        check: { $0.sequence(numbered: true) }, read: FoundationValue.list,
        examples: nsOrderedSetFoundationExamples
    )
}

#if ARCHIVIST_EXAMPLES
private let nsOrderedSetFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSOrderedSet [\n  \"x\"\n  \"y\"\n]") { NSOrderedSet(array: [NSString(string: "x"), NSString(string: "y")]) },
]
#else
private let nsOrderedSetFoundationExamples: [ClassExample] = []
#endif
