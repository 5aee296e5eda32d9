import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSCountedSet`: `NS.count` members, each `NS.objectN` with its `NS.countN`.
    static let nsCountedSet = ClassDescription(
        ["NSCountedSet"], chain: ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"], framework: .foundation,
        fields: [.inline("NS.count", "integer"), .numbered("NS.object"), .numbered("NS.count", "integer")],
        shape: .countedSet, swiftType: "[Any]", check: { $0.countedSet() },
        read: FoundationValue.counted,
        examples: nsCountedSetFoundationExamples
    )
}

extension FoundationValue {
    /// `NS.objectN` with its `NS.countN`, for N below `NS.count`.
    static func counted(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard case .inline(.integer(let total))? = o["NS.count"], let count = total.int64Value, count >= 0,
              count <= Int64(o.fields.count) else { return nil }
        var entries: [(object: Int, count: Int)] = []
        for n in 0..<Int(count) {
            guard case .reference(let r)? = o["NS.object\(n)"] else { return nil }
            var times = 1
            if case .inline(.integer(let c))? = o["NS.count\(n)"], let c64 = c.int64Value, let ci = Int(exactly: c64) { times = ci }
            entries.append((r, times))
        }
        return .counted(entries)
    }
}

#if ARCHIVIST_EXAMPLES
private let nsCountedSetFoundationExamples: [ClassExample] = [
    .foundation(shows: "× 2") { NSCountedSet(array: [NSString(string: "a"), NSString(string: "a")]) },
]
#else
private let nsCountedSetFoundationExamples: [ClassExample] = []
#endif
