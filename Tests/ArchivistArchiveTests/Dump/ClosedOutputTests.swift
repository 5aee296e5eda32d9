import ArchivistTestSupport
import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// A view stops being made at its output's first failed write (a closed
/// pipe): the renderers check the sink as they go, so what is rendered
/// after the failure is at most one node, not the rest of the view.
final class ClosedOutputTests: XCTestCase {
    struct Closed: Error {}

    func testRenderingStopsAtTheFirstFailedWrite() throws {
        let items = (0..<50_000).map { PlistValue.string("item \($0) " + String(repeating: "text ", count: 10)) }
        let tree = try PlistTree(.dictionary(PlistDictionary([("items", .array(items))])))
        let archive = try ObjectGraph(try PropertyList.read([UInt8](try NSKeyedArchiverStandIn.archive(items))).tree)
        let renderers: [(String, (ByteSink) throws -> Void)] = [
            ("text", { try TreeDumper.render(tree, into: $0) }),
            ("json", { sink in
                var json = JSONStream(into: sink)
                try json.view(of: tree, at: tree.root)
            }),
            ("archive text", { try ArchiveDumper.render(archive, into: $0) }),
            ("archive json", { try ArchiveJSONDumper.write(archive, into: $0) }),
        ]
        for (name, render) in renderers {
            var drains = 0
            let sink = ByteSink(capacity: 4_096) { _ in
                drains += 1
                throw Closed()
            }
            XCTAssertThrowsError(try render(sink), name) { XCTAssertTrue($0 is Closed, "\(name): \($0)") }
            XCTAssertEqual(drains, 1, name)
            XCTAssertLessThan(sink.byteCount, 8_192, "\(name): rendered after the failure")
        }
    }
}

/// A keyed archive of an array of strings, made without Foundation's archiver.
enum NSKeyedArchiverStandIn {
    static func archive(_ items: [PlistValue]) throws -> [UInt8] {
        let refs = (0..<items.count).map { PlistValue.uid(UInt64($0 + 3)) }
        return try PropertyList.write(ArchiveBuilder.archive(className: "NSArray", fields: [("NS.objects", .array(refs))], more: items), as: .binary)
    }
}
