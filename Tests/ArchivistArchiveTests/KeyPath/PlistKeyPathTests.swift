import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

final class PlistKeyPathTests: XCTestCase {
    func load(_ name: String) throws -> PlistTree {
        try PropertyList.read([UInt8](try Data(contentsOf: TestPaths.corpus.appendingPathComponent("\(name)")))).tree
    }

    func testParsingWithEscapes() {
        XCTAssertEqual(PlistKeyPath("a.b\\.c.0").components, ["a", "b.c", "0"])
        XCTAssertEqual(PlistKeyPath("a.b\\.c.0").description, "a.b\\.c.0")
        XCTAssertEqual(PlistKeyPath("").components, [])
    }

    func testPlainTreesAndNestedArchives() throws {
        let info = try load("foundation/info-plist.bplist")
        // A plain tree's target is its node, nothing converted.
        guard case .tree(let node) = try PlistKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.0").resolve(in: info) else { return XCTFail() }
        XCTAssertEqual(node.stringValue, "archivist")
        XCTAssertEqual(node.tree.nodeCount, info.nodeCount, "a node of the file's own tree")
        XCTAssertThrowsError(try PlistKeyPath("CFBundleURLTypes.3").resolve(in: info)) { e in
            XCTAssertEqual((e as? PlistError)?.message, "CFBundleURLTypes.3: index 3 out of range (array of 1)")
        }
        let prefs = try load("archives/preferences-with-user.plist")
        guard case .node(let graph, let i) = try PlistKeyPath("currentUser.root.name").resolve(in: prefs) else { return XCTFail() }
        XCTAssertEqual(graph.nodes[i], .value(.string("Ada")))
        guard case .value(let age) = try PlistKeyPath("currentUser.root.age").resolve(in: prefs) else { return XCTFail() }
        XCTAssertEqual(age, .int(36))
    }

    func testThroughArchiveObjects() throws {
        let computer = try load("archives/computer.plist")
        guard case .node(let graph, let i) = try PlistKeyPath("root.cpu_coder.cores.1.coreID").resolve(in: computer) else { return XCTFail() }
        XCTAssertEqual(graph.nodes[i], .value(.string("C3D4")))
        XCTAssertThrowsError(try PlistKeyPath("root.cpu_coder.nope").resolve(in: computer)) { e in
            XCTAssertEqual((e as? PlistError)?.message, "root.cpu_coder.nope: MusicBox.CPU.CPUCoder has no field \"nope\" (fields: clock, constant, cores)")
        }
        XCTAssertThrowsError(try PlistKeyPath("top").resolve(in: computer))
    }

    /// An empty path leads to the whole archive (no sentinel node index):
    /// its type is "archive" and its plain tree is the archive exported.
    func testAnEmptyPathLeadsToTheWholeArchive() throws {
        let computer = try load("archives/computer.plist")
        let target = try PlistKeyPath("").resolve(in: computer)
        guard case .archive(let graph) = target else { return XCTFail("\(target)") }
        XCTAssertEqual(graph.topEntries.map(\.key), ["root"])
        XCTAssertEqual(target.typeName, "archive")
        XCTAssertEqual(try target.plainValue(), try CodableExport.value(graph, options: CodableOptions(cycles: .omit, nativeLeaves: true)))
        // Inside data, the path's next component is still a $top key.
        let prefs = try load("archives/preferences-with-user.plist")
        guard case .node = try PlistKeyPath("currentUser.root").resolve(in: prefs) else { return XCTFail() }
    }
}
