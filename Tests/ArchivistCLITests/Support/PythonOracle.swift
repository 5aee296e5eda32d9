import ArchivistTestSupport
import Foundation
import XCTest

extension CLITests {
    /// The Python of the tests' virtual environment that can import
    /// `module` (from the PyPI package `package`), an oracle for formats
    /// Foundation lacks: `ARCHIVIST_PYTHON`, else `.build/ci-venv/bin/python`.
    /// Skipped when there is none; failed under CI, which installs it.
    func pythonOracle(importing module: String, package: String) throws -> URL {
        let env = ProcessInfo.processInfo.environment
        let candidates = [env["ARCHIVIST_PYTHON"], TestPaths.packageRoot.appendingPathComponent(".build/ci-venv/bin/python").path].compactMap { $0 }
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) {
            let python = URL(fileURLWithPath: path)
            if (try? run(executable: python, ["-c", "import \(module)"]))?.status == 0 { return python }
        }
        let missing = "\(package) is not installed (tools/test installs it into .build/ci-venv)"
        if env["CI"] == "true" { XCTFail(missing) }
        throw XCTSkip(missing)
    }
}
