import ArchivistTestSupport
import Foundation
import XCTest

/// `docs/design/tree.md` matches the code: every file it links or names
/// exists, every type it names is declared in `Sources` or `Tests`, and every member
/// it names (`Type.member`) is declared on that type.
extension CLITests {
    func testDesignNoteNamesFilesAndTypesThatExist() throws {
        let note = Self.packageRoot.appendingPathComponent("docs/design/tree.md")
        let text = try String(contentsOf: note, encoding: .utf8)
        var problems: [String] = []
        for link in MarkdownLinks.links(in: text) where !link.path.isEmpty {
            let target = note.deletingLastPathComponent().appendingPathComponent(link.path).standardizedFileURL
            if !FileManager.default.fileExists(atPath: target.path) { problems.append("line \(link.line): no file \(link.path)") }
        }
        let (sources, fileNames) = try Self.swiftSources()
        let declared = Self.matches(#"(?:struct|enum|class|protocol|typealias|actor)\s+([A-Z][A-Za-z0-9]*)"#, in: sources)
        var names = 0, members = 0
        for code in Self.matches("`([^`\\n]+)`", in: text) {
            if code.hasPrefix("Sources/") {
                let path = Self.packageRoot.appendingPathComponent(code).path
                if !FileManager.default.fileExists(atPath: path) { problems.append("no file \(code)") }
                continue
            }
            if code.hasSuffix(".swift"), !code.contains("/") {
                if !fileNames.contains(code) { problems.append("no file named \(code)") }
                continue
            }
            // `Type` or `Type.member`: a name of ours (not an Apple or standard-library type).
            let parts = code.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard (1...2).contains(parts.count), let type = parts.first, type.range(of: #"^[A-Z][a-z]+[A-Z][A-Za-z]*$"#, options: .regularExpression) != nil,
                  !["NS", "UI", "CK", "UInt", "Int"].contains(where: { type.hasPrefix($0) }) else { continue }
            names += 1
            if !declared.contains(type) { problems.append("no type \(type)"); continue }
            if parts.count == 2 {
                members += 1
                let member = parts[1]
                let pattern = #"(?:func|var|let|case|struct|enum|class)\s+"# + NSRegularExpression.escapedPattern(for: member) + #"\b"#
                if sources.range(of: pattern, options: .regularExpression) == nil { problems.append("no member \(code)") }
            }
        }
        XCTAssertGreaterThan(names, 20, "the note names the types it explains")
        XCTAssertGreaterThan(members, 3)
        XCTAssert(problems.isEmpty, "docs/design/tree.md:\n" + problems.joined(separator: "\n"))
    }

    /// Every Swift source of the package and its tests, one text (and the file names).
    private static func swiftSources() throws -> (text: String, fileNames: Set<String>) {
        var out = "", names: Set<String> = []
        for folder in ["Sources", "Tests"] {
            let root = packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walker where file.pathExtension == "swift" {
                names.insert(file.lastPathComponent)
                out += try String(contentsOf: file, encoding: .utf8) + "\n"
            }
        }
        return (out, names)
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
    }
}
