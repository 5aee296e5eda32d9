import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSIndexSet` and `NSMutableIndexSet`: `NSRangeCount` with `NSLocation`
    /// and `NSLength` for one range, else `NSRangeData` (each range's location
    /// and length as unsigned LEB128), as Apple's and swift-corelibs-foundation write them.
    static let nsIndexSet = ClassDescription(
        ["NSIndexSet", "NSMutableIndexSet"], framework: .foundation,
        fields: [.inline("NSRangeCount", "integer"), .inline("NSLocation", "integer", optional: true),
                 .inline("NSLength", "integer", optional: true), .inline("NSRangeData", "data", optional: true)],
        shape: .scalar, swiftType: "IndexSet",
        read: { o, graph in ArchivedIndexes(indexSet: o, in: graph).map { .described($0.described) } },
        examples: nsIndexSetFoundationExamples
    )
}

#if ARCHIVIST_EXAMPLES
private let nsIndexSetFoundationExamples: [ClassExample] = [
    .foundation(shows: "[2..<5]") { NSIndexSet(indexesIn: NSRange(location: 2, length: 3)) },
    .foundation(shows: "[1..<3, 7..<8]") {
        let set = NSMutableIndexSet(indexesIn: NSRange(location: 1, length: 2))
        set.add(7)
        return set
    },
]
#else
private let nsIndexSetFoundationExamples: [ClassExample] = []
#endif
