import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// `Corpus/archives/foundation-classes.plist` (one object of each Foundation
/// class, written by NSKeyedArchiver) reads as the values the generator archived.
final class FoundationClassesTests: XCTestCase {
    static let url = TestPaths.corpus.appendingPathComponent("archives/foundation-classes.plist")

    func graph(_ url: URL = url) throws -> ObjectGraph {
        try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree)
    }

    /// The root dictionary's entries, keyed by their string keys.
    func entries(_ graph: ObjectGraph) throws -> [String: Int] {
        let root = try XCTUnwrap(graph.object(graph.top[0].object))
        guard case .map(let keys, let values)? = FoundationValue.interpret(root, in: graph) else {
            XCTFail("root is not a dictionary"); return [:]
        }
        var out: [String: Int] = [:]
        for (k, v) in zip(keys, values) {
            guard let key = graph.string(.reference(k)) else { XCTFail("key \(k) is not a string"); continue }
            out[key] = v
        }
        return out
    }

    func value(_ graph: ObjectGraph, _ index: Int?) -> FoundationValue? {
        guard let index, let o = graph.object(index) else { return nil }
        return FoundationValue.interpret(o, in: graph)
    }

    func bytes(_ graph: ObjectGraph, _ index: Int?) -> [UInt8]? {
        if case .value(.data(let b))? = graph.nodes[safe: index ?? -1] { return b }
        if case .data(let b)? = value(graph, index) { return b }
        return nil
    }

    func strings(_ graph: ObjectGraph, _ refs: [Int]) -> [String?] {
        refs.map { graph.string(.reference($0)) }
    }

    func testEveryClassReadsAsItsValue() throws {
        let g = try graph()
        let e = try entries(g)
        XCTAssertEqual(e.count, 27)
        guard case .list(let array)? = value(g, e["NSArray"]) else { return XCTFail("NSArray") }
        XCTAssertEqual(g.string(.reference(array[0])), "a")
        XCTAssertEqual(g.number(.reference(array[1])), .int(1))
        guard case .list(let ordered)? = value(g, e["NSOrderedSet"]) else { return XCTFail("NSOrderedSet") }
        XCTAssertEqual(strings(g, ordered), ["first", "second", "third", "fourth"])
        guard case .list(let mutableOrdered)? = value(g, e["NSMutableOrderedSet"]) else { return XCTFail("NSMutableOrderedSet") }
        XCTAssertEqual(strings(g, mutableOrdered), ["x", "y", "z", "w", "v"])
        guard case .list(let set)? = value(g, e["NSMutableSet"]) else { return XCTFail("NSMutableSet") }
        XCTAssertEqual(Set(set.compactMap { g.number(.reference($0))?.description }), [PlistValue.int(7).description, PlistValue.int(8).description])
        guard case .map(let keys, let values)? = value(g, e["NSMutableDictionary"]) else { return XCTFail("NSMutableDictionary") }
        XCTAssertEqual(Set(strings(g, keys)), ["k1", "k2"])
        XCTAssertEqual(values.count, 2)
        XCTAssertEqual(g.string(.reference(try XCTUnwrap(e["NSMutableString"]))), "mutable ünïcode")
        // Foundation on Linux writes NSData and NSMutableData inside a collection as plain
        // data in $objects; an NSMutableData object (NS.data) is read the same way.
        XCTAssertEqual(bytes(g, e["NSData"]), [0xDE, 0xAD, 0xBE, 0xEF])
        XCTAssertEqual(bytes(g, e["NSMutableData"]), [1, 2, 3, 4, 5])
        guard case .date(let t)? = value(g, e["NSDate"]) else { return XCTFail("NSDate") }
        XCTAssertEqual(t, 600_000_000.5)
        let uuid = try XCTUnwrap(value(g, e["NSUUID"])?.described, "NSUUID")
        XCTAssertEqual(uuid.string, "0F7C0B8A-5E3D-4C1B-9A2F-6D8E4B3C2A10")
        XCTAssertEqual(uuid.exported, .string("0F7C0B8A-5E3D-4C1B-9A2F-6D8E4B3C2A10"))
        guard case .url(nil, let relative?)? = value(g, e["NSURL"]) else { return XCTFail("NSURL") }
        XCTAssertEqual(g.string(.reference(relative)), "https://example.org/path?q=1")
        guard case .null? = value(g, e["NSNull"]) else { return XCTFail("NSNull") }
        XCTAssertEqual(g.number(.reference(try XCTUnwrap(e["NSNumber integer"]))), .int(-12345678901))
        XCTAssertEqual(g.number(.reference(try XCTUnwrap(e["NSNumber real"]))), .real(PlistReal(0.125)))
        XCTAssertEqual(g.number(.reference(try XCTUnwrap(e["NSNumber bool"]))), .bool(false))
        func geometry(_ key: String) -> DescribedValue? { value(g, e[key])?.described }
        XCTAssertEqual(geometry("NSValue point")?.text, "point {1.5, -2.0}")
        XCTAssertEqual(geometry("NSValue point")?.exported, .array([.double(1.5), .double(-2)]))
        XCTAssertEqual(geometry("NSValue size")?.text, "size {640.0, 480.0}")
        XCTAssertEqual(geometry("NSValue rect")?.text, "rect {{0.0, 10.0}, {320.0, 240.0}}")
        XCTAssertEqual(geometry("NSValue rect")?.exported, .array([.array([.double(0), .double(10)]), .array([.double(320), .double(240)])]))
        XCTAssertEqual(geometry("NSValue rect")?.swiftType, "CGRect")
        XCTAssertEqual(geometry("NSValue range")?.entries["value"], .dictionary(PlistDictionary([("location", .int(5)), ("length", .int(12))])))
        XCTAssertEqual(geometry("NSValue edgeInsets")?.text, "edgeInsets {1.0, 2.0, 3.0, 4.0}")
        XCTAssertEqual(geometry("NSValue edgeInsets")?.kind, "geometry")
        XCTAssertEqual(value(g, e["NSLocale"])?.described?.string, "fr_CA")
        XCTAssertEqual(value(g, e["NSLocale"])?.described?.text, "\"fr_CA\"")
        XCTAssertEqual(value(g, e["NSTimeZone"])?.described?.string, "America/New_York")
        XCTAssertEqual(value(g, e["NSTimeZone"])?.described?.entries["name"], .string("America/New_York"))
    }

    /// A described value's text is escaped in the text dump and clipped in
    /// the graph, whatever its class: an NSValue point whose text holds a
    /// terminal escape, and one whose text is long.
    func testDescribedTextIsEscapedAndClipped() throws {
        let long = "{" + String(repeating: "1", count: 100) + ", 2}"
        let g = try ObjectGraph(ArchiveBuilder.archive([
            ArchiveBuilder.object([("NS.objects", .array([.uid(2), .uid(3)]))], classAt: 6),
            ArchiveBuilder.object([("NS.special", .int(1)), ("NS.pointval", .uid(4))], classAt: 7),
            ArchiveBuilder.object([("NS.special", .int(1)), ("NS.pointval", .uid(5))], classAt: 7),
            .string("{1, 2}\u{1B}[2J"), .string(long),
            ArchiveBuilder.classEntry("NSArray"), ArchiveBuilder.classEntry("NSValue"),
        ]))
        let text = try ArchiveDumper.render(g)
        XCTAssertFalse(text.contains("\u{1B}"), text)
        XCTAssertTrue(text.contains("NSValue point {1, 2}\\u{1b}[2J"), text)
        let dot = ArchiveGraphviz.render(g)
        XCTAssertFalse(dot.contains(long), "a long text is clipped")
        XCTAssertTrue(dot.contains("NSValue point {" + String(repeating: "1", count: 50)), dot)
    }

    func testAttributedStrings() throws {
        let g = try graph(TestPaths.corpus.appendingPathComponent("archives/attributed-strings.plist"))
        guard case .list(let items)? = value(g, g.top[0].object), items.count == 2 else { return XCTFail("root list") }
        guard case .attributedString(let styled)? = value(g, items[0]), let attributes = styled.attributes else { return XCTFail("NSAttributedString") }
        XCTAssertEqual(styled.text, "styled")
        XCTAssertTrue(styled.runs.isEmpty)
        guard case .map(let attributeKeys, let attributeValues)? = value(g, attributes) else { return XCTFail("attributes") }
        XCTAssertEqual(strings(g, attributeKeys), ["weight"])
        XCTAssertEqual(attributeValues.map { g.number(.reference($0)) }, [.int(700)])
        guard case .attributedString(let plain)? = value(g, items[1]) else { return XCTFail("NSMutableAttributedString") }
        XCTAssertEqual(plain.text, "plain run")
        // Foundation on Linux cannot decode these (it crashes on the missing
        // NSAttributeInfo), so the written-back archive is compared as a dump.
        let back = try ObjectGraph(try GraphWriter.archive(g))
        XCTAssertEqual(try ArchiveDumper.render(back), try ArchiveDumper.render(g))
    }

    func testCountedSet() throws {
        let g = try graph(TestPaths.corpus.appendingPathComponent("archives/counted-set.plist"))
        guard case .counted(let entries)? = value(g, g.top[0].object) else { return XCTFail("NSCountedSet") }
        var counts: [String: Int] = [:]
        for entry in entries { counts[g.string(.reference(entry.object)) ?? "?"] = entry.count }
        XCTAssertEqual(counts, ["twice": 2, "once": 1])
    }

    /// Archivist's writer gives an archive that NSKeyedUnarchiver reads to the
    /// same objects as the original.
    func testWrittenBackDecodesInFoundation() throws {
        for name in ["foundation-classes", "counted-set", "foundation-values"] {
            let url = TestPaths.corpus.appendingPathComponent("archives/\(name).plist")
            let original = try Data(contentsOf: url)
            let written = Data(try PropertyList.write(try GraphWriter.archive(try graph(url)), as: .binary))
            let a = try XCTUnwrap(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(original) as? NSObject, name)
            let b = try XCTUnwrap(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(written) as? NSObject, name)
            XCTAssertEqual(a, b, name)
        }
    }

    /// Foundation objects whose fields do not have the expected shape are shown
    /// as generic objects rather than misread.
    func testMisshapenFoundationObjectsStayGeneric() throws {
        func archive(_ fields: [(String, PlistValue)], _ name: String) throws -> ObjectGraph {
            try ObjectGraph(ArchiveBuilder.archive(className: name, fields: fields, more: [.string("s")]))
        }
        let cases: [(String, [(String, PlistValue)])] = [
            ("NSDictionary", [("NS.keys", .array([.uid(3)])), ("NS.objects", .array([]))]),
            ("NSCountedSet", [("NS.count", .int(Int64.max))]),
            ("NSCountedSet", [("NS.count", .int(2)), ("NS.object0", .uid(3))]),
            ("NSValue", [("NS.special", .int(3)), ("NS.rectval", .int(4))]),
            ("NSValue", [("NS.special", .int(99))]),
            ("NSLocale", [("NS.identifier", .uid(0))]),
            ("NSAttributedString", [("NSString", .int(1))]),
            ("NSUUID", [("NS.uuidbytes", .data([1, 2]))]),
        ]
        for (name, fields) in cases {
            let g = try archive(fields, name)
            XCTAssertNil(value(g, 1), "\(name) \(fields)")
            XCTAssertTrue(try ArchiveDumper.render(g).contains("\(name) {"), name)
        }
    }
}
