import Foundation
import XCTest
@testable import ArchivistCore

/// The XML (both paths), JSON and OpenStep readers build a `PlistTree`: the
/// same property list as Foundation and the other path read, each key text
/// stored once per document, repeated keys handled and reported as before.
final class TextReaderTreeTests: XCTestCase {
    /// Reads XML with the direct reader or with libxml2.
    private func readXML(_ bytes: [UInt8], direct: Bool) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try XMLPlistReader.read($0, options: ReadOptions(), direct: direct) }
    }

    /// The nodes holding each key text of a tree (every dictionary, every entry).
    private func keyNodes(_ tree: PlistTree) -> [String: Set<Int>] {
        var found: [String: Set<Int>] = [:]
        var seen = Set<Int>()
        var stack = [tree.root]
        while let node = stack.popLast() {
            guard seen.insert(node).inserted else { continue }
            switch tree.kind(of: node) {
            case .array:
                for i in 0..<tree.count(of: node) { stack.append(tree.element(i, of: node)) }
            case .dictionary:
                for i in 0..<tree.count(of: node) {
                    let (key, value) = tree.entry(i, of: node)
                    found[tree.string(at: key) ?? "", default: []].insert(key)
                    stack.append(value)
                }
            case .string, .integer, .real, .bool, .date, .data, .uid, .null:
                break
            }
        }
        return found
    }

    /// The string nodes whose text is `text`, anywhere in the node array.
    private func stringNodes(_ tree: PlistTree, _ text: String) -> Int {
        (0..<tree.nodeCount).filter { tree.kind(of: $0) == .string && tree.string(at: $0, equals: text) }.count
    }

    func testCorpusTextFilesReadToTreesWithEachKeyStoredOnce() throws {
        var checked: [String: Int] = [:]
        for root in [Fixtures.corpus, Fixtures.sharedCorpus] {
            for row in Fixtures.manifest(at: root) where row.valid && ["xml", "json", "openstep"].contains(row.format) {
                let bytes = try Fixtures.bytes(row.url)
                let document = try PropertyList.read(bytes)
                let tree = document.tree
                XCTAssertEqual(tree.value, document.tree.value, row.path)
                for (text, nodes) in keyNodes(tree) {
                    XCTAssertEqual(nodes.count, 1, "\(row.path): key \"\(text)\" is stored once")
                }
                switch row.format {
                case "xml":
                    // The other XML path builds the same tree, in the same order.
                    let other = try readXML(bytes, direct: false)
                    XCTAssertEqual(other.tree.value, tree.value, row.path)
                    XCTAssertEqual(other.tree.value.description, tree.value.description, row.path)
                    if let foundation = try? FoundationBridge.foundationRead(bytes) {
                        XCTAssertEqual(tree.value, foundation, "\(row.path): Foundation reads it the same")
                    }
                case "openstep":
                    if let foundation = try? FoundationBridge.foundationRead(bytes) {
                        XCTAssertEqual(tree.value, foundation, "\(row.path): Foundation reads it the same")
                    }
                default:
                    break
                }
                checked[row.format, default: 0] += 1
            }
        }
        XCTAssertGreaterThan(checked["xml"] ?? 0, 10)
        XCTAssertGreaterThan(checked["json"] ?? 0, 5)
        XCTAssertGreaterThan(checked["openstep"] ?? 0, 2)
    }

    /// 1,000 records with the same keys, written by Foundation (XML, JSON) or
    /// by Archivist (OpenStep, which Foundation reads but does not write).
    func testAKeyUsedInAThousandDictionariesIsOneNode() throws {
        let records: [[String: Any]] = (0..<1000).map { ["name": "item \($0)", "id": "\($0)", "tags": ["a", "b"]] }
        let xml = [UInt8](try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0))
        let json = [UInt8](try JSONSerialization.data(withJSONObject: records))
        let value = try XCTUnwrap(FoundationBridge.value(from: records))
        let openStep = try PropertyList.write(value, as: .openstep)
        XCTAssertEqual(try FoundationBridge.foundationRead(openStep), value)

        let documents = [
            ("xml direct", try readXML(xml, direct: true)),
            ("xml libxml2", try readXML(xml, direct: false)),
            ("json", try JSONPlistReader.read(json)),
            ("openstep", try OpenStepReader.read(openStep)),
        ]
        for (name, document) in documents {
            let tree = document.tree
            XCTAssertEqual(tree.value, value, name)
            XCTAssertEqual(tree.count(of: tree.root), 1000, name)
            for key in ["name", "id", "tags"] {
                XCTAssertEqual(stringNodes(tree, key), 1, "\(name): \"\(key)\" is one node")
            }
            let first = tree.element(0, of: tree.root), last = tree.element(999, of: tree.root)
            XCTAssertEqual(tree.node(forKey: "name", in: first).flatMap { tree.string(at: $0) }, "item 0", name)
            // Foundation writes each dictionary's keys in its own order: find "name" in each.
            func nameKey(_ record: Int) -> Int? {
                (0..<tree.count(of: record)).map { tree.entry($0, of: record).key }.first { tree.string(at: $0, equals: "name") }
            }
            XCTAssertNotNil(nameKey(first), name)
            XCTAssertEqual(nameKey(first), nameKey(last), name)
        }
    }

    /// A key repeated three times keeps its first place and its last value in
    /// every text format (Foundation keeps the last value too); each repeat
    /// is reported at itself and names the occurrence before it (XML) or the
    /// first (JSON, OpenStep), as before the readers built trees. A repeat
    /// is reported before the repeats inside its value.
    func testRepeatedKeysKeepTheirPlaceAndLastValue() throws {
        let xml = Array("""
        <plist><dict>
        <key>a</key><integer>1</integer>
        <key>b</key><integer>2</integer>
        <key>a</key><integer>3</integer>
        <key>a</key><dict>
        <key>x</key><true/>
        <key>x</key><false/>
        </dict>
        </dict></plist>
        """.utf8)
        let expected = PlistValue.dictionary(PlistDictionary([
            ("a", .dictionary(PlistDictionary([("x", .bool(false))]))), ("b", .int(2)),
        ]))
        XCTAssertEqual(try FoundationBridge.foundationRead(xml), expected)
        // The direct reader leaves repeated keys to libxml2's path, which reports them.
        for direct in [true, false] {
            let document = try readXML(xml, direct: direct)
            XCTAssertEqual(document.tree.value.description, expected.description)
            XCTAssertEqual(document.diagnostics.map(\.kind), [.duplicateKey, .duplicateKey, .duplicateKey])
            XCTAssertEqual(document.diagnostics.map(\.location), [.text(line: 4, column: 1), .text(line: 5, column: 1), .text(line: 7, column: 1)])
            XCTAssertEqual(document.diagnostics.map(\.related), [.text(line: 2, column: 1), .text(line: 4, column: 1), .text(line: 6, column: 1)])
        }

        let json = try JSONPlistReader.read(Array("{\"a\": 1, \"b\": 2,\n\"a\": 3,\n\"a\": {\"x\": true, \"x\": false}}".utf8))
        XCTAssertEqual(json.tree.value.description, expected.description)
        XCTAssertEqual(json.diagnostics.map(\.location), [.text(line: 2, column: 1), .text(line: 3, column: 18), .text(line: 3, column: 1)])
        XCTAssertEqual(json.diagnostics.map(\.related), [.text(line: 1, column: 2), .text(line: 3, column: 7), .text(line: 1, column: 2)])
        XCTAssertEqual(json.diagnostics.first?.message, "duplicate key \"a\"; the last value is kept")

        let openStep = Array("{a = 1; b = 2;\na = 3;\na = {x = <01>; x = <0203>;};}".utf8)
        let document = try OpenStepReader.read(openStep)
        let expectedOpenStep = PlistValue.dictionary(PlistDictionary([
            ("a", .dictionary(PlistDictionary([("x", .data([2, 3]))]))), ("b", .string("2")),
        ]))
        XCTAssertEqual(try FoundationBridge.foundationRead(openStep), expectedOpenStep)
        XCTAssertEqual(document.tree.value.description, expectedOpenStep.description)
        XCTAssertEqual(document.diagnostics.map(\.location), [.text(line: 2, column: 1), .text(line: 3, column: 16), .text(line: 3, column: 1)])
        XCTAssertEqual(document.diagnostics.map(\.related), [.text(line: 1, column: 2), .text(line: 3, column: 6), .text(line: 1, column: 2)])
    }

    /// Dictionaries past the size where the builder indexes their keys (32)
    /// and past the index's first growth (64), one inside another: keys
    /// repeated in the outer dictionary before and after the inner one, in
    /// the inner one, and an inner key with an outer key's text (not a
    /// repeat). XML (both paths), JSON and OpenStep read what Foundation reads.
    func testRepeatedKeysOfLargeAndNestedDictionaries() throws {
        for total in [31, 32, 33, 64, 65, 200] {
            func entries(_ prefix: String, inner: String?, xml: Bool) -> [String] {
                (0..<total).map { k in
                    // The last key repeats the third last (the outer's after the inner
                    // dictionary), the one before the middle repeats the second.
                    let key = k == total - 1 ? "\(prefix)\(total - 3)" : k == total / 2 - 1 ? "\(prefix)1" : k == total - 2 && prefix == "j" ? "k3" : "\(prefix)\(k)"
                    let plain = xml ? "<integer>\(k)</integer>" : "\"\(k)\""
                    let value = k == total / 2 ? inner ?? plain : plain
                    return xml ? "<key>\(key)</key>\(value)" : "\"\(key)\" = \(value)"
                }
            }
            let xmlInner = "<dict>" + entries("j", inner: nil, xml: true).joined() + "</dict>"
            let xml = Array(("<plist><dict>" + entries("k", inner: xmlInner, xml: true).joined() + "</dict></plist>").utf8)
            let expected = try XCTUnwrap(FoundationBridge.foundationRead(xml))
            XCTAssertEqual(expected.dictionaryValue?.count, total - 2, "\(total)")
            XCTAssertEqual(expected.dictionaryValue?["k\(total / 2)"]?.dictionaryValue?.count, total - 2, "\(total)")
            for direct in [true, false] {
                let document = try readXML(xml, direct: direct)
                XCTAssertEqual(document.tree.value, expected, "\(total) direct \(direct)")
                XCTAssertEqual(document.diagnostics.count, 4, "\(total) direct \(direct)")
            }
            let openStepInner = "{" + entries("j", inner: nil, xml: false).map { $0 + ";" }.joined() + "}"
            let openStep = Array(("{" + entries("k", inner: openStepInner, xml: false).map { $0 + ";" }.joined() + "}").utf8)
            let openStepExpected = try XCTUnwrap(FoundationBridge.foundationRead(openStep))
            let openStepDocument = try OpenStepReader.read(openStep)
            XCTAssertEqual(openStepDocument.tree.value, openStepExpected, "\(total)")
            XCTAssertEqual(openStepDocument.diagnostics.count, 4, "\(total)")
            let jsonInner = "{" + entries("j", inner: nil, xml: false).map { $0.replacingOccurrences(of: " = ", with: ": ") }.joined(separator: ",") + "}"
            let json = Array(("{" + entries("k", inner: jsonInner, xml: false).map { $0.replacingOccurrences(of: " = ", with: ": ") }.joined(separator: ",") + "}").utf8)
            let jsonExpected = try JSONSerialization.jsonObject(with: Data(json)) as? NSDictionary
            let jsonDocument = try JSONPlistReader.read(json)
            XCTAssertEqual(jsonDocument.tree.value.dictionaryValue?.count, jsonExpected?.count, "\(total)")
            XCTAssertEqual(jsonDocument.tree.value.description, openStepDocument.tree.value.description, "\(total)")
            XCTAssertEqual(jsonDocument.diagnostics.count, 4, "\(total)")
        }
    }

    /// `key;` in a strings file is `key = key;`: the value is the key's own node.
    func testStringsFileShorthandSharesTheKeyNode() throws {
        let text = Array("\"greeting\" = \"hello\";\nshorthand;\n".utf8)
        XCTAssertEqual(try FoundationBridge.foundationRead(text), .dictionary(PlistDictionary([("greeting", .string("hello")), ("shorthand", .string("shorthand"))])))
        let tree = try OpenStepReader.read(text).tree
        XCTAssertEqual(tree.entry(1, of: tree.root).key, tree.entry(1, of: tree.root).value)
        XCTAssertEqual(tree.string(at: tree.entry(1, of: tree.root).value), "shorthand")
    }
}
