import Foundation
import XCTest

/// The Python of the tests' virtual environment, an oracle for formats
/// Foundation lacks (mac-alias, binarycookies, pytypedstream...).
public enum PythonOracle {
    /// The Python that can import `module` (from the PyPI package `package`):
    /// `ARCHIVIST_PYTHON`, else `.build/ci-venv/bin/python`. Skips the test
    /// when there is none; fails it under CI, which installs it.
    public static func find(importing module: String, package: String) throws -> URL {
        let env = ProcessInfo.processInfo.environment
        let candidates = [env["ARCHIVIST_PYTHON"], TestPaths.packageRoot.appendingPathComponent(".build/ci-venv/bin/python").path].compactMap { $0 }
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) {
            let python = URL(fileURLWithPath: path)
            if (try? ProcessRunner.run(python, ["-c", "import \(module)"]))?.status == 0 { return python }
        }
        let missing = "\(package) is not installed (tools/test installs it into .build/ci-venv)"
        if env["CI"] == "true" { XCTFail(missing) }
        throw XCTSkip(missing)
    }
}
