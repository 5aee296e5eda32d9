import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// `dump` output for archives and plists, compared with golden files in
/// `Golden/`. Run with ARCHIVIST_UPDATE_GOLDEN=1 to rewrite them after a
/// deliberate change, and review the diff.
final class DumpGoldenTests: XCTestCase {
    static var packageRoot: URL { TestPaths.packageRoot }

    static let goldenDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func render(_ url: URL, options: DumpOptions = DumpOptions()) throws -> String {
        let value = try PropertyList.read([UInt8](try Data(contentsOf: url))).tree.value
        if KeyedArchive.looksLikeArchive(value) {
            return try ArchiveDumper.render(try ObjectGraph(value), options: options)
        }
        return try TreeDumper.render(value, options: options)
    }

    func check(_ url: URL, golden: String, options: DumpOptions = DumpOptions(), line: UInt = #line) throws {
        let text = try Self.render(url, options: options)
        let goldenURL = Self.goldenDir.appendingPathComponent(golden)
        if ProcessInfo.processInfo.environment["ARCHIVIST_UPDATE_GOLDEN"] != nil {
            try Data(text.utf8).write(to: goldenURL)
        }
        XCTAssertEqual(text, try String(contentsOf: goldenURL, encoding: .utf8), golden, line: line)
    }

    func testCorpusArchives() throws {
        let archives = TestPaths.corpus.appendingPathComponent("archives")
        for name in ["scary-creature-v1", "computer", "foundation-values", "foundation-classes", "counted-set", "attributed-strings", "cycle", "preferences-with-user", "coordinate", "order-with-cart", "drawing"] {
            try check(archives.appendingPathComponent("\(name).plist"), golden: "\(name).txt")
        }
        try check(archives.appendingPathComponent("computer.plist"), golden: "computer-depth1.txt", options: DumpOptions(maxDepth: 1))
    }

    /// Colour adds ANSI escapes around class names, labels, inline markers and
    /// strings, and nothing else: without them the text is the plain dump.
    func testColourOnlyAddsEscapes() throws {
        let url = TestPaths.corpus.appendingPathComponent("archives/cycle.plist")
        var options = DumpOptions()
        options.color = true
        let coloured = try Self.render(url, options: options)
        XCTAssertTrue(coloured.contains("\u{1B}[1;36mTree.Node\u{1B}[0m \u{1B}[35m@1\u{1B}[0m"), coloured)
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertEqual(stripped, try Self.render(url))
    }

    /// Every keyed archive of `Corpus/` and `../shared/corpus`, read as a
    /// compact tree and rendered from it, gives byte for byte the text and
    /// JSON views that `dump` and `dump --json` wrote when the graph was built
    /// from values and the JSON view was a tree written by the JSON writer
    /// (`Golden/corpus`, `Golden/shared`: file paths with `/` as `_`).
    func testEveryCorpusArchiveRendersAsBefore() throws {
        let roots = [("corpus", TestPaths.corpus),
                     ("shared", TestPaths.sharedCorpus)]
        for (folder, root) in roots {
            let goldens = Set(try FileManager.default.contentsOfDirectory(atPath: Self.goldenDir.appendingPathComponent(folder).path))
            var checked = 0
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for url in files {
                let relative = String(url.path.dropFirst(root.path.count + 1)).replacingOccurrences(of: "/", with: "_")
                guard goldens.contains(relative + ".json") else { continue }
                let tree = try PropertyList.read([UInt8](try Data(contentsOf: url))).tree
                let graph = try ObjectGraph(tree)
                if ProcessInfo.processInfo.environment["ARCHIVIST_UPDATE_GOLDEN"] != nil {
                    let golden = Self.goldenDir.appendingPathComponent(folder).appendingPathComponent(relative)
                    try Data(try ArchiveJSONDumper.json(graph)).write(to: golden.appendingPathExtension("json"))
                    try Data(try ArchiveDumper.render(graph).utf8).write(to: golden.appendingPathExtension("txt"))
                }
                let json = try String(contentsOf: Self.goldenDir.appendingPathComponent(folder).appendingPathComponent(relative + ".json"), encoding: .utf8)
                XCTAssertEqual(String(decoding: try ArchiveJSONDumper.json(graph), as: UTF8.self), json, relative)
                let text = try String(contentsOf: Self.goldenDir.appendingPathComponent(folder).appendingPathComponent(relative + ".txt"), encoding: .utf8)
                XCTAssertEqual(try ArchiveDumper.render(graph), text, relative)
                checked += 1
            }
            XCTAssertEqual(checked * 2, goldens.count, "every golden of \(folder) has its archive")
        }
    }

