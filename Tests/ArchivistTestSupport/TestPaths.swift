import Foundation

/// Where the tests find their data: the repository, its bundled `Corpus/`,
/// and the shared folders CI places beside the clone (`../shared/corpus`,
/// `../shared/real-world`). One definition for every test target.
public enum TestPaths {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The folder holding the `archivist` the tests run: the build products
    /// folder (beside the test bundle), or `ARCHIVIST_TEST_BINARIES` when set
    /// (`tools/release/test-cli` points it at an unpacked release archive's
    /// `bin`, so the command-line tests run the binary users install).
    public static var productsDirectory: URL {
        if let folder = ProcessInfo.processInfo.environment["ARCHIVIST_TEST_BINARIES"], !folder.isEmpty {
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// `Corpus/` of this repository.
    public static let corpus = packageRoot.appendingPathComponent("Corpus")

    /// `Corpus/archives/`: the scenario archives NSKeyedArchiver wrote.
    public static let archives = corpus.appendingPathComponent("archives")

    /// `../shared`, beside the clone.
    public static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// `../shared/corpus`: the conformance corpus.
    public static let sharedCorpus = shared.appendingPathComponent("corpus")

    /// `../shared/real-world`: files Apple's frameworks wrote.
    public static let realWorld = shared.appendingPathComponent("real-world")

    /// The bytes of a file of `Corpus/`, by its path below it.
    public static func corpusBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(path)))
    }
}
