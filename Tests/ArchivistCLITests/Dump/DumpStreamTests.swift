import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// `dump` and `dump --json` write their views to standard output as they
/// render them: the same bytes as before, in pieces, for archives of any size.
extension CLITests {
    /// Every archive of `Corpus/` shows through the binary exactly as the
    /// goldens recorded when the views were built as trees.
    func testDumpOfCorpusArchivesMatchesTheGoldens() throws {
        let goldens = Self.packageRoot.appendingPathComponent("Tests/ArchivistArchiveTests/Dump/Golden/corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: goldens.path).filter { $0.hasSuffix(".plist.json") }
        XCTAssertGreaterThanOrEqual(names.count, 12)
        for name in names {
            let base = String(name.dropLast(".json".count))
            let file = TestPaths.corpus.appendingPathComponent(base.replacingOccurrences(of: "_", with: "/")).path
            let json = try run(["dump", "--json", file])
            XCTAssertEqual(json.status, 0, json.stderr)
            XCTAssertEqual(json.output, try Data(contentsOf: goldens.appendingPathComponent(name)), name)
            let text = try run(["dump", "--color", "never", file])
            XCTAssertEqual(text.status, 0, text.stderr)
            XCTAssertEqual(text.output, try Data(contentsOf: goldens.appendingPathComponent(base + ".txt")), base)
        }
    }

    /// An archive whose views are several times the output buffer comes out
    /// whole and in order, as Foundation's JSON parser reads it.
    func testLargeArchiveViewsStreamWhole() throws {
        let texts = (0..<6_000).map { "item \($0) " + String(repeating: "long text ", count: 50) }
        let data = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: texts), requiringSecureCoding: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("large.plist").path, contents: data))
        let json = try run(["dump", "--json", "large.plist"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertGreaterThan(json.output.count, 2 << 20)
        let parsed = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
        let root = (parsed?["top"] as? [String: Any])?["root"] as? [String: Any]
        XCTAssertEqual(root?["items"] as? [String], texts)
        let text = try run(["dump", "large.plist"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertGreaterThan(text.output.count, 2 << 20)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.prefix(3), ["NSKeyedArchiver archive, 6003 entries in $objects, 1 object", "{", "  root = NSArray ["])
        XCTAssertEqual(Array(lines.dropFirst(3).prefix(texts.count)), texts.map { "    \"" + $0 + "\"" })
        XCTAssertEqual(Array(lines.suffix(3)), ["  ]", "}", ""])
        XCTAssertEqual(lines.count, texts.count + 6)
    }
}
