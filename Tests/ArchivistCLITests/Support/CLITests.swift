import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// Runs the built `archivist` in a scratch folder and checks its exact
/// standard output, standard error, exit status and the files it leaves.
final class CLITests: XCTestCase {
    typealias Result = ProcessResult
    typealias ErrorBox = DataBox

    /// The build products folder, which holds `archivist` beside the test bundle.
    static var productsDirectory: URL { TestPaths.productsDirectory }

    static var packageRoot: URL { TestPaths.packageRoot }

    /// The test's scratch folder, where `archivist` runs; removed when the test ends.
    var scratch: ScratchFolder!
    var work: URL!

    override func setUpWithError() throws {
        scratch = try makeScratchFolder("archivist-cli")
        work = scratch.url
    }

    @discardableResult
    func run(_ args: [String], stdin: Data? = nil) throws -> Result {
        try run(executable: ProcessRunner.archivist, args, stdin: stdin)
    }

    /// Runs `executable ARGS` in the scratch folder, `stdin` on its standard input.
    func run(executable: URL, _ args: [String], stdin: Data? = nil) throws -> Result {
        try ProcessRunner.run(executable, args, in: work, stdin: .bytes(stdin ?? Data()))
    }

    /// The Python of the tests' virtual environment that can import `module`
    /// (see `PythonOracle.find`).
    func pythonOracle(importing module: String, package: String) throws -> URL {
        try PythonOracle.find(importing: module, package: package)
    }

    /// A file of the bundled corpus.
    func corpus(_ path: String) -> String {
        TestPaths.corpus.appendingPathComponent("\(path)").path
    }

    /// Writes a file into the scratch folder and returns its name.
    @discardableResult
    func make(_ name: String, _ text: String) -> String {
        _ = try? scratch.write(name, text)
        return name
    }

    func contents(_ name: String) -> Data? {
        scratch.contents(name)
    }

    func listing(_ folder: String = ".") throws -> [String] {
        try scratch.listing(folder)
    }
}
