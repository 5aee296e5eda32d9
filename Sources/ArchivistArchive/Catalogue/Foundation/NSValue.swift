import ArchivistCore
#if ARCHIVIST_EXAMPLES
import Foundation
#endif

extension ClassDescription {
    /// `NSValue` holding a geometry, by its `NS.special` type: a point, size
    /// or rect as text (`NS.pointval`, `NS.sizeval`, `NS.rectval`), a range
    /// (`NS.rangeval.location`, `.length`) or edge insets (`NS.edgeval.top`, ...).
    static let nsValue = ClassDescription(
        ["NSValue"], framework: .foundation,
        fields: [.inline("NS.special", "integer"), .reference("NS.pointval", "string", optional: true),
                 .reference("NS.sizeval", "string", optional: true), .reference("NS.rectval", "string", optional: true),
                 .inline("NS.rangeval.location", "integer", optional: true), .inline("NS.rangeval.length", "integer", optional: true),
                 .inline("NS.edgeval.top", "real", optional: true), .inline("NS.edgeval.left", "real", optional: true),
                 .inline("NS.edgeval.bottom", "real", optional: true), .inline("NS.edgeval.right", "real", optional: true)],
        shape: .scalar, swiftType: "NSValue",
        check: { $0.nsValue() },
        read: { o, graph in NSValueGeometry(o, in: graph).map { .described($0.described) } },
        examples: nsValueFoundationExamples + [
            // Edge insets as Apple's Foundation writes them (swift-corelibs-foundation has no `NSValue(edgeInsets:)`).
            .built("NSValue", [("NS.special", .int(12)), ("NS.edgeval.top", .double(1)), ("NS.edgeval.left", .double(2)),
                               ("NS.edgeval.bottom", .double(3)), ("NS.edgeval.right", .double(4.5))],
                   shows: "NSValue edgeInsets {1.0, 2.0, 3.0, 4.5}"),
        ]
    )
}

/// The geometric forms of NSValue, by their `NS.special` type.
enum NSValueGeometry {
    /// 1: `NS.pointval`, as `{x, y}`.
    case point(String)
    /// 2: `NS.sizeval`, as `{w, h}`.
    case size(String)
    /// 3: `NS.rectval`, as `{{x, y}, {w, h}}`.
    case rect(String)
    /// 4: `NS.rangeval.location` and `NS.rangeval.length`.
    case range(location: PlistValue, length: PlistValue)
    /// 12: `NS.edgeval.top`, `.left`, `.bottom`, `.right`.
    case edgeInsets(top: PlistValue, left: PlistValue, bottom: PlistValue, right: PlistValue)

    init?(_ o: ArchivedObject, in graph: ObjectGraph) {
        guard case .inline(.integer(let special))? = o["NS.special"] else { return nil }
        switch special.int64Value {
        case 1?: guard let s = graph.string(o["NS.pointval"]) else { return nil }; self = .point(s)
        case 2?: guard let s = graph.string(o["NS.sizeval"]) else { return nil }; self = .size(s)
        case 3?: guard let s = graph.string(o["NS.rectval"]) else { return nil }; self = .rect(s)
        case 4?:
            guard let location = graph.number(o["NS.rangeval.location"]), let length = graph.number(o["NS.rangeval.length"]) else { return nil }
            self = .range(location: location, length: length)
        case 12?:
            guard let top = graph.number(o["NS.edgeval.top"]), let left = graph.number(o["NS.edgeval.left"]),
                  let bottom = graph.number(o["NS.edgeval.bottom"]), let right = graph.number(o["NS.edgeval.right"]) else { return nil }
            self = .edgeInsets(top: top, left: left, bottom: bottom, right: right)
        default:
            return nil
        }
    }

    /// The kind, as `point`, `size`, `rect`, `range` or `edgeInsets`.
    var kind: String {
        switch self {
        case .point: return "point"
        case .size: return "size"
        case .rect: return "rect"
        case .range: return "range"
        case .edgeInsets: return "edgeInsets"
        }
    }

    /// The text Foundation's `NSStringFrom...` functions give.
    var text: String {
        switch self {
        case .point(let s), .size(let s), .rect(let s): return s
        case .range(let location, let length): return "{\(DumpText.scalar(location)), \(DumpText.scalar(length))}"
        case .edgeInsets(let t, let l, let b, let r):
            return "{\(DumpText.scalar(t)), \(DumpText.scalar(l)), \(DumpText.scalar(b)), \(DumpText.scalar(r))}"
        }
    }

    /// The geometry as every view shows it: `point {1.5, 2.0}` after the
    /// class, `dump --json`'s `kind` and `value` (a range's or insets'
    /// numbers by name), exported as numbers (a rect as two pairs).
    var described: DescribedValue {
        let value: PlistValue, exported: PlistValue, swiftType: String
        switch self {
        case .point(let s):
            (value, exported, swiftType) = (.string(s), .array(Self.numbers(s)), "CGPoint")
        case .size(let s):
            (value, exported, swiftType) = (.string(s), .array(Self.numbers(s)), "CGSize")
        case .rect(let s):
            let n = Self.numbers(s)
            exported = n.count == 4 ? .array([.array(Array(n[0..<2])), .array(Array(n[2..<4]))]) : .array(n)
            (value, swiftType) = (.string(s), "CGRect")
        case .range(let location, let length):
            value = .dictionary(PlistDictionary([("location", location), ("length", length)]))
            (exported, swiftType) = (.array([location, length]), "NSRange")
        case .edgeInsets(let t, let l, let b, let r):
            value = .dictionary(PlistDictionary([("top", t), ("left", l), ("bottom", b), ("right", r)]))
            (exported, swiftType) = (.array([t, l, b, r]), "[Double]")
        }
        return .scalar("geometry", lead: .className, text: kind + " " + text,
                       entries: PlistDictionary([("kind", .string(kind)), ("value", value)]),
                       exported: exported, swiftType: swiftType, keepsFields: false)
    }

    /// The numbers of a text such as `{{1, 2}, {3, 4}}`, in order.
    private static func numbers(_ text: String) -> [PlistValue] {
        text.split(whereSeparator: { "{}, ".contains($0) }).map { .double(Double($0) ?? 0) }
    }
}

#if ARCHIVIST_EXAMPLES
private let nsValueFoundationExamples: [ClassExample] = [
    .foundation(shows: "NSValue point {1.5, 2.0}") { NSValue(point: NSPoint(x: 1.5, y: 2)) },
    .foundation(shows: "NSValue size {3.0, 4.0}") { NSValue(size: NSSize(width: 3, height: 4)) },
    .foundation(shows: "NSValue rect {{1.0, 2.0}, {3.0, 4.0}}") { NSValue(rect: NSRect(x: 1, y: 2, width: 3, height: 4)) },
    .foundation(shows: "NSValue range {2, 5}") { NSValue(range: NSRange(location: 2, length: 5)) },
]
#else
private let nsValueFoundationExamples: [ClassExample] = []
#endif
