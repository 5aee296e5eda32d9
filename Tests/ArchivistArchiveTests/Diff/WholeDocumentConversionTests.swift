import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// The read-only paths work on the tree and the object graph: none converts
/// the whole document to a `PlistValue` (or exports a whole archive), on a
/// large archive and a large plain property list.
final class WholeDocumentConversionTests: XCTestCase {
    /// A decoded item of the generated archive.
    struct Item: Decodable, Equatable {
        var name: String
        var index: Int
        var tags: [String]
    }

    /// `count` custom objects (name, index, a list of tags) in one NSArray at `root`.
    static func itemsArchive(count: Int) -> PlistValue {
        // 0 $null, 1 root array, 2 NSArray class, 3 Item class, 4 tag list, 5 tag, then per item its object and its name.
        var objects: [PlistValue] = [
            .string("$null"),
            .dictionary(PlistDictionary([("NS.objects", .array((0..<count).map { .uid(UInt64(6 + 2 * $0)) })), ("$class", .uid(2))])),
            .dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))])),
            .dictionary(PlistDictionary([("$classname", .string("Item")), ("$classes", .array([.string("Item"), .string("NSObject")]))])),
            .dictionary(PlistDictionary([("NS.objects", .array([.uid(5)])), ("$class", .uid(2))])),
            .string("tag"),
        ]
        for i in 0..<count {
            objects.append(.dictionary(PlistDictionary([
                ("name", .uid(UInt64(7 + 2 * i))), ("index", .int(Int64(i))), ("tags", .uid(4)), ("$class", .uid(3)),
            ])))
            objects.append(.string("item \(i)"))
        }
        return .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
    }

    /// A plain dictionary of `count` entries, each a small dictionary.
    static func plainList(count: Int) -> PlistValue {
        .dictionary(PlistDictionary((0..<count).map { i in
            ("key\(i)", .dictionary(PlistDictionary([("name", .string("value \(i)")), ("n", .int(Int64(i)))])))
        }))
    }

    /// Runs `body` and returns how many whole documents it converted.
    private func conversions(_ body: () throws -> Void) rethrows -> Int {
        let counter = WholeDocumentConversions()
        try WholeDocumentConversions.$current.withValue(counter) { try body() }
        return counter.count
    }

    func testReadOnlyPathsConvertNoWholeDocument() throws {
        let n = 5_000
        let archive = try PropertyList.read(try PropertyList.write(Self.itemsArchive(count: n), as: .binary)).tree
        let plain = try PropertyList.read(try PropertyList.write(Self.plainList(count: n), as: .binary)).tree
        // The counter counts: converting the whole tree is one conversion.
        XCTAssertEqual(conversions { _ = archive.value }, 1)

        // diff: trees and graphs walked in step.
        XCTAssertEqual(try conversions { XCTAssertEqual(try PlistDiff(archive, archive).changes, []) }, 0, "diff of an archive")
        XCTAssertEqual(try conversions { XCTAssertEqual(try PlistDiff(plain, plain).changes, []) }, 0, "diff of a plain list")
        // get: the path's target, and what get prints of it.
        XCTAssertEqual(try conversions {
            let target = try PlistKeyPath("root.\(n - 1).name").resolve(in: archive)
            XCTAssertEqual(try target.plainValue(), .string("item \(n - 1)"))
            _ = try PlistKeyPath("root.7").resolve(in: archive).plainValue()
        }, 0, "get in an archive")
        // info and classes.
        let bytes = try PropertyList.write(archive, as: .binary)
        XCTAssertEqual(try conversions {
            _ = try FileInfo(bytes)
            var census = ClassCensus()
            census.add(try ObjectGraph(archive))
        }, 0, "info, classes")
        // dump and dump --json of an archive: rendered from the graph.
        XCTAssertEqual(try conversions {
            _ = try ArchiveDumper.render(try ObjectGraph(archive))
            try ArchiveJSONDumper.write(try ObjectGraph(archive), into: ByteSink())
        }, 0, "dump, dump --json of an archive")
        XCTAssertEqual(try conversions {
            try TreeDumper.render(plain, into: ByteSink())
            var json = JSONStream(into: ByteSink())
            try NestedJSON.tree(plain, options: DumpOptions(), into: &json)
        }, 0, "dump, dump --json of a plain list")
        // lint and lint --secure: the archive checks read the tree (the
        // secure check finds the inline index of every item: n violations).
        XCTAssertEqual(try conversions {
            let checks = ArchiveChecks(archive, archive: try KeyedArchive(archive))
            var unarchiver = 0, secure = 0
            checks.unarchiverErrors { _ in unarchiver += 1 }
            try checks.secureErrors(policy: SecurePolicy(allowing: ["Item"])) { _ in secure += 1 }
            XCTAssertEqual(unarchiver, 0)
            XCTAssertEqual(secure, n)
        }, 0, "lint, lint --secure of an archive")
        // migrate: the rules laid over the graph, written from the tree read
        // (the rules file, read before, is a document of its own).
        let rules = try MigrationRules(bytes: Array(#"{"classes": {"Item": {"renameTo": "Item2"}}, "allowedClasses": ["Item2"]}"#.utf8))
        XCTAssertEqual(try conversions {
            let (report, result) = try Migrator(rules: rules).migrateForWriting(archive)
            XCTAssertFalse(report.isEmpty)
            guard case .archive(let output) = result else { return XCTFail("not written from the tree read") }
            var losses = WriteLosses()
            try output.write(as: .binary, options: WriteOptions(), into: ByteSink(), losses: &losses)
        }, 0, "migrate of an archive")
        // KeyedArchiveDecoder: one object exported at a time.
        XCTAssertEqual(try conversions {
            let items = try KeyedArchiveDecoder().decode([Item].self, from: archive)
            XCTAssertEqual(items.count, n)
            XCTAssertEqual(items[n - 1], Item(name: "item \(n - 1)", index: n - 1, tags: ["tag"]))
        }, 0, "KeyedArchiveDecoder")
    }
}
