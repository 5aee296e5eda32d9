import ArchivistCore
import Foundation

extension ClassDescription {
    /// `NSAttributedString` and `NSMutableAttributedString`: the text in
    /// `NSString`, the attributes in `NSAttributes` (one dictionary, or an
    /// array of them with the runs in `NSAttributeInfo`).
    static let nsAttributedString = ClassDescription(
        ["NSAttributedString", "NSMutableAttributedString"], framework: .foundation,
        fields: [.reference("NSString", "string"), .reference("NSAttributes", optional: true), .reference("NSAttributeInfo", "data", optional: true)],
        shape: .attributedText, swiftType: "String", typedstream: .attributedString,
        check: { p in
            var found = p.string("NSString")
            if let attributes = p.object["NSAttributes"], !p.isReference(attributes) {
                found.append("NSAttributes is \(p.describe(attributes)), not a reference")
            }
            return found
        },
        read: FoundationValue.attributedString,
        examples: [.foundation(shows: "NSAttributedString \"bold\"") {
            NSAttributedString(string: "bold", attributes: [NSAttributedString.Key("k"): NSString(string: "v")])
        }]
    )
}

extension FoundationValue {
    static func attributedString(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard let text = graph.string(o["NSString"]) else { return nil }
        var attributes: Int?
        if case .reference(let r)? = o["NSAttributes"], r != 0 { attributes = r }
        return .attributedString(text, attributes: attributes)
    }
}
