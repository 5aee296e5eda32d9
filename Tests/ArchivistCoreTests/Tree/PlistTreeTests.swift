import XCTest
@testable import ArchivistCore

final class PlistTreeTests: XCTestCase {
    private let sample: PlistValue = .dictionary(PlistDictionary([
        ("name", .string("Zoë 😀")),
        ("count", .int(-42)),
        ("big", .integer(PlistInteger(UInt64.max))),
        ("ratio", .real(PlistReal(float: 0.5))),
        ("pi", .double(3.141592653589793)),
        ("on", .bool(true)),
        ("off", .bool(false)),
        ("when", .date(PlistDate(secondsSinceReferenceDate: 12.5))),
        ("blob", .data([0, 1, 2, 255])),
        ("ref", .uid(7)),
        ("nothing", .null),
        ("empty", .array([])),
        ("records", .array([
            .dictionary(PlistDictionary([("name", .string("a")), ("count", .int(1))])),
            .dictionary(PlistDictionary([("name", .string("b")), ("count", .int(2))])),
        ])),
    ]))

    func testValueRoundTripsThroughTheTree() throws {
        let tree = try PlistTree(sample)
        XCTAssertEqual(tree.value, sample)
        // Order is kept, not only the unordered value.
        XCTAssertEqual(tree.value.dictionaryValue?.keys, sample.dictionaryValue?.keys)
        XCTAssertEqual(tree.real(at: try XCTUnwrap(tree.node(forKey: "ratio", in: tree.root)))?.width, .bits32)
        XCTAssertEqual(tree.integer(at: try XCTUnwrap(tree.node(forKey: "big", in: tree.root))), PlistInteger(UInt64.max))
    }

    func testKeysAreStoredOncePerDocument() throws {
        let tree = try PlistTree(sample)
        let records = try XCTUnwrap(tree.node(forKey: "records", in: tree.root))
        let first = tree.element(0, of: records), second = tree.element(1, of: records)
        XCTAssertEqual(tree.entry(0, of: first).key, tree.entry(0, of: second).key)
        XCTAssertEqual(tree.entry(0, of: first).key, tree.entry(0, of: tree.root).key, "\"name\" is one node everywhere")
        XCTAssertEqual(tree.string(at: tree.entry(0, of: first).key), "name")
        XCTAssertEqual(tree.string(at: tree.entry(0, of: second).value), "b")
    }

    func testNodesAreSixteenBytes() {
        XCTAssertEqual(MemoryLayout<PlistTree.Node>.stride, 16)
    }

    func testBuilderKeepsTheFirstPlaceAndTheLastValueOfARepeatedKey() throws {
        for size in [3, 40] {
            var b = PlistTreeBuilder()
            var mark = b.openDictionary()
            for i in 0..<size { XCTAssertNil(b.add(key: b.key("k\(i)"), value: b.integer(PlistInteger(Int64(i))), to: &mark)) }
            XCTAssertEqual(b.add(key: b.key("k1"), value: b.string("again"), to: &mark), 1)
            let root = b.close(mark)
            let tree = try b.finish(root: root)
            XCTAssertEqual(tree.count(of: root), size)
            XCTAssertEqual(tree.string(at: tree.entry(1, of: root).value), "again")
            XCTAssertEqual(tree.string(at: tree.entry(1, of: root).key), "k1")
        }
    }

    func testKeysDifferingOnlyInNormalisationStayTwoKeys() throws {
        var b = PlistTreeBuilder()
        var mark = b.openDictionary()
        XCTAssertNil(b.add(key: b.key("\u{E9}"), value: b.bool(true), to: &mark))
        XCTAssertNil(b.add(key: b.key("e\u{301}"), value: b.bool(false), to: &mark))
        let root = b.close(mark)
        XCTAssertEqual(try b.finish(root: root).count(of: root), 2)
    }

    func testManyDistinctKeysGrowTheKeyTable() throws {
        var b = PlistTreeBuilder()
        var mark = b.openDictionary()
        for i in 0..<5_000 { _ = b.add(key: b.key("key \(i)"), value: b.integer(PlistInteger(Int64(i))), to: &mark) }
        for i in stride(from: 0, to: 5_000, by: 7) { XCTAssertEqual(b.add(key: b.key("key \(i)"), value: b.null(), to: &mark), i) }
        let root = b.close(mark)
        let tree = try b.finish(root: root)
        XCTAssertEqual(tree.count(of: root), 5_000)
        XCTAssertEqual(tree.kind(of: tree.entry(14, of: root).value), .null)
        XCTAssertEqual(tree.integer(at: tree.entry(15, of: root).value), PlistInteger(Int64(15)))
    }

    func testNestingBeyondTheLimitIsRefused() {
        var value = PlistValue.int(1)
        for _ in 0..<20 { value = .array([value]) }
        var limits = Limits.default
        limits.maxDepth = 10
        XCTAssertThrowsError(try PlistTree(value, limits: limits)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
        }
        XCTAssertNoThrow(try PlistTree(value))
    }
}
