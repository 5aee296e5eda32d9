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
    typealias ManifestEntry = CorpusRow

    /// The rows of `root/MANIFEST.tsv` (header skipped). Empty when the file is missing.
    static func manifest(at root: URL) -> [ManifestEntry] {
        CorpusManifest.rows(at: root)
    }

    /// The bytes of a file.
    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
