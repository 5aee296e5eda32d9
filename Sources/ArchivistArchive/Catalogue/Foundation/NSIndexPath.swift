import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSIndexPath`: `NSIndexPathLength` with `NSIndexPathValue` for one
    /// index, alone for none, else `NSIndexPathData` (each index as unsigned LEB128).
    static let nsIndexPath = ClassDescription(
        ["NSIndexPath"], framework: .foundation,
        fields: [.inline("NSIndexPathLength", "integer"), .inline("NSIndexPathValue", "integer", optional: true),
                 .inline("NSIndexPathData", "data", optional: true)],
        shape: .scalar, swiftType: "IndexPath",
        read: { o, graph in ArchivedIndexes(indexPath: o, in: graph).map { .described($0.described) } },
        examples: nsIndexPathFoundationExamples
    )
}

#if ARCHIVIST_EXAMPLES
private let nsIndexPathFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSIndexPath [1, 2, 300]") { NSIndexPath(indexes: [1, 2, 300], length: 3) },
]
#else
private let nsIndexPathFoundationExamples: [ClassExample] = []
#endif
