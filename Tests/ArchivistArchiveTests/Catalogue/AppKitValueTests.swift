import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// AppKit's value classes read as values. Foundation on Linux has no AppKit, so
/// the archives are built by hand in the exact form AppKit writes, as the real
/// nibs under `../shared/real-world/sparkle` show it (each form names its file),
/// and the real files are read as well.
final class AppKitValueTests: XCTestCase {
    /// A keyed archive whose root is an NSArray of `members`, each an object's
    /// fields (`$class` added from `className`); `extra` objects follow them
    /// (referred to by UID from the members' fields, numbered from `2 + members.count`).
    static func archive(_ members: [(className: String, fields: [(String, PlistValue)])], extra: [(className: String, fields: [(String, PlistValue)])] = []) -> PlistValue {
        var objects: [PlistValue] = []
        let all = members + extra
        let firstClass = UInt64(2 + all.count)
        var classes: [String] = []
        func classUID(_ name: String) -> PlistValue {
            if let i = classes.firstIndex(of: name) { return .uid(firstClass + UInt64(i)) }
            classes.append(name)
            return .uid(firstClass + UInt64(classes.count - 1))
        }
        let arrayClass = classUID("NSArray")
        objects.append(.dictionary(PlistDictionary([("$class", arrayClass), ("NS.objects", .array((0..<members.count).map { .uid(UInt64(2 + $0)) }))])))
        for m in all {
            objects.append(.dictionary(PlistDictionary(m.fields + [("$class", classUID(m.className))])))
        }
        objects += classes.map { ArchiveBuilder.classEntry($0) }
        return ArchiveBuilder.archive(objects)
    }

