import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSArray` and `NSMutableArray`: the elements in `NS.objects`.
    static let nsArray = ClassDescription(
        ["NSArray", "NSMutableArray"], framework: .foundation, fields: [.references("NS.objects")],
        shape: .sequence, swiftType: "[Any]", bridge: .array, standsFor: .array, typedstream: .list, check: { $0.sequence() },
        read: FoundationValue.list,
        examples: nsArrayFoundationExamples
    )
}

extension FoundationValue {
    /// `NS.objects`, or the numbered `NS.object.N` fields in order of N (as
    /// swift-corelibs-foundation writes NSOrderedSet).
    static func list(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        if let objects = o["NS.objects"] { return .list(references(objects)) }
        var numbered: [(Int, Int)] = []
        for field in o.fields where field.key.hasPrefix("NS.object.") {
            guard let n = Int(field.key.dropFirst("NS.object.".count)), case .reference(let r) = field.value else { continue }
            numbered.append((n, r))
        }
        return .list(numbered.sorted { $0.0 < $1.0 }.map(\.1))
    }

    /// The references of a list field (one reference as a list of one).
    static func references(_ v: FieldValue?) -> [Int] {
        switch v {
        case .references(let r)?: return r
        case .reference(let r)?: return [r]
        case nil, .inline?: return []
        }
    }
}

#if ARCHIVIST_EXAMPLES
private let nsArrayFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSArray [") { NSArray(array: [NSString(string: "a"), NSString(string: "b")]) },
]
#else
private let nsArrayFoundationExamples: [ClassExample] = []
#endif
