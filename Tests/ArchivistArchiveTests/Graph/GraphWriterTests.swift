import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// Graphs written back by Archivist decode in Foundation's NSKeyedUnarchiver.
final class GraphWriterTests: XCTestCase {
    func roundTrip(_ data: Data, edit: (inout ObjectGraph) throws -> Void = { _ in }) throws -> Data {
        var graph = try ObjectGraph(try PropertyList.read([UInt8](data)).tree.value)
        try edit(&graph)
        let tree = try GraphWriter.archive(graph)
        _ = try KeyedArchive(tree)
        return Data(try PropertyList.write(tree, as: .binary))
    }

    func testFoundationValuesSurvive() throws {
        let shared = "shared" as NSString
        let original: NSDictionary = [
            "s": shared, "again": shared, "n": NSNumber(value: 42), "r": NSNumber(value: 2.5), "d": Date(timeIntervalSinceReferenceDate: 12.5),
            "data": Data([1, 2, 3]), "list": NSArray(array: [shared, NSNumber(value: 1)]), "set": NSSet(array: ["x", "y"]),
            "uuid": NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? NSUUID(), "nested": ["k": ["v"]] as NSDictionary,
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: original, requiringSecureCoding: false)
        let written = try roundTrip(data)
        let back = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(written) as? NSDictionary
        XCTAssertEqual(back, original)
    }

    func testCustomObjectsSharedOnceAndBoxed() throws {
        let rex = Pet(name: "Rex", weight: 12.5, legs: 4, friend: nil)
        let pets = NSArray(array: [Pet(name: "Tom", weight: 4, legs: 3, friend: rex), rex])
        let data = try NSKeyedArchiver.archivedData(withRootObject: pets, requiringSecureCoding: false)
        let written = try roundTrip(data) { graph in
            for i in graph.nodes.indices where graph.object(i)?.className.readable.hasSuffix("Pet") == true {
                XCTAssertTrue(graph.boxInlinePrimitive("weight", inObject: i))
            }
        }
        let graph = try ObjectGraph(try PropertyList.read([UInt8](written)).tree.value)
        let petObjects = graph.nodes.indices.compactMap { graph.object($0) }.filter { $0.className.readable.hasSuffix("Pet") }
        XCTAssertEqual(petObjects.count, 2, "Rex is written once")
        XCTAssertTrue(petObjects.allSatisfy { if case .reference? = $0["weight"] { return true } else { return false } })
        let back = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(written) as? [Pet]
        XCTAssertEqual(back?.map(\.name), ["Tom", "Rex"])
        XCTAssertEqual(back?.map(\.weight), [4, 12.5])
        XCTAssertEqual(back?.map(\.legs), [3, 4])
        XCTAssertTrue(back?[0].friend === back?[1], "the shared object stays shared")
    }

    func testEditsRenameAndRemove() throws {
        let url = TestPaths.corpus.appendingPathComponent("archives/scary-creature-v1.plist")
        var graph = try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree.value)
        XCTAssertEqual(graph.renameClass("ScaryCreatures.ScaryCreatureData", to: "ScaryCreatures2.ScaryCreatureData"), 1)
        let root = graph.top[0].object
        XCTAssertTrue(graph.renameField("Title", to: "Name", inObject: root))
        XCTAssertTrue(graph.boxInlinePrimitive("Rating", inObject: root))
        XCTAssertFalse(graph.removeField("Missing", fromObject: root))
        let tree = try GraphWriter.archive(graph)
        let again = try ObjectGraph(tree)
        let object = try XCTUnwrap(again.object(again.top[0].object))
        XCTAssertEqual(object.className.archived, "ScaryCreatures2.ScaryCreatureData")
        XCTAssertEqual(object.classChain.first, "ScaryCreatures2.ScaryCreatureData")
        XCTAssertEqual(object.fields.map(\.key).sorted(), ["Name", "Rating"])
        guard case .reference(let r)? = object["Rating"] else { return XCTFail("Rating not boxed") }
        XCTAssertEqual(again.nodes[r], .value(.real(PlistReal(float: 3.5))))
    }

    func testCyclesSurviveWriting() throws {
        let url = TestPaths.corpus.appendingPathComponent("archives/cycle.plist")
        let graph = try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree.value)
        let rewritten = try ObjectGraph(try GraphWriter.archive(graph))
        XCTAssertEqual(try ArchiveDumper.render(rewritten), try ArchiveDumper.render(graph))
    }
}
