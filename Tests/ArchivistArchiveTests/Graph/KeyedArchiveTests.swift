import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

final class KeyedArchiveTests: XCTestCase {
    /// Every keyed archive of the shared corpus: valid ones validate, the
    /// `archive-invalid:` ones fail with an archive location.
    func testSharedCorpusArchives() throws {
        var checked = 0
        for row in try CorpusManifest.rowsOrSkip(at: TestPaths.sharedCorpus) where row.format.hasPrefix("keyed-archive") {
            let tree = try PropertyList.read([UInt8](try Data(contentsOf: row.url))).tree
            XCTAssertTrue(KeyedArchive.looksLikeArchive(tree), row.path)
            do {
                let archive = try KeyedArchive(tree)
                XCTAssertTrue(row.valid, "\(row.path): broken archive accepted")
                XCTAssertFalse(archive.top.isEmpty, row.path)
            } catch let error as PlistError {
                XCTAssertFalse(row.valid, "\(row.path): \(error)")
                XCTAssertEqual(error.kind, .archive)
                guard case .archive = error.location else { return XCTFail("\(row.path): \(error.location)") }
            }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 40)
    }

    /// Archives written by Foundation's NSKeyedArchiver validate, with key paths
    /// from $top to each object.
    func testFoundationArchivesValidate() throws {
        let root: NSDictionary = ["name": "Ada", "tags": ["a", "b"], "when": Date(timeIntervalSinceReferenceDate: 5), "n": 3.5]
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let archiver = NSKeyedArchiver(requiringSecureCoding: false)
            archiver.outputFormat = format
            archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
            archiver.finishEncoding()
            let tree = try PropertyList.read([UInt8](archiver.encodedData)).tree
            let archive = try KeyedArchive(tree)
            XCTAssertEqual(archive.archiver, "NSKeyedArchiver")
            XCTAssertEqual(archive.top.map(\.key), ["root"])
            XCTAssertEqual(archive.className(of: archive.top[0].object), "NSDictionary")
            // `$objects` entries are nodes of the archive's tree.
            XCTAssertEqual(archive.objects[0].stringValue, "$null")
            let rootObject = archive.objects[archive.top[0].object]
            XCTAssertEqual(rootObject["$class"]?.uidValue.map { archive.objects[Int($0)]["$classname"]?.stringValue }, "NSDictionary")
            XCTAssertEqual(rootObject["NS.keys"]?.elements.count, 4)
            let paths = archive.objects.indices.compactMap { archive.paths.path(to: $0) }
            // Paths are those `get` takes: elements by index, values by key
            // (a dictionary's key objects have no path of their own).
            XCTAssertTrue(paths.contains("root.tags.1"), "\(paths)")
            for path in paths where !path.hasPrefix(#"root.NS\.keys."#) {
                XCTAssertNoThrow(try PlistKeyPath(path).resolve(in: tree), path)
            }
        }
    }

    /// Paths of a long chain are built on demand and keep their two ends.
    func testLongPathsKeepTheirEnds() throws {
        let n = 100
        var objects: [PlistValue] = [.string("$null")]
        for i in 1...n {
            objects.append(.dictionary(PlistDictionary([("next", i == n ? .uid(0) : .uid(UInt64(i + 1))), ("$class", .uid(UInt64(n + 1)))])))
        }
        objects.append(.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node")]))])))
        let archive = try KeyedArchive(envelope(objects))
        XCTAssertEqual(archive.paths.path(to: 1), "root")
        XCTAssertEqual(archive.paths.path(to: 3), "root.next.next")
        XCTAssertNil(archive.paths.path(to: n + 1))
        let long = try XCTUnwrap(archive.paths.path(to: n))
        XCTAssertTrue(long.hasPrefix("root.next"), long)
        XCTAssertTrue(long.contains(".….next"), long)
        XCTAssertEqual(long.split(separator: ".").count, ArchivePaths.shownSteps + 1)
    }

    /// Showing the path of every object of a chain of 50,000 follows a
    /// bounded number of links per object (it followed the whole chain each
    /// time: `lint --secure` and `info` took quadratic time).
    func testPathsOfALongChainWalkBoundedSteps() throws {
        let n = 50_000
        var objects: [PlistValue] = [.string("$null")]
        objects.reserveCapacity(n + 2)
        for i in 1...n {
            objects.append(.dictionary(PlistDictionary([("next", i == n ? .uid(0) : .uid(UInt64(i + 1))), ("$class", .uid(UInt64(n + 1)))])))
        }
        objects.append(.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node")]))])))
        let archive = try KeyedArchive(envelope(objects))
        var walked = 0
        for i in 1...n { XCTAssertNotNil(archive.paths.path(to: i, walked: &walked)) }
        XCTAssertLessThanOrEqual(walked, n * (ArchivePaths.shownSteps + 2))
        let expected = (["root"] + Array(repeating: "next", count: 7)).joined(separator: ".") + ".…."
            + Array(repeating: "next", count: 16).joined(separator: ".")
        XCTAssertEqual(archive.paths.path(to: n), expected)
        XCTAssertEqual(archive.paths.path(to: 24), "root" + String(repeating: ".next", count: 23))
    }

    /// Every kind of link a path is made of shows as `get` takes it: a
    /// field, an element of an NSArray, steps inside an inline dictionary,
    /// an NSCountedSet's `NS.objectN` beyond 32 bits, an NSDictionary's keys
    /// by position and its values by key (the paths store links compactly).
    func testPathsOfEveryKindOfLink() throws {
        func cls(_ name: String) -> PlistValue {
            .dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
        }
        let objects: [PlistValue] = [
            .string("$null"),
            object([("list", .uid(3)), ("inner", .dictionary(PlistDictionary([("deep", .uid(5))]))), ("set", .uid(6)), ("dict", .uid(8))]),
            classDict,
            object([("NS.objects", .array([.uid(4), .uid(9)]))], cls: 10),
            .string("four"), .string("five"),
            object([("NS.count", .int(1)), ("NS.object4294967296", .uid(7))], cls: 11),
            .string("seven"),
            object([("NS.keys", .array([.uid(12)])), ("NS.objects", .array([.uid(13)]))], cls: 14),
            .string("nine"), cls("NSArray"), cls("NSCountedSet"), .string("k"), .string("v"), cls("NSDictionary"),
        ]
        let archive = try KeyedArchive(envelope(objects))
        let expected: [Int: String] = [
            1: "root", 3: "root.list", 4: "root.list.0", 9: "root.list.1", 5: "root.inner.deep", 6: "root.set",
            7: "root.set.4294967296", 8: "root.dict", 12: #"root.dict.NS\.keys.0"#, 13: "root.dict.k",
        ]
        for (index, path) in expected { XCTAssertEqual(archive.paths.path(to: index), path, "object \(index)") }
        for index in [0, 2, 10, 11, 14] { XCTAssertNil(archive.paths.path(to: index), "object \(index)") }
    }

    /// Paths name the right field when an archive has more field names than
    /// the paths' cache of key nodes has slots (64): 200 fields, each reached
    /// once, and a second object whose fields are the same names in reverse.
    func testPathsThroughManyFieldNames() throws {
        let n = 200
        // Object 1 holds f0...f199 (strings 4..<204) and `other` (object 3),
        // which holds the same names in reverse order (strings 204..<404).
        var first: [(String, PlistValue)] = (0..<n).map { ("f\($0)", .uid(UInt64(4 + $0))) }
        first.append(("other", .uid(3)))
        let second: [(String, PlistValue)] = (0..<n).reversed().map { ("f\($0)", .uid(UInt64(4 + n + $0))) }
        let objects: [PlistValue] = [.string("$null"), object(first), classDict, object(second)]
            + (0..<(2 * n)).map { .string("s\($0)") }
        let archive = try KeyedArchive(envelope(objects))
        XCTAssertEqual(archive.paths.path(to: 3), "root.other")
        for i in 0..<n {
            XCTAssertEqual(archive.paths.path(to: 4 + i), "root.f\(i)")
            XCTAssertEqual(archive.paths.path(to: 4 + n + i), "root.other.f\(i)")
        }
    }

    func envelope(_ objects: [PlistValue], top: PlistValue = .uid(1), archiver: String = "NSKeyedArchiver", version: Int64 = 100_000) -> PlistValue {
        .dictionary(PlistDictionary([
            ("$archiver", .string(archiver)), ("$version", .int(version)),
            ("$top", .dictionary(PlistDictionary([("root", top)]))), ("$objects", .array(objects)),
        ]))
    }

    var classDict: PlistValue {
        .dictionary(PlistDictionary([("$classname", .string("Foo")), ("$classes", .array([.string("Foo"), .string("NSObject")]))]))
    }

    func object(_ fields: [(String, PlistValue)], cls: UInt64 = 2) -> PlistValue {
        .dictionary(PlistDictionary(fields + [("$class", .uid(cls))]))
    }

    func assertArchiveError(_ tree: PlistValue, _ location: SourceLocation, _ fragment: String, line: UInt = #line) {
        XCTAssertThrowsError(try KeyedArchive(tree), line: line) { e in
            guard let e = e as? PlistError else { return XCTFail("\(e)", line: line) }
            XCTAssertEqual(e.location, location, line: line)
            XCTAssertTrue(e.message.contains(fragment), e.message, line: line)
        }
    }

    func testMalformedArchivesAreLocated() throws {
        XCTAssertNoThrow(try KeyedArchive(envelope([.string("$null"), object([("a", .int(1))]), classDict])))
        assertArchiveError(envelope([.string("$null"), object([("name", .uid(9))]), classDict]), .archive(object: 1, keyPath: "root.name"), "object 9")
        assertArchiveError(envelope([.string("$null"), object([("list", .array([.uid(1), .uid(7)]))]), classDict]),
                           .archive(object: 1, keyPath: "root.list.1"), "object 7")
        assertArchiveError(envelope([.string("$null"), .dictionary(PlistDictionary([("a", .int(1))])), classDict]),
                           .archive(object: 1, keyPath: "root"), "neither $class")
        assertArchiveError(envelope([.string("$null"), object([]), .dictionary(PlistDictionary([("$classes", .array([]))]))]),
                           .archive(object: 2, keyPath: "root.$class.$classname"), "$classname")
        assertArchiveError(envelope([.string("$null"), object([], cls: 0), classDict]), .archive(object: 1, keyPath: "root.$class"), "not a class dictionary")
        assertArchiveError(envelope([.string("$null")], top: .uid(4)), .archive(object: nil, keyPath: "$top.root"), "past the 1 objects")
        assertArchiveError(envelope([.string("$null")], archiver: "NSArchiver"), .archive(object: nil, keyPath: "$archiver"), "NSArchiver")
        assertArchiveError(envelope([.string("$null")], version: 7), .archive(object: nil, keyPath: "$version"), "not 100000")
        assertArchiveError(envelope([.string("x")]), .archive(object: nil, keyPath: "$objects[0]"), "$null")
        // An object that refers to itself is a cycle, which archives may hold.
        XCTAssertNoThrow(try KeyedArchive(envelope([.string("$null"), object([("me", .uid(1))]), classDict])))
    }
}
