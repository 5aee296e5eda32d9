import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// A small archive of shared objects that describes millions of values is
/// refused before it is expanded (a 752-byte archive of 10 fields x 7 levels
/// cost 520 MB and seconds before the limit stopped it).
final class ExpansionBoundTests: XCTestCase {
    /// `levels` objects, each with `fields` fields that all refer to the
    /// object of the next level; the last level's fields refer to a string.
    static func sharedLevels(fields: Int, levels: Int) -> PlistValue {
        var objects: [PlistValue] = [.string("$null")]
        let classIndex = UInt64(levels + 2)
        for level in 0..<levels {
            let fieldList = (0..<fields).map { ("f\($0)", PlistValue.uid(UInt64(level + 2))) }
            objects.append(.dictionary(PlistDictionary(fieldList + [("$class", .uid(classIndex))])))
        }
        objects.append(.string("leaf"))
        objects.append(.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node"), .string("NSObject")]))])))
        return .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
    }

    /// 11,111,111 values: refused with nothing counted or written.
    func testRefusedBeforeExpanding() throws {
        let graph = try ObjectGraph(Self.sharedLevels(fields: 10, levels: 7))
        var exporter = CodableExporter(graph: graph, rules: MigrationRules(), options: CodableOptions(), budget: 10_000_000, nesting: 0)
        XCTAssertThrowsError(try exporter.root()) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
            XCTAssertEqual((error as? PlistError)?.location, .archive(object: nil, keyPath: "root"))
        }
        XCTAssertEqual(exporter.budget, 10_000_000, "no value was counted before the refusal")
        XCTAssertTrue(exporter.exported.isEmpty, "no object was exported before the refusal")
        XCTAssertThrowsError(try CodableExport.value(graph, node: 1, options: CodableOptions(cycles: .omit, nativeLeaves: true)))
        // A diff walks the graph instead, each shared object once.
        let shared = try PlistTree(Self.sharedLevels(fields: 10, levels: 7))
        XCTAssertEqual(try PlistDiff(shared, shared).changes, [])
    }

    /// Below the limit the estimate is exactly what the export counts.
    func testEstimateIsWhatTheExportCounts() throws {
        let graph = try ObjectGraph(Self.sharedLevels(fields: 10, levels: 4))
        var exporter = CodableExporter(graph: graph, rules: MigrationRules(), options: CodableOptions(), budget: 10_000_000, nesting: 0)
        XCTAssertEqual(exporter.expandedCount(of: [1], cap: 10_000_000), 11_111)
        _ = try exporter.root()
        XCTAssertEqual(10_000_000 - exporter.budget, 11_111)
        XCTAssertEqual(exporter.expandedCount(of: [1], cap: 100), 101, "saturates just past the cap")
    }

    /// Cycles: a reference back adds nothing to the estimate; the export
    /// reports the cycle itself (or omits the reference).
    func testCyclesAreLeftToTheExport() throws {
        let node = PlistValue.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node")]))]))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([.string("$null"), .dictionary(PlistDictionary([("me", .uid(1)), ("n", .int(3)), ("$class", .uid(2))])), node])),
        ]))
        let graph = try ObjectGraph(archive)
        let failing = CodableExporter(graph: graph, rules: MigrationRules(), options: CodableOptions(), budget: 100, nesting: 0)
        XCTAssertEqual(failing.expandedCount(of: [1], cap: 100), 2)
        let omitting = CodableExporter(graph: graph, rules: MigrationRules(), options: CodableOptions(cycles: .omit), budget: 100, nesting: 0)
        XCTAssertEqual(omitting.expandedCount(of: [1], cap: 100), 2)
        XCTAssertThrowsError(try CodableExport.value(converting: archive)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .cycle)
        }
    }

    /// A cycle beside a large expansion does not hide it: the archive is
    /// refused for its size before the export meets either.
    func testACycleDoesNotHideALargeExpansion() throws {
        guard case .dictionary(var archive) = Self.sharedLevels(fields: 10, levels: 7),
              case .array(var objects)? = archive["$objects"], case .dictionary(var root) = objects[1] else { return XCTFail() }
        root["back"] = .uid(1)
        objects[1] = .dictionary(root)
        archive["$objects"] = .array(objects)
        var exporter = CodableExporter(graph: try ObjectGraph(PlistValue.dictionary(archive)), rules: MigrationRules(),
                                       options: CodableOptions(), budget: 10_000_000, nesting: 0)
        XCTAssertThrowsError(try exporter.root()) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
        }
        XCTAssertEqual(exporter.budget, 10_000_000)
    }
}
