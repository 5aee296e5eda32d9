import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

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
        examples: nsAttributedStringFoundationExamples + [
            // Six runs over four dictionaries, as macOS 10.14 archived them.
            .shared("corpus/corelibs-foundation/Tests/Foundation/Resources/Fixtures/macOS-10.14/NSAttributedString.archive",
                    shows: "NSAttributedString \"0123456789\" runs ["),
        ]
    )
}

/// An attributed string as read: its text, its attributes object (one
/// dictionary, or an array of them), and when `NSAttributeInfo` lists
/// several runs, each run's text with its dictionary.
struct ArchivedAttributedText {
    var text: String
    /// The `NSAttributes` object, when there is one.
    var attributes: Int?
    /// Each run's text and attribute dictionary (an object), in order; empty
    /// for one run, or for runs that do not cover the text exactly.
    var runs: [(text: String, attributes: Int)] = []

    /// How many runs use each dictionary: a view that shows the runs in
    /// place of the attributes array uses each dictionary that many times.
    var dictionaryUses: [Int: Int] {
        var uses: [Int: Int] = [:]
        for run in runs { uses[run.attributes, default: 0] += 1 }
        return uses
    }

    /// The runs `NSAttributeInfo` lists: each run's length in UTF-16 units
    /// and its dictionary's position in `dictionaries`, as unsigned LEB128
    /// pairs. Empty unless they cover the text exactly, on character
    /// boundaries, with dictionaries that exist.
    static func runs(_ info: [UInt8], over text: String, dictionaries: [Int]) -> [(text: String, attributes: Int)] {
        var runs: [(text: String, attributes: Int)] = []
        let utf16 = text.utf16
        var start = utf16.startIndex
        var at = 0
        func leb128() -> Int? {
            var value = 0, shift = 0
            while at < info.count, shift < 63 {
                let byte = info[at]
                at += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while at < info.count {
            guard let length = leb128(), let index = leb128(), index < dictionaries.count,
                  let end = utf16.index(start, offsetBy: length, limitedBy: utf16.endIndex),
                  let from = String.Index(start, within: text), let to = String.Index(end, within: text) else { return [] }
            runs.append((String(text[from..<to]), dictionaries[index]))
            start = end
        }
        return start == utf16.endIndex && runs.count > 1 ? runs : []
    }
}

extension FoundationValue {
    static func attributedString(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard let text = graph.string(o["NSString"]) else { return nil }
        var value = ArchivedAttributedText(text: text)
        if case .reference(let r)? = o["NSAttributes"], r != 0 { value.attributes = r }
        if let r = value.attributes, let info = graph.bytes(o["NSAttributeInfo"]), let list = graph.object(r),
           case .list(let dictionaries)? = FoundationValue.interpret(list, in: graph) {
            value.runs = ArchivedAttributedText.runs(info, over: text, dictionaries: dictionaries)
        }
        return .attributedString(value)
    }
}

#if ARCHIVIST_EXAMPLES
private let nsAttributedStringFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSAttributedString \"bold\"") {
        NSAttributedString(string: "bold", attributes: [NSAttributedString.Key("k"): NSString(string: "v")])
    },
]
#else
private let nsAttributedStringFoundationExamples: [ClassExample] = []
#endif
