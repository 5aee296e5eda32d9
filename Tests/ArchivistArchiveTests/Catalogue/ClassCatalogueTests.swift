import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// The catalogue's tests, generated from the registry as SwiftLint generates
/// rule tests from each rule's examples: every class's example archives are
/// decoded, and the class's first object in each must read into the class's
/// declared shape, hold only its declared fields (and every field it always
/// writes), and show in `dump` as the example says. Examples Foundation
/// writes (`.foundation`) are archived here by `NSKeyedArchiver`, so
/// Foundation's own bytes are the oracle; real files are read from
/// `../shared` when it is there.
final class ClassCatalogueTests: XCTestCase {
    func testEveryExampleReadsIntoItsClassShape() throws {
        #if !ARCHIVIST_EXAMPLES
        throw XCTSkip("Foundation's examples are compiled into debug builds only")
        #endif
        var checked = 0
        for description in ClassCatalogue.all {
            for (n, example) in description.examples.enumerated() {
                let label = "\(description.name) example \(n + 1) (\(Self.source(example)))"
                guard let graph = try Self.graph(example) else { continue }
                let indexes = graph.nodes.indices.filter { i in
                    if case .object(let o) = graph.nodes[i] { return description.names.contains(o.className.archived) }
                    return false
                }
                XCTAssertFalse(indexes.isEmpty, "\(label): no object of the class")
                var shown: [String] = []
                for index in indexes {
                    guard case .object(let object) = graph.nodes[index] else { continue }
                    shown.append(try check(object, at: index, in: graph, against: description, label: label))
                }
                XCTAssertTrue(shown.contains { $0.contains(example.shows) }, "\(label): no object shows \(example.shows) in\n\(shown.joined(separator: "\n"))")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 20)
    }

    /// Checks an object's shape and fields; returns the text `dump` shows for it.
    private func check(_ object: ArchivedObject, at index: Int, in graph: ObjectGraph, against description: ClassDescription,
                       label: String) throws -> String {
        let value = FoundationValue.interpret(object, in: graph)
        if description.read == nil {
            XCTAssertNil(value, label)
        } else {
            XCTAssertEqual(value?.shape, description.shape, "\(label): shape")
        }
        let declared = description.fields
        for field in object.fields where field.key != "$class" {
            let known = declared.contains { d in
                d.storage == .numbered ? field.key.hasPrefix(d.key) : d.key == field.key
            }
            XCTAssertTrue(known, "\(label): field \(field.key) is not declared")
        }
        for d in declared where !d.optional && d.storage != .numbered {
            XCTAssertNotNil(object[d.key], "\(label): field \(d.key) missing")
        }
        return try ArchiveDumper.render(graph, node: index, options: DumpOptions())
    }

    /// Each archived name belongs to one class, and every class with a reader has an example.
    func testRegistryNamesAreUniqueAndReadersHaveExamples() {
        var seen: Set<String> = []
        for description in ClassCatalogue.all {
            for name in description.names {
                XCTAssertTrue(seen.insert(name).inserted, "\(name) is listed twice")
                XCTAssertTrue(ClassCatalogue.description(of: name)?.name == description.name, name)
            }
            #if ARCHIVIST_EXAMPLES
            if description.read != nil {
                XCTAssertFalse(description.examples.isEmpty, "\(description.name) reads a value but has no example")
            }
            #endif
            XCTAssertEqual(description.chain.first, description.name)
        }
    }

    /// The classes the checks, the validator and the editor read by `NS.objects`
    /// and `NS.keys` come from the registry's shapes and fields: the hash and
    /// map tables (a sequence and a map of numbered fields) are not among them.
    func testCollectionClassesComeFromShapesAndFields() {
        XCTAssertEqual(FoundationValue.listClasses, ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"])
        XCTAssertEqual(FoundationValue.mapClasses, ["NSDictionary", "NSMutableDictionary"])
        XCTAssertTrue(SecurePolicy.foundationSecureClasses.isSuperset(of: FoundationValue.listClasses.union(FoundationValue.mapClasses)))
        for name in ["NSHashTable", "NSMapTable", "NSObject", "NSDateFormatter", "NSColor"] {
            XCTAssertFalse(SecurePolicy.foundationSecureClasses.contains(name), name)
        }
    }

    static func source(_ example: ClassExample) -> String {
        switch example.source {
        case .shared(let path): return path
        case .built: return "built"
        #if ARCHIVIST_EXAMPLES
        case .foundation: return "Foundation"
        #endif
        }
    }

    /// The example's graph; nil (and the example skipped) when it is a file
    /// of `../shared` and `../shared` is not there (a missing file fails).
    static func graph(_ example: ClassExample) throws -> ObjectGraph? {
        switch example.source {
        case .shared(let path):
            let url = TestPaths.shared.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: TestPaths.realWorld.path) else { return nil }
            return try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree)
        case .built(let value):
            return try ObjectGraph(value)
        #if ARCHIVIST_EXAMPLES
        case .foundation(let make):
            let data = try NSKeyedArchiver.archivedData(withRootObject: make(), requiringSecureCoding: false)
            return try ObjectGraph(try PropertyList.read([UInt8](data)).tree)
        #endif
        }
    }
}
