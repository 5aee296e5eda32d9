import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest
import ArchivistArchive

/// Foundation's classes in an archive read as values through the public API:
/// the archive is written by Foundation's NSKeyedArchiver and every value
/// found through `foundationObject(at:)` equals what was archived.
final class FoundationObjectTests: XCTestCase {
    func testAnArchiveOfFoundationValuesReadsBackAsThoseValues() throws {
        let when = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
        let url = try XCTUnwrap(NSURL(string: "https://example.com/a?b=1"))
        let root: NSDictionary = [
            "list": NSArray(array: ["a", NSNumber(value: 7)]),
            "when": NSDate(timeIntervalSinceReferenceDate: when.timeIntervalSinceReferenceDate),
            "blob": NSData(data: Data([0, 1, 254, 255])),
            "id": NSUUID(uuidString: id.uuidString) ?? NSUUID(),
            "link": url,
            "nothing": NSNull(),
            "name": NSString(string: "Ada é"),
        ]
        let bytes = try ArchiveBuilder.foundation(root)
        let graph = try ObjectGraph(try PropertyList.read(bytes).tree)
        guard let rootIndex = graph.topEntries.first(where: { $0.key == "root" }).flatMap({ entry -> Int? in
            if case .object(let i) = entry.entry { return i }
            return nil
        }), let dictionary = graph.foundationObject(at: rootIndex) else { return XCTFail("no root dictionary") }
        XCTAssertEqual(dictionary.kind, .dictionary)
        XCTAssertNil(dictionary.string)
        XCTAssertNil(dictionary.elements)

        func node(_ index: Int) -> ArchivedNode? {
            graph.nodes.indices.contains(index) ? graph.nodes[index] : nil
        }
        func text(_ index: Int) -> String? {
            if case .value(.string(let s))? = node(index) { return s }
            return graph.foundationObject(at: index)?.string
        }
        var byKey: [String: Int] = [:]
        for entry in dictionary.entries ?? [] {
            if let key = text(entry.key) { byKey[key] = entry.value }
        }
        XCTAssertEqual(Set(byKey.keys), ["list", "when", "blob", "id", "link", "nothing", "name"])

        let list = try XCTUnwrap(byKey["list"].flatMap(graph.foundationObject(at:)))
        XCTAssertEqual(list.kind, .collection)
        let elements = try XCTUnwrap(list.elements)
        XCTAssertEqual(elements.count, 2)
        XCTAssertEqual(text(elements[0]), "a")
        XCTAssertEqual(node(elements[1]), .value(.int(7)))

        XCTAssertEqual(byKey["when"].flatMap(graph.foundationObject(at:))?.date?.secondsSinceReferenceDate, when.timeIntervalSinceReferenceDate)
        XCTAssertEqual(byKey["blob"].flatMap { graph.foundationObject(at: $0)?.data ?? node($0)?.dataBytes }, [0, 1, 254, 255])
        let uuid = try XCTUnwrap(byKey["id"].flatMap(graph.foundationObject(at:)))
        XCTAssertEqual(uuid.kind, .uuid)
        XCTAssertEqual(uuid.string, id.uuidString)
        let link = try XCTUnwrap(byKey["link"].flatMap(graph.foundationObject(at:)))
        XCTAssertEqual(link.kind, .url)
        XCTAssertNil(link.urlBase)
        XCTAssertEqual(link.urlRelative.flatMap(text), "https://example.com/a?b=1")
        XCTAssertEqual(byKey["nothing"].flatMap(graph.foundationObject(at:))?.kind, .null)
        XCTAssertEqual(byKey["name"].flatMap(text), "Ada é")

        // Not Foundation values: plain values, indexes outside the graph.
        XCTAssertNil(graph.foundationObject(at: elements[1]))
        XCTAssertNil(graph.foundationObject(at: -1))
        XCTAssertNil(graph.foundationObject(at: graph.nodes.count))
    }
}

private extension ArchivedNode {
    var dataBytes: [UInt8]? {
        if case .value(.data(let b)) = self { return b }
        return nil
    }
}
