@testable import ArchivistArchive
import ArchivistCore
import XCTest

/// `get`, `set` and `remove` step into data by the one rule and limit of
/// ``NestedDocuments``.
final class NestedDocumentsTests: XCTestCase {
    private func doc(_ bytes: [UInt8]) throws -> PlistTree {
        try PlistTree(.dictionary(PlistDictionary([("d", .data(bytes))])))
    }

    /// What `get` can step into, `set` edits (JSON written back as JSON);
    /// what `get` refuses, `set` refuses with the same message.
    func testSetAndGetAgreeOnWhatDataHolds() throws {
        let json = try doc(Array(#"{"k": "v"}"#.utf8))
        let edited = try PlistEditor.apply(.set(.string("w")), at: PlistKeyPath("d.k"), in: json)
        guard case .dictionary(let d) = edited, case .data(let bytes)? = d["d"] else { return XCTFail("\(edited)") }
        XCTAssertEqual(NestedData.read(bytes)?.kind, .json)
        guard case .tree(let node) = try PlistKeyPath("d.k").resolve(in: try PlistTree(edited)), node.stringValue == "w" else { return XCTFail("not edited") }

        // OpenStep text in data is data to every command (PlistEditor read it as a property list before).
        let text = try doc(Array(#"{ k = v; }"#.utf8))
        var messages: [String] = []
        XCTAssertThrowsError(try PlistKeyPath("d.k").resolve(in: text)) { messages.append("\($0)") }
        XCTAssertThrowsError(try PlistEditor.apply(.set(.string("w")), at: PlistKeyPath("d.k"), in: text)) { messages.append("\($0)") }
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages.first, messages.last)
        XCTAssertTrue(messages.first?.contains("holds no property list, archive, typedstream, bookmark or JSON") == true, "\(messages)")
    }

    /// Data whose root is data again: `set` follows it as deep as `get`
    /// does, and stops at the same level.
    func testSetStopsAtTheLevelGetStopsAt() throws {
        func rootData(_ levels: Int) throws -> PlistTree {
            var out = try PropertyList.write(.dictionary(PlistDictionary([("k", .string("v"))])), as: .binary)
            for _ in 0..<levels { out = try PropertyList.write(.data(out), as: .binary) }
            return try doc(out)
        }
        let deepest = try rootData(NestedData.maxLevels - 1)
        XCTAssertNoThrow(try PlistKeyPath("d.k").resolve(in: deepest))
        XCTAssertNoThrow(try PlistEditor.apply(.set(.string("w")), at: PlistKeyPath("d.k"), in: deepest))
        let past = try rootData(NestedData.maxLevels)
        for attempt in [{ _ = try PlistKeyPath("d.k").resolve(in: past) }, { _ = try PlistEditor.apply(.remove, at: PlistKeyPath("d.k"), in: past) }] {
            XCTAssertThrowsError(try attempt()) { error in
                XCTAssertTrue("\(error)".contains("more than \(NestedData.maxLevels) levels"), "\(error)")
            }
        }
    }

    /// An error inside a nested document gets the data's key path in front
    /// of its own; one with no archive location is named only when asked.
    func testRelocation() {
        let inner = PlistError(.archive, "broken", at: .archive(object: 3, keyPath: "root.name"))
        guard case .archive(3, "outer.root.name") = NestedDocuments.relocated(inner, under: "outer").location else { return XCTFail() }
        XCTAssertEqual(NestedDocuments.relocated(inner, under: "").location, inner.location)
        let plain = PlistError(.invalidValue, "bad")
        XCTAssertEqual(NestedDocuments.relocated(plain, under: "outer").message, "bad")
        XCTAssertEqual(NestedDocuments.relocated(plain, under: "outer", naming: true).message, "in the archive at outer: bad")
    }
}
