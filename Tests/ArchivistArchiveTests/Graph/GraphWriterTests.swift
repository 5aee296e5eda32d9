import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// Graphs written back by Archivist decode in Foundation's NSKeyedUnarchiver.
final class GraphWriterTests: XCTestCase {
    func roundTrip(_ data: Data, edit: (inout ObjectGraph) throws -> Void = { _ in }) throws -> Data {
        var graph = try ObjectGraph(try PropertyList.read([UInt8](data)).tree)
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
        let graph = try ObjectGraph(try PropertyList.read([UInt8](written)).tree)
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
        var graph = try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree)
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
        let graph = try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree)
        let rewritten = try ObjectGraph(try GraphWriter.archive(graph))
        XCTAssertEqual(try ArchiveDumper.render(rewritten), try ArchiveDumper.render(graph))
    }
}

/// The tree GraphWriter builds copies unedited objects from the archive's
/// tree; it must be the tree the value path writes for the same graph.
final class GraphWriterTreeTests: XCTestCase {
    /// The graph with every node replaced by itself, so that each is written
    /// from its `ArchivedNode` (through `PlistValue`), as every node was
    /// before the writer copied from the tree.
    private func everyNodeEdited(_ graph: ObjectGraph) -> ObjectGraph {
        var edited = graph
        for i in graph.nodes.indices { edited.nodes[i] = graph.nodes[i] }
        return edited
    }

    func testCopiedObjectsEqualObjectsWrittenFromValues() throws {
        let folder = TestPaths.archives
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let tree = try PropertyList.read([UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))).tree
            guard KeyedArchive.looksLikeArchive(tree), let graph = try? ObjectGraph(tree) else { continue }
            let copied = try GraphWriter.archive(graph)
            let fromValues = try GraphWriter.archive(everyNodeEdited(graph))
            XCTAssertEqual(copied.value, fromValues.value, name)
            // Written again, the archive is the same tree: numbering is stable.
            XCTAssertEqual(try GraphWriter.archive(try ObjectGraph(copied)).value, copied.value, name)
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 8)
    }

    /// Foundation decodes what either path writes to equal objects, for an
    /// archive with shared objects, inline and referenced values and nesting.
    func testFoundationDecodesBothPathsAlike() throws {
        let shared = "shared" as NSString
        let original: NSDictionary = [
            "s": shared, "again": shared, "n": NSNumber(value: 42), "r": NSNumber(value: 2.5), "d": Date(timeIntervalSinceReferenceDate: 12.5),
            "data": Data([1, 2, 3]), "list": NSArray(array: [shared, NSNumber(value: 1)]), "set": NSSet(array: ["x", "y"]),
            "nested": ["k": ["v", NSNumber(value: 7)]] as NSDictionary,
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: original, requiringSecureCoding: false)
        let graph = try ObjectGraph(try PropertyList.read([UInt8](data)).tree)
        for (label, written) in [("copied", try GraphWriter.archive(graph)), ("values", try GraphWriter.archive(everyNodeEdited(graph)))] {
            let bytes = Data(try PropertyList.write(written, as: .binary))
            let back = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(bytes) as? NSDictionary
            XCTAssertEqual(back, original, label)
        }
    }

    /// An inline value several objects share in the archive's tree is copied
    /// once into the new tree, not once per object.
    func testSharedInlineValueIsCopiedOnce() throws {
        // A tree whose 50 objects share one data node, as a binary plist's
        // shared object reads.
        let count = 50
        var b = PlistTreeBuilder()
        let blob = [UInt8](repeating: 7, count: 100_000).withUnsafeBytes { b.data($0) }
        var entries = [try b.value(.string("$null"))]
        for _ in 0..<count {
            var holder = b.openDictionary()
            _ = b.add(key: b.key("blob"), value: blob, to: &holder)
            _ = b.add(key: b.key("$class"), value: b.uid(UInt64(count + 1)), to: &holder)
            entries.append(b.close(holder))
        }
        entries.append(try b.value(.dictionary(PlistDictionary([("$classname", .string("Holder")), ("$classes", .array([.string("Holder"), .string("NSObject")]))]))))
        entries.append(try b.value(.dictionary(PlistDictionary([("NS.objects", .array((1...count).map { .uid(UInt64($0)) })), ("$class", .uid(UInt64(count + 3)))]))))
        entries.append(try b.value(.dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))]))))
        let objectsMark = b.openArray()
        for entry in entries { b.append(entry, to: objectsMark) }
        let objects = b.close(objectsMark)
        let top = try b.value(.dictionary(PlistDictionary([("root", .uid(UInt64(count + 2)))])))
        let archiver = b.string("NSKeyedArchiver"), version = b.integer(PlistInteger(Int64(100_000)))
        var envelope = b.openDictionary()
        for (key, node) in [("$archiver", archiver), ("$version", version), ("$top", top), ("$objects", objects)] {
            _ = b.add(key: b.key(key), value: node, to: &envelope)
        }
        let root = b.close(envelope)
        let read = try b.finish(root: root)
        XCTAssertLessThan(read.storageSize, 2 * 100_000 + 64 * 1024, "the input shares the data")
        let written = try GraphWriter.archive(try ObjectGraph(read))
        XCTAssertLessThan(written.storageSize, 2 * 100_000 + 64 * 1024, "the shared data is stored once")
        XCTAssertEqual(try ObjectGraph(written).objectCount, count + 1)
    }
}
