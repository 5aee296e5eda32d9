import Foundation
import XCTest

/// One row of a corpus's `MANIFEST.tsv` (`path`, `format`, `valid`, `kind`,
/// `source`): `Corpus/`, `../shared/corpus`, `../shared/real-world` and
/// `../shared/real-world/beside` all list their files so.
public struct CorpusRow: Sendable {
    /// The file's path below the corpus folder.
    public var path: String
    /// What the file is: `xml`, `binary`, `json`, `openstep`, `keyed-archive-binary`, `sqlite`, `bookmark`...
    public var format: String
    /// Whether the file's own reader (Foundation, an oracle) accepts it.
    public var valid: Bool
    /// What the file holds, in words.
    public var kind: String
    /// The file.
    public var url: URL
    /// The file's absolute path.
    public var file: String { url.path }
}

/// The rows of the corpora's manifests, read in one place.
public enum CorpusManifest {
    /// The rows of `root/MANIFEST.tsv` (header skipped); empty when the file is missing.
    public static func rows(at root: URL) -> [CorpusRow] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return [] }
        var rows: [CorpusRow] = []
        for line in text.split(separator: "\n").dropFirst() {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 4 else { continue }
            rows.append(CorpusRow(path: cols[0], format: cols[1], valid: cols[2] == "yes", kind: cols[3],
                                  url: root.appendingPathComponent(cols[0])))
        }
        return rows
    }

    /// The rows of `root/MANIFEST.tsv`; skips the test when the file is missing
    /// (the shared folders sit beside the clone, in CI and on the developers' machines).
    public static func rowsOrSkip(at root: URL) throws -> [CorpusRow] {
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("MANIFEST.tsv").path) else {
            throw XCTSkip("no \(root.path)/MANIFEST.tsv")
        }
        return rows(at: root)
    }
}
