import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// The one walk into data: what it visits, the key paths it gives, where it
/// stops, and that `get`, `lint --secure`, the rules census and `info` agree
/// on it because they all use it.
final class NestedArchiveWalkTests: XCTestCase {
    private func archived(_ root: Any) throws -> [UInt8] {
        try ArchiveBuilder.foundation(root)
    }

    private func visits(_ value: PlistValue) throws -> [(path: String, level: Int, kind: NestedData.Kind?, classes: [String])] {
        var out: [(String, Int, NestedData.Kind?, [String])] = []
        try NestedArchiveWalk.archives(in: try PlistTree(value), broken: .fail) { a in
            let names = a.graph.nodes.compactMap { node -> String? in
                if case .object(let o) = node { return o.className.archived }
                return nil
            }
            out.append((a.keyPath, a.level, a.kind, names))
        }
        return out
    }

    /// A preferences file holding an archive whose object holds an archive in
    /// its data, which holds an XML property list in data holding an archive.
    func testArchivesAreVisitedAtEveryLevelWithTheKeyPathGetTakes() throws {
        let innermost = try archived(OwnerV1(name: "Ada", age: 36))
        let xml = try PropertyList.write(.dictionary(PlistDictionary([("owner", .data(innermost))])), as: .xml)
        let middle = try archived(NSDictionary(dictionary: ["blob": NSData(data: Data(xml))]))
        let outer = try archived(NSArray(array: [NSData(data: Data(middle)), NSString(string: "x")]))
        let prefs = PlistValue.dictionary(PlistDictionary([("state", .array([.string("a"), .data(outer)]))]))

        let seen = try visits(prefs)
        XCTAssertEqual(seen.map(\.path), ["state.1", "state.1.root.0", "state.1.root.0.root.blob.owner"])
        XCTAssertEqual(seen.map(\.level), [1, 2, 4])
        XCTAssertEqual(seen.map(\.kind), [.keyedArchive(.binary), .keyedArchive(.binary), .keyedArchive(.binary)])
        XCTAssertEqual(seen.last?.classes, [NSStringFromClass(OwnerV1.self)])

        // Every key path the walk gives is one `get` resolves to that archive's root.
        for visit in seen {
            let target = try PlistKeyPath(visit.path + ".root").resolve(in: prefs)
            guard case .node(let graph, let index) = target, case .object(let o)? = graph.nodes[safe: index] else {
                return XCTFail("\(visit.path).root is not an object")
            }
            XCTAssertEqual(o.className.archived, visit.classes.first)
        }

        // lint --secure reports the innermost object under that same path.
        let errors = try SecureCodingCheck.errors(in: try PlistTree(prefs), policy: SecurePolicy(allowing: []))
        let owner = errors.filter { $0.message.contains(NSStringFromClass(OwnerV1.self)) }
        XCTAssertFalse(owner.isEmpty)
        for error in owner {
            guard case .archive(_, let keyPath) = error.location else { return XCTFail("\(error)") }
            XCTAssertTrue(keyPath.hasPrefix("state.1.root.0.root.blob.owner.root"), keyPath)
        }

        // The census counts the innermost class; info lists every nested archive.
        var census = RulesCensus()
        census.add(try PlistTree(prefs))
        XCTAssertTrue(census.classNames.contains { $0.archived == NSStringFromClass(OwnerV1.self) })
        let info = try FileInfo(try PropertyList.write(prefs, as: .binary))
        XCTAssertEqual(info.report["nestedArchives"]?.arrayValue?.compactMap { $0["keyPath"]?.stringValue }, seen.map(\.path))
    }

