import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSDictionary` and `NSMutableDictionary`: `NS.keys` and `NS.objects`, paired one to one.
    static let nsDictionary = ClassDescription(
        ["NSDictionary", "NSMutableDictionary"], framework: .foundation,
        fields: [.references("NS.keys"), .references("NS.objects")],
        shape: .map, swiftType: "[String: Any]", standsFor: .dictionary, typedstream: .map, check: { $0.map() },
        read: FoundationValue.dictionary,
        examples: nsDictionaryFoundationExamples
    )
}

extension FoundationValue {
    static func dictionary(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        let keys = references(o["NS.keys"]), values = references(o["NS.objects"])
        guard keys.count == values.count else { return nil }
        return .map(keys: keys, values: values)
    }
}

#if ARCHIVIST_EXAMPLES
private let nsDictionaryFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSDictionary {\n  \"k\" => \"v\"\n}") { NSDictionary(dictionary: ["k": NSString(string: "v")]) },
]
#else
private let nsDictionaryFoundationExamples: [ClassExample] = []
#endif