    func testJSONView() throws {
        let url = TestPaths.corpus.appendingPathComponent("archives/cycle.plist")
        let graph = try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree.value)
        let text = String(decoding: try ArchiveJSONDumper.json(graph), as: UTF8.self)
        let goldenURL = Self.goldenDir.appendingPathComponent("cycle.json")
        if ProcessInfo.processInfo.environment["ARCHIVIST_UPDATE_GOLDEN"] != nil {
            try Data(text.utf8).write(to: goldenURL)
        }
        XCTAssertEqual(text, try String(contentsOf: goldenURL, encoding: .utf8))
        // The JSON is valid JSON that Foundation reads.
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    func testSharedCorpusArchives() throws {
        let shared = TestPaths.sharedCorpus
        try XCTSkipUnless(FileManager.default.fileExists(atPath: shared.path), "shared corpus not found")
        try check(shared.appendingPathComponent("bpylist/tests/fixture_data/circular_archive.plist"), golden: "bpylist-circular.txt")
        try check(shared.appendingPathComponent("corelibs-foundation/Tests/Foundation/Resources/NSKeyedUnarchiver-URLTest.plist"), golden: "corelibs-url.txt")
        try check(shared.appendingPathComponent("bpylist/tests/fixture_data/dict_nested.plist"), golden: "plain-dict-nested.txt")
    }

    /// Every archive of both corpora dumps without failing, and the dump of a
    /// cyclic archive is finite.
    func testEveryArchiveDumps() throws {
        let shared = TestPaths.sharedCorpus
        for row in CorpusManifest.rows(at: shared) where row.format.hasPrefix("keyed-archive") && row.valid {
            let out = try Self.render(row.url)
            XCTAssertTrue(out.hasPrefix("NSKeyedArchiver archive"), row.path)
        }
    }
}

/// One object referenced from two fields (Foundation archives it once).
final class SharedValuePair: NSObject, NSCoding {
    let first: NSObject, second: NSObject
    init(_ value: NSObject) { first = value; second = value }
    func encode(with coder: NSCoder) {
        coder.encode(first, forKey: "first")
        coder.encode(second, forKey: "second")
    }
    init?(coder: NSCoder) { nil }
}

/// A shared NSString, NSData or NSDate shows in full at every reference in
/// `dump --json`: a `{"ref": N}` always names an `"id"` shown before it.
final class JSONViewReferenceTests: XCTestCase {

    /// The ids and refs of a view, in document order.
    func refsHaveIds(_ value: PlistValue, ids: inout Set<Int64>, file: StaticString = #filePath, line: UInt = #line) {
        switch value {
        case .dictionary(let d):
            if case .integer(let id)? = d["id"], let n = id.int64Value { ids.insert(n) }
            if case .integer(let ref)? = d["ref"], let n = ref.int64Value {
                XCTAssertTrue(ids.contains(n), "ref \(n) before any id \(n)", file: file, line: line)
            }
            for (_, v) in d { refsHaveIds(v, ids: &ids, file: file, line: line) }
        case .array(let items):
            for v in items { refsHaveIds(v, ids: &ids, file: file, line: line) }
        case .string, .integer, .real, .bool, .date, .data, .uid, .null:
            break
        }
    }

    func testSharedValuesRepeatAndEveryRefHasAnId() throws {
        let values: [NSObject] = [NSString(string: "shared text"), NSData(bytes: [1, 2, 3], length: 3), NSDate(timeIntervalSinceReferenceDate: 12.5)]
        for value in values {
            let data = try NSKeyedArchiver.archivedData(withRootObject: SharedValuePair(value), requiringSecureCoding: false)
            let graph = try ObjectGraph(try PropertyList.read([UInt8](data)).tree.value)
            let json = try ArchiveJSONDumper.json(graph)
            var ids: Set<Int64> = []
            refsHaveIds(try json.withUnsafeBytes { try PropertyList.read($0, as: .json).tree.value }, ids: &ids)
            let text = String(decoding: json, as: UTF8.self)
            XCTAssertFalse(text.contains("\"ref\""), text)
        }
        // Every archive of the corpus: no dangling ref.
        let folder = TestPaths.archives
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            guard let graph = try? ObjectGraph(try PropertyList.read(bytes).tree.value) else { continue }
            var ids: Set<Int64> = []
            refsHaveIds(try ArchiveJSONDumper.json(graph).withUnsafeBytes { try PropertyList.read($0, as: .json).tree.value }, ids: &ids)
        }
    }
}