    /// Data inside data is followed `NestedData.maxLevels` levels deep, no
    /// further: the archive at the limit is visited, the one past it is not.
    func testTheWalkStopsAtTheNestingLimit() throws {
        func wrap(_ bytes: [UInt8], levels: Int) throws -> [UInt8] {
            var out = bytes
            for _ in 0..<levels { out = try PropertyList.write(.dictionary(PlistDictionary([("d", .data(out))])), as: .binary) }
            return out
        }
        let archive = try archived(NSString(string: "deep"))
        let atLimit = PlistValue.data(try wrap(archive, levels: NestedData.maxLevels - 1))
        let pastLimit = PlistValue.data(try wrap(archive, levels: NestedData.maxLevels))
        let reached = try visits(.dictionary(PlistDictionary([("d", atLimit)])))
        XCTAssertEqual(reached.map(\.level), [NestedData.maxLevels])
        XCTAssertEqual(try visits(.dictionary(PlistDictionary([("d", pastLimit)]))).count, 0)

        // get follows the path it is given; data whose root is data again is
        // stepped into for one key only as deep as the limit.
        func rootData(_ levels: Int) throws -> PlistValue {
            var out = try PropertyList.write(.dictionary(PlistDictionary([("k", .string("v"))])), as: .binary)
            for _ in 0..<levels { out = try PropertyList.write(.data(out), as: .binary) }
            return .dictionary(PlistDictionary([("d", .data(out))]))
        }
        guard case .tree(let node) = try PlistKeyPath("d.k").resolve(in: try rootData(NestedData.maxLevels - 1)), node.stringValue == "v" else {
            return XCTFail("not reached at the limit")
        }
        XCTAssertThrowsError(try PlistKeyPath("d.k").resolve(in: try rootData(NestedData.maxLevels))) { error in
            XCTAssertTrue("\(error)".contains("more than \(NestedData.maxLevels) levels"), "\(error)")
        }
    }

    /// A broken archive in data: skipped when counting, and, when failing,
    /// reported under the key path of the data holding it.
    func testABrokenNestedArchiveIsSkippedOrLocated() throws {
        let broken = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(7))]))), ("$objects", .array([.string("$null")])),
        ]))
        let prefs = PlistValue.dictionary(PlistDictionary([("saved", .data(try PropertyList.write(broken, as: .binary)))]))
        var count = 0
        try NestedArchiveWalk.archives(in: try PlistTree(prefs), broken: .skip) { _ in count += 1 }
        XCTAssertEqual(count, 0)
        XCTAssertThrowsError(try NestedArchiveWalk.archives(in: try PlistTree(prefs), broken: .fail) { _ in }) { error in
            guard case .archive(_, let keyPath)? = (error as? PlistError)?.location else { return XCTFail("\(error)") }
            XCTAssertTrue(keyPath.hasPrefix("saved"), keyPath)
        }
    }

    /// What data holds is one definition: the dumpers show decoded exactly
    /// what `get` can step into.
    func testDumpAndGetAgreeOnWhatDataHolds() throws {
        let samples: [(String, [UInt8], NestedData.Kind?)] = [
            ("archive", try archived(NSString(string: "s")), .keyedArchive(.binary)),
            ("xml", try PropertyList.write(.dictionary(PlistDictionary([("k", .string("v"))])), as: .xml), .propertyList(.xml)),
            ("json", Array(#" {"k": "v"}"#.utf8), .json),
            ("openstep text", Array(#"{ k = v; }"#.utf8), nil),
            ("bytes", [0, 1, 2, 3], nil),
        ]
        for (name, bytes, kind) in samples {
            XCTAssertEqual(NestedData.read(bytes)?.kind, kind, name)
            XCTAssertEqual(TreeDumper.showsDecoded(bytes), kind != nil, name)
            let doc = PlistValue.dictionary(PlistDictionary([("d", .data(bytes))]))
            let step = kind == .keyedArchive(.binary) ? "d.root" : "d.k"
            if kind == nil {
                XCTAssertThrowsError(try PlistKeyPath(step).resolve(in: doc), name)
            } else {
                XCTAssertNoThrow(try PlistKeyPath(step).resolve(in: doc), name)
            }
        }
    }
}
