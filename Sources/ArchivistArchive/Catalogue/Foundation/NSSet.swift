import ArchivistCore
import Foundation

extension ClassDescription {
    /// `NSSet` and `NSMutableSet`: the members in `NS.objects`.
    static let nsSet = ClassDescription(
        ["NSSet", "NSMutableSet"], framework: .foundation, fields: [.references("NS.objects")],
        shape: .sequence, swiftType: "Set<AnyHashable>", bridge: .set, typedstream: .list, check: { $0.sequence() },
        read: FoundationValue.list,
        examples: [.foundation(shows: "NSSet [") { NSSet(array: [NSString(string: "a")]) }]
    )
}
