import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

final class PlistDiffTests: XCTestCase {
    /// Diffing documents' trees as read finds what diffing trees rebuilt from
    /// their values finds, errors included, for every pair of `Corpus/archives` files.
    func testTreesDiffAsValuesDo() throws {
        let folder = TestPaths.archives
        let documents = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            (name, try PropertyList.read([UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))))
        }
        XCTAssertGreaterThanOrEqual(documents.count, 10)
        var differing = 0
        for (nameA, a) in documents {
            for (nameB, b) in documents {
                let fromTrees = Result { try PlistDiff(a.tree, b.tree).changes }
                let fromValues = Result { try PlistDiff(try PlistTree(a.tree.value), try PlistTree(b.tree.value)).changes }
                switch (fromTrees, fromValues) {
                case (.success(let t), .success(let v)):
                    XCTAssertEqual(t, v, "\(nameA) \(nameB)")
                    if !t.isEmpty { differing += 1 }
                case (.failure(let t), .failure(let v)): XCTAssertEqual("\(t)", "\(v)", "\(nameA) \(nameB)")
                default: XCTFail("\(nameA) \(nameB): \(fromTrees) but \(fromValues)")
                }
            }
        }
        XCTAssertGreaterThan(differing, documents.count)
    }

    func testFormatsDoNotMatterAndChangesAreLocated() throws {
        let a = PlistValue.dictionary(PlistDictionary([("k", .int(1)), ("list", .array([.string("x")])), ("gone", .bool(true))]))
        let xml = try PropertyList.read(try PropertyList.write(a, as: .xml)).tree
        let binary = try PropertyList.read(try PropertyList.write(a, as: .binary)).tree
        XCTAssertTrue(try PlistDiff(xml, binary).changes.isEmpty)
        let b = PlistValue.dictionary(PlistDictionary([("k", .string("1")), ("list", .array([.string("x"), .string("y")])), ("new.key", .null)]))
        XCTAssertEqual(try PlistDiff(try PlistTree(a), try PlistTree(b)).lines, [
            "~ k: integer 1 -> string \"1\"",
            "+ list.1: string \"y\"",
            "- gone: bool true",
            "+ new\\.key: null null",
        ])
    }

    /// Archives compare as object graphs: the same objects at other indices are equal.
    func testArchivesCompareAsGraphs() throws {
        let tree = try PropertyList.read([UInt8](try Data(contentsOf: PlistEditorTests.corpus.appendingPathComponent("archives/computer.plist")))).tree
        let rewritten = try GraphWriter.archive(try ObjectGraph(tree))
        XCTAssertTrue(try PlistDiff(tree, rewritten).changes.isEmpty)
        let edited = try PlistEditor.apply(.set(.string("Z")), at: PlistKeyPath("root.cpu_coder.cores.1.coreID"), in: tree)
        XCTAssertEqual(try PlistDiff(tree, try PlistTree(edited)).lines, ["~ root.cpu_coder.cores.1.coreID: string \"C3D4\" -> string \"Z\""])
        var graph = try ObjectGraph(tree)
        graph.renameClass("MusicBox.Computer", to: "Shop.Computer")
        let migrated = try GraphWriter.archive(graph)
        XCTAssertEqual(try PlistDiff(tree, migrated).lines, ["~ root: class MusicBox.Computer -> Shop.Computer"])
    }

    /// A mangled name spelled readably is a rename of the archived class; a
    /// renamed superclass changes the chain; boxing changes the storage.
    func testMigrationsAreChanges() throws {
        let tree = try PropertyList.read([UInt8](try Data(contentsOf: PlistEditorTests.corpus.appendingPathComponent("archives/computer.plist")))).tree
        var graph = try ObjectGraph(tree)
        graph.renameClass("_TtCV8MusicBox3CPU8CPUCoder", to: "MusicBox.CPU.CPUCoder")
        XCTAssertEqual(try PlistDiff(tree, try GraphWriter.archive(graph)).lines,
                       ["~ root.cpu_coder: class MusicBox.CPU.CPUCoder (_TtCV8MusicBox3CPU8CPUCoder) -> MusicBox.CPU.CPUCoder"])
        var subclassed = try ObjectGraph(tree)
        let root = subclassed.top[0].object
        guard case .object(var computer) = subclassed.nodes[root] else { return XCTFail("root is an object") }
        computer.classChain = ["MusicBox.Computer", "MusicBox.Machine", "NSObject"]
        subclassed.nodes[root] = .object(computer)
        XCTAssertEqual(try PlistDiff(tree, try GraphWriter.archive(subclassed)).lines,
                       ["~ root: class chain MusicBox.Computer < NSObject -> MusicBox.Computer < MusicBox.Machine < NSObject"])
        // An archive in data inside an archive: compared as an archive, by the paths get takes.
        let scary = try Data(contentsOf: PlistEditorTests.corpus.appendingPathComponent("archives/scary-creature-v1.plist"))
        let holder = try PropertyList.read(try ArchiveBuilder.foundation(["inner": scary] as NSDictionary)).tree
        let scaryRules = try MigrationRules(bytes: [UInt8](try Data(contentsOf: PlistEditorTests.corpus.appendingPathComponent("rules/scary-creatures.json"))))
        let migratedHolder = try Migrator(rules: scaryRules).migrate(holder).tree
        let nestedLines = try PlistDiff(holder, migratedHolder).lines
        XCTAssertEqual(nestedLines, [
            "~ root.inner.root: class ScaryCreatures.ScaryCreatureData -> ScaryCreatures2.ScaryCreatureData",
            "~ root.inner.root.Rating: inline real 3.5 -> NSNumber 3.5",
        ])
        XCTAssertNoThrow(try PlistKeyPath("root.inner.root.Rating").resolve(in: migratedHolder))
        let outcome = try Migrator(rules: try MigrationRules(bytes: Array(#"{"allowedClasses": ["MusicBox.Computer", "_TtCV8MusicBox3CPU8CPUCoder", "MusicBox.CPUCore"]}"#.utf8))).migrate(tree)
        XCTAssertEqual(try PlistDiff(tree, outcome.tree).lines, [
            "~ root.cpu_coder.cores.0.constant: inline integer 1494 -> NSNumber 1494",
            "~ root.cpu_coder.cores.1.constant: inline integer 1494 -> NSNumber 1494",
        ])
    }
}
