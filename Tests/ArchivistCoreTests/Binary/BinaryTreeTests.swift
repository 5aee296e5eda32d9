import Foundation
import XCTest
@testable import ArchivistCore

/// The binary reader builds a compact tree: an object the file shares is one
/// node, keys are stored once, and keys are told apart as CoreFoundation tells them.
final class BinaryTreeTests: XCTestCase {
    /// Foundation writes each distinct string once; the tree has no more nodes
    /// than the file has objects, and reads back as Foundation reads the file.
    func testSharedObjectsAreOneNode() throws {
        let record: [String: Any] = ["name": "Ada Lovelace", "tags": ["a", "b", "a"], "note": String(repeating: "x", count: 300)]
        let root: [Any] = Array(repeating: record, count: 50)
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0))
        let document = try BinaryPlistReader.read(bytes)
        let tree = document.tree
        let objects = try bytes.withUnsafeBytes { try BinaryTrailer($0).numObjects }
        XCTAssertLessThanOrEqual(tree.nodeCount, objects)
        XCTAssertEqual(document.tree.value, try FoundationBridge.foundationRead(bytes))
        // An array referring 20 times to one 150-byte string: one string node,
        // its bytes in the arena once.
        let note = [0x5F, 0x10, 150] + [UInt8](repeating: 0x78, count: 150)
        let shared = Fixtures.bplist([[0xAF, 0x10, 20] + [UInt8](repeating: 1, count: 20), note])
        let sharedTree = try BinaryPlistReader.read(shared).tree
        XCTAssertEqual(sharedTree.nodeCount, 2)
        XCTAssertEqual(sharedTree.bytes.count, 150)
        XCTAssertEqual(try BinaryPlistReader.read(shared).tree.value, try FoundationBridge.foundationRead(shared))
        // As a value, the uses after the second share one string's storage.
        guard case .array(let items) = try BinaryPlistReader.read(shared).tree.value,
              case .string(var second) = items[1], case .string(var last) = items[19] else { return XCTFail("strings") }
        let a = second.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        let b = last.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        XCTAssertEqual(a, b)
    }

    /// Keys repeated across dictionaries by a writer that does not share them
    /// become one node each; a repeated key in one dictionary is reported and
    /// keeps its first place with the first value, as CoreFoundation reads it.
    func testKeysAreInternedAndDuplicatesFound() throws {
        // Objects: 0 = [1, 2]; 1 = {3: 5, 4: 6}; 2 = {7: 5, 3: 6, 4: 5}; 3 "a"; 4 "b"; 5 = 1; 6 = 2; 7 "a" (a second "a").
        let bytes = Fixtures.bplist([
            [0xA2, 1, 2],
            [0xD2, 3, 4, 5, 6],
            [0xD3, 7, 3, 4, 5, 6, 5],
            [0x51, 0x61], [0x51, 0x62], [0x10, 1], [0x10, 2], [0x51, 0x61],
        ])
        let document = try BinaryPlistReader.read(bytes)
        XCTAssertEqual(document.diagnostics.map(\.kind), [.duplicateKey])
        XCTAssertEqual(document.diagnostics.first?.message, "duplicate key \"a\" in dictionary (the first value is kept)")
        let tree = document.tree
        let second = tree.element(1, of: tree.root)
        XCTAssertEqual(tree.count(of: second), 2)
        XCTAssertEqual(tree.entry(0, of: second).key, tree.entry(0, of: tree.element(0, of: tree.root)).key)
        XCTAssertEqual(tree.integer(at: tree.entry(0, of: second).value), PlistInteger(Int64(1)))
        XCTAssertEqual(try FoundationBridge.foundationRead(bytes), document.tree.value)
    }

    /// CoreFoundation compares keys code unit by code unit, as the text
    /// readers do: "é" and "e" with a combining accent are two keys (no
    /// duplicate); a Latin-1 "é" and a UTF-16 "é" are one. (Foundation on
    /// Linux bridges keys to Swift strings, which merges the first pair, so it
    /// is no oracle here.)
    func testKeysCompareAsCoreFoundationCompares() throws {
        let precomposed: [UInt8] = [0x61, 0x00, 0xE9]
        let decomposed: [UInt8] = [0x62, 0x00, 0x65, 0x03, 0x01]
        let latin1: [UInt8] = [0x51, 0xE9]
        let distinct = Fixtures.bplist([[0xD2, 1, 2, 3, 3], precomposed, decomposed, [0x10, 1]])
        let a = try BinaryPlistReader.read(distinct)
        XCTAssertEqual(a.diagnostics, [])
        guard case .dictionary(let d) = a.tree.value else { return XCTFail() }
        XCTAssertEqual(d.count, 2)
        let same = Fixtures.bplist([[0xD2, 1, 2, 3, 3], latin1, precomposed, [0x10, 1]])
        let b = try BinaryPlistReader.read(same)
        XCTAssertEqual(b.diagnostics.map(\.kind), [.duplicateKey])
        XCTAssertEqual(b.tree.value.dictionaryValue?.count, 1)
        XCTAssertEqual((try FoundationBridge.foundationRead(same))?.dictionaryValue?.count, 1)
    }

    /// A string object used as a value and then as a key is one node, and a
    /// lone surrogate in a key is reported once and read as U+FFFD.
    func testStringSharedAsValueAndKey() throws {
        // 0 = [1, 2]; 1 = "k" (UTF-16 with a lone surrogate); 2 = {1: 3}; 3 = 7.
        let bytes = Fixtures.bplist([[0xA2, 1, 2], [0x62, 0x00, 0x6B, 0xD8, 0x00], [0xD1, 1, 3], [0x10, 7]])
        let document = try BinaryPlistReader.read(bytes)
        XCTAssertEqual(document.diagnostics.map(\.kind), [.loneSurrogate])
        let tree = document.tree
        let dict = tree.element(1, of: tree.root)
        XCTAssertEqual(tree.entry(0, of: dict).key, tree.element(0, of: tree.root))
        XCTAssertEqual(tree.string(at: tree.element(0, of: tree.root)), "k\u{FFFD}")
    }
}
