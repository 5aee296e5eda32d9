import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// A migrated archive written from the tree it was read from (`GraphOutput`)
/// is, byte for byte, what `GraphWriter`'s tree of the same graph writes, in
/// binary and XML, for every archive of the corpus under every rules file.
final class GraphOutputTests: XCTestCase {
    /// Every keyed archive of the corpus, by name.
    func archives() throws -> [(name: String, tree: PlistTree)] {
        var out: [(String, PlistTree)] = []
        for folder in [TestPaths.archives, TestPaths.corpus.appendingPathComponent("foundation")] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() {
                guard let bytes = try? Data(contentsOf: folder.appendingPathComponent(name)),
                      let tree = try? PropertyList.read([UInt8](bytes)).tree,
                      KeyedArchive.looksLikeArchive(tree), (try? ObjectGraph(tree)) != nil else { continue }
                out.append((name, tree))
            }
        }
        return out
    }

    /// The rules files of the corpus, and boxing alone.
    func ruleSets() throws -> [(name: String, rules: MigrationRules)] {
        let folder = TestPaths.corpus.appendingPathComponent("rules")
        var out: [(String, MigrationRules)] = [("box", MigrationRules())]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
            out.append((name, try MigrationRules(bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))))
        }
        return out
    }

    func written(_ output: GraphOutput, as format: PlistFormat) throws -> [UInt8] {
        let sink = ByteSink(capacity: 64)
        var losses = WriteLosses()
        try output.write(as: format, options: WriteOptions(), into: sink, losses: &losses)
        return sink.bytes()
    }

    func assertSame(_ graph: ObjectGraph, _ label: String) throws {
        let output = try XCTUnwrap(try GraphOutput(graph), label)
        let tree = try GraphWriter.archive(graph)
        for format in [PlistFormat.binary, .xml] {
            XCTAssertEqual(try written(output, as: format), try PropertyList.write(tree, as: format), "\(label) as \(format)")
        }
    }

    func testUnchangedGraphsAreWrittenAsGraphWriterWritesThem() throws {
        let archives = try archives()
        XCTAssertGreaterThan(archives.count, 5)
        for (name, tree) in archives {
            try assertSame(try ObjectGraph(tree), name)
        }
    }

    func testMigratedGraphsAreWrittenAsGraphWriterWritesThem() throws {
        var compared = 0
        for (name, tree) in try archives() {
            for (rulesName, base) in try ruleSets() {
                // Every class allowed, so that only boxing decides what a secure decoder refuses.
                var rules = base
                rules.allowedClasses += Migrator(rules: base).classNames(in: tree).map(\.archived)
                rules.allowedClasses += rules.classes.compactMap(\.renameTo)
                let migrated: (report: MigrationReport, result: Migrator.Output)
                do {
                    migrated = try Migrator(rules: rules).migrateForWriting(tree)
                } catch is MigrationRefused {
                    continue
                }
                guard case .archive(let output) = migrated.result else { continue }
                let label = "\(name) under \(rulesName)"
                for format in [PlistFormat.binary, .xml] {
                    XCTAssertEqual(try written(output, as: format), try PropertyList.write(try GraphWriter.archive(output.graph), as: format),
                                   "\(label) as \(format)")
                }
                // What `migrate(_:)` gives (the tree the command wrote before) is the same archive.
                let outcome = try Migrator(rules: rules).migrate(tree)
                XCTAssertEqual(try written(output, as: .binary), try PropertyList.write(outcome.tree, as: .binary), label)
                XCTAssertEqual(outcome.report, migrated.report, label)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 10, "migrations compared")
    }
}
