import ArchivistCore
import Foundation
import XCTest

/// `PlistNode` navigates a tree as Foundation's `PropertyListSerialization`
/// sees the same file, and answers nil instead of trapping.
final class PlistNodeTests: XCTestCase {
    func testNavigationAgreesWithFoundation() throws {
        let bytes = try Data(contentsOf: Fixtures.corpus.appendingPathComponent("foundation/info-plist.bplist"))
        let tree = try PropertyList.read([UInt8](bytes)).tree
        let oracle = try XCTUnwrap(PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any])
        let top = tree.rootNode

        XCTAssertEqual(top.kind, .dictionary)
        XCTAssertEqual(top.count, oracle.count)
        XCTAssertEqual(Set(top.entries.map(\.key)), Set(oracle.keys))
        XCTAssertEqual(top["CFBundleIdentifier"]?.stringValue, oracle["CFBundleIdentifier"] as? String)
        XCTAssertEqual(top["LSRequiresIPhoneOS"]?.boolValue, oracle["LSRequiresIPhoneOS"] as? Bool)
        let types = try XCTUnwrap(oracle["CFBundleURLTypes"] as? [[String: Any]])
        let schemes = try XCTUnwrap(types.first?["CFBundleURLSchemes"] as? [String])
        XCTAssertEqual(top["CFBundleURLTypes"]?[0]?["CFBundleURLSchemes"]?.elements.compactMap(\.stringValue), schemes)
        XCTAssertEqual(top["CFBundleURLTypes"]?.elements.count, types.count)
        for (key, value) in top.entries {
            XCTAssertEqual(top[key]?.index, value.index)
            XCTAssertEqual(value.value, tree.value(at: value.index))
        }
    }

    func testEveryKindHasItsAccessorOnTheNodeAndTheValue() throws {
        let value = PlistValue.dictionary(PlistDictionary([
            ("s", .string("text")), ("i", .int(-7)), ("r", .double(2.5)), ("b", .bool(true)),
            ("d", .date(PlistDate(secondsSinceReferenceDate: 86_400))), ("x", .data([1, 2, 3])), ("u", .uid(9)),
            ("a", .array([.int(1), .int(2)])),
        ]))
        let tree = try PropertyList.read(PropertyList.write(value, as: .binary)).tree
        for top in [tree.rootNode] {
            XCTAssertEqual(top["s"]?.stringValue, "text")
            XCTAssertEqual(top["i"]?.integerValue, PlistInteger(Int64(-7)))
            XCTAssertEqual(top["r"]?.realValue?.value, 2.5)
            XCTAssertEqual(top["b"]?.boolValue, true)
            XCTAssertEqual(top["d"]?.dateValue, PlistDate(secondsSinceReferenceDate: 86_400))
            XCTAssertEqual(top["x"]?.dataValue, [1, 2, 3])
            XCTAssertEqual(top["u"]?.uidValue, 9)
            XCTAssertEqual(top["a"]?[1]?.integerValue, PlistInteger(Int64(2)))
            XCTAssertNil(top["s"]?.integerValue)
            XCTAssertNil(top["i"]?.stringValue)
        }
        XCTAssertEqual(value["s"]?.stringValue, "text")
        XCTAssertEqual(value["i"]?.integerValue, PlistInteger(Int64(-7)))
        XCTAssertEqual(value["r"]?.realValue?.value, 2.5)
        XCTAssertEqual(value["b"]?.boolValue, true)
        XCTAssertEqual(value["d"]?.dateValue, PlistDate(secondsSinceReferenceDate: 86_400))
        XCTAssertEqual(value["x"]?.dataValue, [1, 2, 3])
        XCTAssertEqual(value["u"]?.uidValue, 9)
        XCTAssertEqual(value["a"]?[1]?.integerValue, PlistInteger(Int64(2)))
        XCTAssertNil(value["a"]?[2])
        XCTAssertNil(value["s"]?.boolValue)
    }

    func testWrongKindsAndIndexesAnswerNil() throws {
        let tree = try PropertyList.read(Array(#"{"list": [1], "name": "n"}"#.utf8)).tree
        let top = tree.rootNode
        XCTAssertNil(top["missing"])
        XCTAssertNil(top[0], "a dictionary has no elements")
        XCTAssertNil(top["list"]?[1])
        XCTAssertNil(top["list"]?[-1])
        XCTAssertNil(top["list"]?["key"])
        XCTAssertNil(top["name"]?[0])
        XCTAssertTrue(top["name"]?.elements.isEmpty ?? false)
        XCTAssertTrue(top["list"]?.entries.isEmpty ?? false)
        XCTAssertNil(PlistNode(tree, index: tree.nodeCount))
        XCTAssertNil(PlistNode(tree, index: -1))
        XCTAssertEqual(PlistNode(tree, index: tree.root)?.kind, .dictionary)
    }

    func testKeysCompareByCodePoints() throws {
        let tree = try PropertyList.read(Array("{\"\u{E9}\": 1, \"e\u{301}\": 2}".utf8)).tree
        XCTAssertEqual(tree.rootNode["\u{E9}"]?.integerValue, PlistInteger(Int64(1)))
        XCTAssertEqual(tree.rootNode["e\u{301}"]?.integerValue, PlistInteger(Int64(2)))
        let value = tree.value
        XCTAssertEqual(value["\u{E9}"]?.integerValue, PlistInteger(Int64(1)))
        XCTAssertEqual(value["e\u{301}"]?.integerValue, PlistInteger(Int64(2)))
    }
}
