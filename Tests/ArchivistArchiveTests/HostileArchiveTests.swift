import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// Archives built to hurt: self-pointing classes, long chains, wide graphs.
/// Each gives a located error or a finite result, never a crash or a hang.
final class HostileArchiveTests: XCTestCase {
    let classDict = PlistValue.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node"), .string("NSObject")]))]))

    func envelope(_ objects: [PlistValue], top: UInt64 = 1) -> PlistValue {
        .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(top))]))), ("$objects", .array(objects)),
        ]))
    }

    func testClassPointingAtItself() {
        let me = PlistValue.dictionary(PlistDictionary([("$class", .uid(1)), ("x", .int(1))]))
        XCTAssertThrowsError(try KeyedArchive(envelope([.string("$null"), me]))) { e in
            XCTAssertEqual((e as? PlistError)?.location, .archive(object: 1, keyPath: "root.$class.$classname"))
        }
        // A class dictionary whose own $class points back at the object.
        let loop = PlistValue.dictionary(PlistDictionary([("$class", .uid(1)), ("$classname", .string("X")), ("$classes", .array([.string("X")]))]))
        let object = PlistValue.dictionary(PlistDictionary([("$class", .uid(2))]))
        XCTAssertThrowsError(try KeyedArchive(envelope([.string("$null"), object, loop]))) { e in
            XCTAssertEqual((e as? PlistError)?.kind, .archive)
        }
    }

    func testClassChainThatIsNotStrings() {
        let bad = PlistValue.dictionary(PlistDictionary([("$classname", .string("X")), ("$classes", .array([.uid(2), .int(3)]))]))
        let object = PlistValue.dictionary(PlistDictionary([("$class", .uid(2))]))
        XCTAssertThrowsError(try KeyedArchive(envelope([.string("$null"), object, bad]))) { e in
            XCTAssertEqual((e as? PlistError)?.location, .archive(object: 2, keyPath: "root.$class.$classes"))
        }
    }

    /// A chain of 200,000 objects, each referring to the next: building the
    /// graph, dumping, the JSON view, writing back and the census all finish,
    /// and the dump stops at its depth limit.
    func testLongChainStaysFinite() throws {
        let n = 200_000
        var objects: [PlistValue] = [.string("$null")]
        objects.reserveCapacity(n + 2)
        for i in 1...n {
            let next: PlistValue = i == n ? .uid(0) : .uid(UInt64(i + 1))
            objects.append(.dictionary(PlistDictionary([("next", next), ("$class", .uid(UInt64(n + 1)))])))
        }
        objects.append(classDict)
        let graph = try ObjectGraph(envelope(objects))
        XCTAssertEqual(graph.nodes.count, n + 2)
        let text = try ArchiveDumper.render(graph)
        XCTAssertTrue(text.contains("Node { … }"))
        XCTAssertLessThan(text.utf8.count, 200_000)
        _ = try ArchiveJSONDumper.json(graph)
        let written = try GraphWriter.archive(graph)
        XCTAssertEqual(try KeyedArchive(written).objects.count, n + 2)
        var census = ClassCensus()
        census.add(graph)
        XCTAssertEqual(census.entries.first?.count, n)
    }

    /// Every object refers to every earlier one (a dense DAG): the dump labels
    /// shared objects once and refers to them after, so its size stays linear
    /// in the edges rather than exponential in the paths.
    /// An NSArray of `count` references to object 2, which is `shared`.
    func widelyShared(_ shared: PlistValue, count: Int) -> PlistValue {
        let nsArray = PlistValue.dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))]))
        let array = PlistValue.dictionary(PlistDictionary([("NS.objects", .array(Array(repeating: .uid(2), count: count))), ("$class", .uid(3))]))
        return envelope([.string("$null"), array, shared, nsArray])
    }

    /// Views show a shared value at each place, so like conversions they count
    /// every value they show: a plain array in `$objects` referred to 300,000
    /// times (12,000,000 values) is refused at the limit, quickly, not
    /// expanded in full; data holding a property list referred to as often
    /// is shown once in the text view and referred to after. (A
    /// limit of 1,000,000 keeps this process small; the CLI test runs the
    /// default one.)
    func testWidelySharedValuesCountAgainstTheViewLimit() throws {
        let list = widelyShared(.array((0..<40).map { .int(Int64($0)) }), count: 300_000)
        let graph = try ObjectGraph(list)
        var million = DumpOptions()
        million.maxValues = 1_000_000
        XCTAssertThrowsError(try ArchiveJSONDumper.json(graph, options: million)) { e in
            XCTAssertEqual((e as? PlistError)?.kind, .limitExceeded)
            XCTAssertEqual((e as? PlistError)?.location, .archive(object: 2, keyPath: ""))
        }
        let nested = try PropertyList.write(.array((0..<60).map { .string("item \($0)") }), as: .binary)
        let data = try ObjectGraph(widelyShared(.data(nested), count: 300_000))
        // The text view shows shared data (64 bytes or more) once and refers to it after.
        let shown = try ArchiveDumper.render(data, options: million)
        XCTAssertEqual(shown.components(separatedBy: "\"item 59\"").count, 2)
        XCTAssertEqual(shown.components(separatedBy: "-> @2\n").count - 1, 299_999)
        // Below the limit the same archives are shown, the data once.
        let small = try ObjectGraph(widelyShared(.data(nested), count: 3))
        XCTAssertEqual(try ArchiveDumper.render(small).components(separatedBy: "\"item 59\"").count, 2)
        var options = DumpOptions()
        options.maxValues = 50
        XCTAssertThrowsError(try ArchiveDumper.render(small, options: options))
        options.maxValues = 100
        XCTAssertThrowsError(try ArchiveJSONDumper.json(try ObjectGraph(widelyShared(.array((0..<40).map { .int(Int64($0)) }), count: 3)), options: options))
        XCTAssertNoThrow(try ArchiveJSONDumper.json(try ObjectGraph(widelyShared(.array((0..<40).map { .int(Int64($0)) }), count: 2)), options: options))
    }

    func testDenseSharingIsNotExpanded() throws {
        let n = 300
        var objects: [PlistValue] = [.string("$null")]
        for i in 1...n {
            let refs = (i + 1..<min(n + 1, i + 40)).map { PlistValue.uid(UInt64($0)) }
            objects.append(.dictionary(PlistDictionary([("items", .array(refs)), ("$class", .uid(UInt64(n + 1)))])))
        }
        objects.append(classDict)
        let graph = try ObjectGraph(envelope(objects))
        let text = try ArchiveDumper.render(graph)
        XCTAssertLessThan(text.utf8.count, 2_000_000)
        XCTAssertTrue(text.contains("-> @"))
    }

    func testObjectsThatContainThemselves() throws {
        let me = PlistValue.dictionary(PlistDictionary([("self", .uid(1)), ("list", .array([.uid(1), .uid(1)])), ("$class", .uid(2))]))
        let graph = try ObjectGraph(envelope([.string("$null"), me, classDict]))
        let text = try ArchiveDumper.render(graph)
        XCTAssertTrue(text.contains("self = -> @1"), text)
        let back = try ObjectGraph(try GraphWriter.archive(graph))
        XCTAssertEqual(back.edges(of: 1), [1, 1, 1])
    }

    /// An NSArray that lists itself, and an NSDictionary whose key is itself.
    func testFoundationContainersThatContainThemselves() throws {
        let arrayClass = PlistValue.dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray")]))]))
        let dictClass = PlistValue.dictionary(PlistDictionary([("$classname", .string("NSDictionary")), ("$classes", .array([.string("NSDictionary")]))]))
        let array = PlistValue.dictionary(PlistDictionary([("NS.objects", .array([.uid(1), .uid(2)])), ("$class", .uid(3))]))
        let dict = PlistValue.dictionary(PlistDictionary([("NS.keys", .array([.uid(2)])), ("NS.objects", .array([.uid(1)])), ("$class", .uid(4))]))
        let graph = try ObjectGraph(envelope([.string("$null"), array, dict, arrayClass, dictClass]))
        let text = try ArchiveDumper.render(graph)
        XCTAssertTrue(text.contains("-> @1"), text)
        XCTAssertTrue(text.contains("-> @2"), text)
        XCTAssertNoThrow(try ArchiveJSONDumper.json(graph))
        XCTAssertThrowsError(try PlistKeyPath("root.1.x").resolve(in: envelope([.string("$null"), array, dict, arrayClass, dictClass])))
    }
}

/// Inputs the fuzzers found.
final class FuzzRegressionTests: XCTestCase {
    /// NSArrays shared along many paths: `schema` once walked every path
    /// (exponential in the depth); each container is now inferred once.
    func testSchemaOfSharedContainersIsLinear() throws {
        let url = TestPaths.corpus.appendingPathComponent("hostile/fuzz-schema-shared-containers.plist")
        let value = try PropertyList.read([UInt8](try Data(contentsOf: url))).tree.value
        _ = try CodableSchema(try PlistTree(value))
        _ = try CodableExport.value(converting: value, options: CodableOptions(cycles: .omit, maxValues: 100_000))
    }
}