    /// An ICC v2 profile of one tag, `desc`, holding `text` (as `NSICC` of
    /// `SUStatus.nib`'s custom colour space holds "Generic Gray Gamma 2.2 Profile").
    static func icc(_ text: String) -> [UInt8] {
        func be(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
        let ascii = Array(text.utf8) + [0]
        let tag = Array("desc".utf8) + [0, 0, 0, 0] + be(ascii.count) + ascii
        return [UInt8](repeating: 0, count: 128) + be(1) + Array("desc".utf8) + be(144) + be(tag.count) + tag
    }

    /// The NSColorSpace object, after the seventeen members.
    static let colorSpaceIndex = 2 + 17

    /// Every form: the first eleven members read as values, the rest stay objects.
    static let members: [(className: String, fields: [(String, PlistValue)])] = [
        // NSColorSpace 1 with NSRGB, alpha left out when 1 (AppKit's component string form).
        ("NSColor", [("NSColorSpace", .int(1)), ("NSRGB", .data(Array("0.2 0.4 0.6\0".utf8)))]),
        // NSColorSpace 3 with NSWhite and alpha (SUUpdateAlert.nib: "0 0.80000001\0").
        ("NSColor", [("NSColorSpace", .int(3)), ("NSWhite", .data(Array("0 0.80000001\0".utf8)))]),
        ("NSColor", [("NSColorSpace", .int(4)), ("NSWhite", .data(Array("0.5\0".utf8)))]),
        ("NSColor", [("NSColorSpace", .int(5)), ("NSCMYK", .data(Array("0 0.5 1 0\0".utf8)))]),
        ("NSColor", [("NSColorSpace", .int(2)), ("NSRGB", .data(Array("1 0 0 0.5\0".utf8)))]),
        // A catalog colour with its fallback in NSColor (every sparkle nib).
        ("NSColor", [("NSCatalogName", .string("System")), ("NSColorName", .string("controlColor")), ("NSColorSpace", .int(6)),
                     ("NSColor", .uid(UInt64(2 + 2)))]),
        // NSComponents in NSCustomColorSpace, the string form beside it (SUStatus.nib).
        ("NSColor", [("NSColorSpace", .int(3)), ("NSWhite", .data(Array("0.602715373\0".utf8))), ("NSComponents", .data(Array("0.6666666667 1".utf8))),
                     ("NSCustomColorSpace", .uid(UInt64(colorSpaceIndex)))]),
        // NSFont as nibs write it (MainMenu.nib: LucidaGrande 13, NSfFlags 1044).
        ("NSFont", [("NSName", .string("LucidaGrande")), ("NSSize", .double(13)), ("NSfFlags", .int(1044))]),
        ("NSCustomResource", [("NSClassName", .string("NSImage")), ("NSResourceName", .string("NSSwitch"))]),
        ("NSButtonImageSource", [("NSImageName", .string("NSMenuCheckmark"))]),
        // NSHashTable (backgrounditems.btm): options in $0, members, then $null.
        ("NSHashTable", [("$0", .int(5)), ("$1", .uid(UInt64(2 + 7))), ("$2", .uid(0))]),
        // Unknown shapes: an extra field, a missing one, an unknown colour space, a bad number.
        ("NSColor", [("NSColorSpace", .int(1)), ("NSRGB", .data(Array("0.2 0.4 0.6\0".utf8))), ("NSExtra", .int(1))]),
        ("NSColor", [("NSColorSpace", .int(7)), ("NSRGB", .data(Array("0.2 0.4 0.6\0".utf8)))]),
        ("NSColor", [("NSColorSpace", .int(1)), ("NSRGB", .data(Array("0.2 x 0.6\0".utf8)))]),
        ("NSFont", [("NSName", .string("LucidaGrande"))]),
        ("NSHashTable", [("$0", .int(5)), ("$1", .uid(0)), ("$2", .uid(UInt64(2 + 7)))]),
        ("NSCustomResource", [("NSClassName", .string("NSImage")), ("NSResourceName", .string("NSApplicationIcon")), ("IBDesignImageConfiguration", .uid(UInt64(2 + 7)))]),
    ]

    static func graph() throws -> ObjectGraph {
        try ObjectGraph(archive(members, extra: [("NSColorSpace", [("NSID", .int(9)), ("NSModel", .int(0)), ("NSICC", .data(icc("Generic Gray Gamma 2.2 Profile")))])]))
    }

    /// Each form AppKit writes reads as its value; other shapes stay objects.
    func testEveryFormReadsAsItsValue() throws {
        let g = try Self.graph()
        func value(_ n: Int) -> FoundationValue? { g.object(2 + n).flatMap { FoundationValue.interpret($0, in: g) } }
        func text(_ n: Int) -> String? { value(n)?.described?.text }
        XCTAssertEqual(text(0), "NSColor(calibratedRGB 0.2 0.4 0.6 1)")
        XCTAssertEqual(text(1), "NSColor(calibratedWhite 0 0.80000001)")
        XCTAssertEqual(text(2), "NSColor(deviceWhite 0.5 1)")
        XCTAssertEqual(text(3), "NSColor(deviceCMYK 0 0.5 1 0 1)")
        XCTAssertEqual(text(4), "NSColor(deviceRGB 1 0 0 0.5)")
        XCTAssertEqual(text(5), "NSColor(catalog System/controlColor)")
        XCTAssertEqual(text(6), "NSColor(custom \"Generic Gray Gamma 2.2 Profile\" 0.6666666667 1)")
        XCTAssertEqual(text(7), "NSFont(\"LucidaGrande\" 13)")
        XCTAssertEqual(text(8), "NSImage(named \"NSSwitch\")")
        XCTAssertEqual(text(9), "NSImage(named \"NSMenuCheckmark\")")
        guard case .list(let members)? = value(10) else { return XCTFail("NSHashTable") }
        XCTAssertEqual(members, [2 + 7])
        guard let o = g.object(2), case .components(.calibratedRGB, let c)? = ArchivedColor(o, in: g) else { return XCTFail("typed colour") }
        XCTAssertEqual(c, [0.2, 0.4, 0.6, 1])
        // The typed fields `dump --json` shows, under the value's kind.
        XCTAssertEqual(value(7)?.described?.entries["font"], .dictionary(PlistDictionary([("name", .string("LucidaGrande")), ("size", .double(13))])))
        XCTAssertNil(value(7)?.described?.entries["color"])
        XCTAssertEqual(value(8)?.described?.entries["resource"], .dictionary(PlistDictionary([("class", .string("NSImage")), ("name", .string("NSSwitch"))])))
        XCTAssertEqual(value(8)?.described?.exported, .string("NSImage(named \"NSSwitch\")"))
        XCTAssertEqual(value(8)?.described?.keepsFields, true)
        for n in 11...16 { XCTAssertNil(value(n), "member \(n) keeps its fields") }
    }

    func testProfileAndModel() {
        XCTAssertEqual(ICCProfile.description(Self.icc("sRGB IEC61966-2.1")), "sRGB IEC61966-2.1")
        XCTAssertNil(ICCProfile.description(Array(Self.icc("sRGB").prefix(150))))
        XCTAssertNil(ICCProfile.description([]))
        XCTAssertEqual(ArchivedColor.custom(model: 1, profile: nil, components: [0.2, 0.4, 0.6, 1]).text, "custom rgb 0.2 0.4 0.6 1")
    }

    static let realNib = TestPaths.realWorld.appendingPathComponent("sparkle/Sources/Sparkle/Autoupdate.app/Contents/Resources/SUStatus.nib")

    /// SUStatus.nib (a real compiled nib): its catalog colours, the custom
    /// gray behind them, its fonts and its named image (with Interface
    /// Builder's namespace and design size) read as values.
    func testRealNib() throws {
        guard let data = try? Data(contentsOf: Self.realNib) else { throw XCTSkip("../shared/real-world is absent") }
        let g = try ObjectGraph(try PropertyList.read([UInt8](data)).tree)
        var texts: Set<String> = [], objects: [String: Int] = [:]
        for i in g.nodes.indices {
            guard let o = g.object(i), ["NSColor", "NSFont", "NSCustomResource"].contains(o.className.archived) else { continue }
            if let v = FoundationValue.interpret(o, in: g)?.described { texts.insert(v.text) } else { objects[o.className.archived, default: 0] += 1 }
        }
        XCTAssertTrue(texts.isSuperset(of: [
            "NSColor(catalog System/controlColor)", "NSColor(catalog System/controlTextColor)",
            "NSColor(custom \"Generic Gray Gamma 2.2 Profile\" 0.6666666667 1)",
            "NSFont(\".AppleSystemUIFont\" 13)", "NSImage(named \"NSApplicationIcon\" in system design size {32, 32})",
        ]), "\(texts)")
        XCTAssertEqual(objects, [:])
    }
}
