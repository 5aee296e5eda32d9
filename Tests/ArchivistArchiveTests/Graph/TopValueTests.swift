import ArchivistTestSupport
import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// Plain values in `$top` (a top-level `encodeBool(_:forKey:)` or
/// `encodeInteger(_:forKey:)`): kept in order beside the objects, written
/// back, and containers there still refused.
final class TopValueTests: XCTestCase {
    private func archive(_ top: [(String, PlistValue)]) -> PlistValue {
        ArchiveBuilder.archive([.string("name")], top: top)
    }

    func testPlainValuesKeepTheirPlaceAmongObjects() throws {
        let graph = try ObjectGraph(archive([("flag", .bool(true)), ("root", .uid(1)), ("count", .int(5))]))
        XCTAssertEqual(graph.top.map(\.key), ["root"])
        XCTAssertEqual(graph.topEntries.map(\.key), ["flag", "root", "count"])
        XCTAssertEqual(graph.topEntries.map(\.entry), [.value(.bool(true)), .object(1), .value(.int(5))])
        let written = try GraphWriter.archive(graph).value
        let top = try XCTUnwrap(written.dictionaryValue?["$top"]?.dictionaryValue)
        XCTAssertEqual(top.keys, ["flag", "root", "count"])
        XCTAssertEqual(top["count"], .int(5))
        XCTAssertEqual(try ObjectGraph(written).topEntries.map(\.entry), graph.topEntries.map(\.entry))
    }

    func testOnlyPlainValues() throws {
        let graph = try ObjectGraph(archive([("IB.systemFontUpdateVersion", .int(1))]))
        var options = DumpOptions()
        options.stable = true
        XCTAssertEqual(try ArchiveDumper.render(graph, options: options),
                       "NSKeyedArchiver archive, 0 objects\n{\n  IB.systemFontUpdateVersion = 1 (inline integer)\n}\n")
    }

    func testContainersInTopAreRefused() {
        XCTAssertThrowsError(try KeyedArchive(archive([("root", .array([.uid(1)]))]))) { error in
            XCTAssertEqual((error as? PlistError)?.message, "$top.root is an array, not a UID or a plain value")
        }
    }
}
