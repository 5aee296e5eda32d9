import ArchivistTestSupport
import Foundation
import XCTest

/// Every Swift code block of the DocC articles (`Sources/*/*.docc/*.md`), of the
/// guide (`docs/guide/*.md`) and of README (but Package.swift fragments) stands,
/// line for line, in one of this target's snippet tests, which compile it and
/// run it on real data. An article edited without its test fails here.
final class ArticleSnippetTests: XCTestCase {
    static var packageRoot: URL { TestPaths.packageRoot }

    /// The code blocks of every article, by article name.
    static func articleBlocks() throws -> [(article: String, lines: [String])] {
        let fm = FileManager.default
        let sources = packageRoot.appendingPathComponent("Sources")
        var blocks: [(String, [String])] = []
        for module in try fm.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            guard let articles = try? fm.contentsOfDirectory(atPath: catalog.path) else { continue }
            for article in articles.sorted() where article.hasSuffix(".md") {
                let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
                blocks += swiftBlocks(in: text).map { ("\(module)/\(article)", $0) }
            }
        }
        // The guide's pages and README, except Package.swift fragments and
        // app code that calls what `codegen` generates (compiled with it by the
        // CLI tests).
        let pages = try fm.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs/guide").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/guide/\($0)" } + ["README.md"]
        for page in pages {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
            blocks += swiftBlocks(in: text).filter { $0.first != "// Package.swift" && $0.first?.hasPrefix("// In the app, with the generated file") != true }.map { (page, $0) }
        }
        return blocks
    }

    /// The lines of each ```swift block of a Markdown text.
    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines)
                current = nil
            } else if current != nil {
                current?.append(String(line))
            }
        }
        return blocks
    }

    /// Lines as compared: without indentation, blank lines and imports left out.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    func testEveryArticleSnippetIsCompiledAndRunByATest() throws {
        let folder = Self.packageRoot.appendingPathComponent("Tests/DocumentationTests")
        var testLines: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where file.hasSuffix("Snippets.swift") {
            testLines += Self.normalized(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .components(separatedBy: "\n"))
        }
        let blocks = try Self.articleBlocks()
        XCTAssertGreaterThanOrEqual(Set(blocks.map(\.article)).count, 4, "articles with code")
        for (article, lines) in blocks {
            let wanted = Self.normalized(lines)
            guard let first = wanted.first else { continue }
            let found = testLines.indices.contains { start in
                testLines[start] == first && start + wanted.count <= testLines.count
                    && Array(testLines[start..<start + wanted.count]) == wanted
            }
            XCTAssertTrue(found, "\(article): this block is in no snippet test:\n\(lines.joined(separator: "\n"))")
        }
    }
}
