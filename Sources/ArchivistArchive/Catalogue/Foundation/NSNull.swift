import ArchivistCore
import Foundation

extension ClassDescription {
    /// `NSNull`: no fields.
    static let nsNull = ClassDescription(
        ["NSNull"], framework: .foundation, shape: .null, swiftType: "NSNull", read: { _, _ in .null },
        examples: [.foundation(shows: "NSNull") { NSNull() }]
    )
}
