import ArchivistTestSupport
import Foundation
import XCTest

/// Every relative link of README, the guide (`docs/guide/*.md`) and the DocC
/// articles names a file of the repository, and every `#anchor` a heading of
/// the page it points into, as GitHub makes anchors from headings.
extension CLITests {
    func testDocumentationLinksNameFilesAndHeadingsThatExist() throws {
        var broken: [String] = []
        var links = 0, anchors = 0
        for file in try Self.documentationFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for link in MarkdownLinks.links(in: text) {
                links += 1
                let target = link.path.isEmpty ? file
                    : file.deletingLastPathComponent().appendingPathComponent(link.path).standardizedFileURL
                let name = "\(file.lastPathComponent):\(link.line): \(link.path)\(link.anchor.map { "#" + $0 } ?? "")"
                guard FileManager.default.fileExists(atPath: target.path) else { broken.append(name + " (no such file)"); continue }
                guard let anchor = link.anchor else { continue }
                anchors += 1
                let page = try String(contentsOf: target, encoding: .utf8)
                if !MarkdownLinks.anchors(in: page).contains(anchor) { broken.append(name + " (no such heading)") }
            }
        }
        // The DocC articles link each other as <doc:Name>, a file Name.md of the catalog.
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            guard let articles = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
            for article in articles.sorted() where article.hasSuffix(".md") {
                let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
                for name in MarkdownLinks.docLinks(in: text) {
                    links += 1
                    let page = name.split(separator: "#", maxSplits: 1).first.map(String.init) ?? name
                    if !articles.contains(page + ".md") { broken.append("\(module).docc/\(article): <doc:\(name)> (no such article)") }
                }
            }
        }
        XCTAssertGreaterThan(links, 30)
        XCTAssertGreaterThan(anchors, 1)
        XCTAssert(broken.isEmpty, "broken links:\n" + broken.joined(separator: "\n"))
    }

    func testMarkdownLinksAndAnchorsAreFoundAsGitHubMakesThem() {
        let page = """
            # Nothing lost, exit codes and limits
            See [here](#exit-codes), [there](other.md#a-b), [web](https://example.org/x#y) and [self](#).
            ```sh
            echo "[not](a-link.md)"
            # not a heading
            ```
            ## Exit codes
            ## `archivist classes FILE...`
            ## Exit codes
            ### Lint in builds: SwiftPM plugins, [Xcode](https://developer.apple.com), mint_and mise
            """
        let links = MarkdownLinks.links(in: page)
        XCTAssertEqual(links.map(\.path), ["", "other.md"])
        XCTAssertEqual(links.map(\.anchor), ["exit-codes", "a-b"])
        XCTAssertEqual(links.map(\.line), [2, 2])
        XCTAssertEqual(MarkdownLinks.anchors(in: page), [
            "nothing-lost-exit-codes-and-limits", "exit-codes", "archivist-classes-file", "exit-codes-1",
            "lint-in-builds-swiftpm-plugins-xcode-mint_and-mise",
        ])
        XCTAssertEqual(MarkdownLinks.docLinks(in: "See <doc:ArchivesInSQLite> and <doc:Other#part>."), ["ArchivesInSQLite", "Other#part"])
    }
}

/// Links and headings of a Markdown page, as GitHub renders them.
enum MarkdownLinks {
    struct Link: Equatable {
        /// The file, relative to the page; empty for an anchor into the page itself.
        var path: String
        var anchor: String?
        var line: Int
    }

    /// The `[text](target)` links outside code blocks that are not URLs.
    static func links(in text: String) -> [Link] {
        var result: [Link] = []
        for (number, line) in proseLines(of: text) {
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = rest[..<close]
                rest = rest[close...]
                guard !target.contains("://"), !target.contains(" "), !target.hasPrefix("mailto:"), target != "#" else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let anchor = parts.count > 1 ? String(parts[1]) : nil
                result.append(Link(path: String(parts[0]), anchor: anchor, line: number))
            }
        }
        return result
    }

    /// The anchors GitHub gives the page's headings: the heading's text
    /// lowercased, with what is not a letter, digit, `-`, `_` or space left
    /// out and spaces made `-`; a repeated one gets `-1`, `-2`, ...
    static func anchors(in text: String) -> [String] {
        var result: [String] = []
        var seen: [String: Int] = [:]
        for (_, line) in proseLines(of: text) {
            let level = line.prefix { $0 == "#" }.count
            guard (1...6).contains(level), line.dropFirst(level).first == " " else { continue }
            let slug = slug(String(line.dropFirst(level)))
            if let count = seen[slug] {
                result.append("\(slug)-\(count)")
                seen[slug] = count + 1
            } else {
                result.append(slug)
                seen[slug] = 1
            }
        }
        return result
    }

    static func slug(_ heading: String) -> String {
        var text = heading.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("#") { text.removeLast() }
        // A link shows its text; code and emphasis marks are not shown.
        text = text.replacingOccurrences(of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "*", with: "")
        let kept = text.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }

    /// The `<doc:Name>` links of a DocC article.
    static func docLinks(in text: String) -> [String] {
        var result: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "<doc:") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ">") else { break }
            result.append(String(rest[..<close]))
            rest = rest[close...]
        }
        return result
    }

    /// The lines outside fenced code blocks, with their numbers from 1.
    private static func proseLines(of text: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var fenced = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if !fenced { result.append((index + 1, line)) }
        }
        return result
    }
}
