import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// `info`, `get`, `set`/`remove` and `diff` over every valid file of both corpora.
final class CorpusQueryTests: XCTestCase {
    static func validFiles() -> [URL] {
        [TestPaths.corpus, TestPaths.sharedCorpus].flatMap(CorpusManifest.rows(at:)).filter(\.valid).map(\.url)
    }

    /// The first key path below the top: a dictionary's first key, an array's 0,
    /// an archive's first $top key.
    func firstPath(_ value: PlistValue) -> String? {
        if KeyedArchive.looksLikeArchive(value), let graph = try? ObjectGraph(value) { return graph.top.first?.key }
        switch value {
        case .dictionary(let d): return d.keys.first.map { PlistKeyPath(components: [$0]).description }
        case .array(let a): return a.isEmpty ? nil : "0"
        default: return nil
        }
    }

    func testEveryValidFile() throws {
        let files = Self.validFiles()
        XCTAssertGreaterThan(files.count, 40)
        for url in files {
            let name = url.lastPathComponent
            let bytes = [UInt8](try Data(contentsOf: url))
            let document = try PropertyList.read(bytes)
            let info = try FileInfo(bytes)
            XCTAssertEqual(info.report["format"], .string(document.format.rawValue), name)
            // Converting to binary (which holds every type exactly) is no change.
            if let other = try? PropertyList.read(try PropertyList.write(document.tree.value, as: .binary)).tree.value {
                XCTAssertEqual(try PlistDiff(document.tree.value, other).lines, [], name)
            }
            guard let path = firstPath(document.tree.value) else { continue }
            XCTAssertNoThrow(try PlistKeyPath(path).resolve(in: document.tree.value), "\(name): \(path)")
            // Adding a key and removing it again is no change (plain dictionaries).
            guard case .dictionary = document.tree.value, !KeyedArchive.looksLikeArchive(document.tree.value) else { continue }
            let added = try PlistEditor.apply(.set(.string("added")), at: PlistKeyPath("archivist\\.probe"), in: document.tree.value)
            XCTAssertEqual(try PlistDiff(document.tree.value, added).lines, ["+ archivist\\.probe: string \"added\""], name)
            let removed = try PlistEditor.apply(.remove, at: PlistKeyPath("archivist\\.probe"), in: added)
            XCTAssertEqual(removed, document.tree.value, name)
        }
    }
}
