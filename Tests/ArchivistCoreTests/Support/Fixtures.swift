import ArchivistTestSupport
import Foundation

/// Paths of the test fixtures: the bundled `Corpus/` and the shared conformance
/// corpus beside the repository (`../shared/corpus`).
enum Fixtures {
    /// A binary plist of raw object bodies with 1-byte references and offsets.
    static func bplist(_ objects: [[UInt8]], top: UInt8 = 0) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects { offsets.append(UInt8(out.count)); out += o }
        let table = out.count
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 1, 1]
        out += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        out += [0, 0, 0, 0, 0, 0, 0, top]
        out += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return out
    }

    /// `Corpus/` of this repository.
    static var corpus: URL { TestPaths.corpus }

    /// `../shared/corpus`, which CI places beside the clone.
    static var sharedCorpus: URL { TestPaths.sharedCorpus }

    /// One row of a `MANIFEST.tsv`.
    struct ManifestEntry {
        var path: String
        var format: String
        var valid: Bool
        var kind: String
        var url: URL
    }

    /// The rows of `root/MANIFEST.tsv` (header skipped). Empty when the file is missing.
    static func manifest(at root: URL) -> [ManifestEntry] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return [] }
        var rows: [ManifestEntry] = []
        for line in text.split(separator: "\n").dropFirst() {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 4 else { continue }
            rows.append(ManifestEntry(path: cols[0], format: cols[1], valid: cols[2] == "yes", kind: cols[3],
                                      url: root.appendingPathComponent(cols[0])))
        }
        return rows
    }

    /// The bytes of a file.
    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
