import Foundation
import XCTest

/// A fresh folder in the temporary directory for one test: files are made in
/// it by name (parent folders too), read back and listed. `makeScratchFolder`
/// removes it when the test ends.
public final class ScratchFolder: @unchecked Sendable {
    public let url: URL

    /// Makes `TMPDIR/PREFIX-UUID`.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder's path.
    public var path: String { url.path }

    /// The URL of a file of the folder, by its path below it.
    public func url(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of a file of the folder, by its path below it.
    public func path(_ name: String) -> String { url(name).path }

    /// Writes a file (making its parent folders), replacing what is there
    /// as `FileManager.createFile` does, and returns its URL.
    @discardableResult
    public func write(_ name: String, _ bytes: Data) throws -> URL {
        let file = url(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: bytes) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        return file
    }

    /// Writes a text file (making its parent folders) and returns its URL.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    /// Copies a file of the bundled `Corpus/` into the folder and returns its URL.
    @discardableResult
    public func copyCorpus(_ corpusPath: String, to name: String) throws -> URL {
        try write(name, try Data(contentsOf: TestPaths.corpus.appendingPathComponent(corpusPath)))
    }

    /// The bytes of a file of the folder; nil when it cannot be read.
    public func contents(_ name: String) -> Data? {
        FileManager.default.contents(atPath: path(name))
    }

    /// The names in a folder of the folder, sorted.
    public func listing(_ folder: String = ".") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(folder)).sorted()
    }

    /// Removes the folder and all it holds.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension XCTestCase {
    /// A scratch folder that is removed when the test ends.
    public func makeScratchFolder(_ prefix: String) throws -> ScratchFolder {
        let folder = try ScratchFolder(prefix)
        addTeardownBlock { folder.remove() }
        return folder
    }
}
