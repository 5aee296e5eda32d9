import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// The archive checks take the objects validation reached instead of
/// walking the graph again only when the two walks reach the same objects.
final class ArchiveCheckWalkTests: XCTestCase {
    /// The reached objects of an archive, walked on the graph and as validation found them.
    private func reached(_ tree: PlistTree) throws -> (graph: [Bool], validated: [Bool], shared: Bool) {
        let archive = try KeyedArchive(tree)
        let graph = ObjectGraph(archive)
        return (ArchiveCheckWalk(graph).reached, ArchiveCheckWalk(graph, readFrom: archive).reached, archive.reachIsGraphReach)
    }

    func testEveryCorpusArchiveReachesTheSameObjectsEitherWay() throws {
        var archives = 0, shared = 0
        // The package's corpus, the conformance corpus and the real files, every file below them.
        for folder in [TestPaths.corpus, TestPaths.sharedCorpus, TestPaths.realWorld] {
            let names = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
            for name in names.sorted() {
                guard let bytes = try? Data(contentsOf: folder.appendingPathComponent(name)), bytes.count < 64 << 20,
                      let tree = try? PropertyList.read([UInt8](bytes)).tree, KeyedArchive.looksLikeArchive(tree),
                      let walks = try? reached(tree) else { continue }
                XCTAssertEqual(walks.validated, walks.graph, name)
                archives += 1
                if walks.shared { shared += 1 }
            }
        }
        XCTAssertGreaterThan(archives, 20)
        XCTAssertGreaterThan(shared, archives / 2)
    }

    /// UIDs the graph does not follow (inside an inline dictionary, in a list
    /// that also holds a number, in an entry that is not an object): validation
    /// reaches more, so the checks walk the graph themselves.
    func testUIDsOutsideTheGraphsEdgesKeepTheGraphWalk() throws {
        let shapes: [(String, PlistValue)] = [
            ("inline dictionary", .dictionary(PlistDictionary([("x", .uid(3))]))),
            ("mixed list", .array([.uid(3), .int(1)])),
            ("list in a list", .array([.array([.uid(3)])])),
        ]
        for (label, field) in shapes {
            // $objects: $null, the class (UID 1), the root (UID 2), the object only `field` refers to (UID 3).
            let objects: [PlistValue] = [
                ArchiveBuilder.classEntry("App.Node"),
                ArchiveBuilder.object([("field", field), ("n", .int(1))], classAt: 1),
                ArchiveBuilder.object([("n", .int(2))], classAt: 1),
            ]
            let walks = try reached(try PlistTree(ArchiveBuilder.archive(objects, top: [("root", .uid(2))])))
            XCTAssertFalse(walks.shared, label)
            XCTAssertEqual(walks.validated, walks.graph, label)
            XCTAssertEqual(walks.graph, [false, false, true, false], label)
        }
        // A list of UIDs only is an edge list: the walks agree, and validation's is taken.
        let objects: [PlistValue] = [
            ArchiveBuilder.classEntry("App.Node"),
            ArchiveBuilder.object([("field", .array([.uid(3), .uid(3)])), ("n", .int(1))], classAt: 1),
            ArchiveBuilder.object([("n", .int(2))], classAt: 1),
        ]
        let walks = try reached(try PlistTree(ArchiveBuilder.archive(objects, top: [("root", .uid(2))])))
        XCTAssertTrue(walks.shared)
        XCTAssertEqual(walks.graph, [false, false, true, true])
        XCTAssertEqual(walks.validated, walks.graph)
    }
}
