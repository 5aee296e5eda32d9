import ArchivistTestSupport
import Foundation
import XCTest

/// A scratch folder that the tests of one class share, so that generated
/// upgrade code is compiled once per class: runs the built `archivist`,
/// `swiftc` and the compiled programs there.
final class UpgradeBench: Sendable {
    struct Output {
        var status: Int32
        /// Standard output and standard error together.
        var text: String

        /// The lines that start with `prefix`.
        func lines(_ prefix: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map(String.init)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("archivist-upgrade")
    }

    /// The path of a file in the folder.
    func path(_ name: String) -> String {
        scratch.path(name)
    }

    /// Writes a file into the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: Data) throws -> String {
        try scratch.write(name, bytes).path
    }

    /// Copies a file of the bundled corpus into the folder and returns its path.
    @discardableResult
    func copyCorpus(_ corpusPath: String, to name: String) throws -> String {
        try scratch.copyCorpus(corpusPath, to: name).path
    }

    /// Runs a program (a path, or a name found on PATH) in the folder.
    func run(_ program: String, _ args: [String]) throws -> Output {
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        let result = try ProcessRunner.run(program: program, args, in: folder, environment: env, stderr: .merged)
        return Output(status: result.status, text: result.stdout)
    }

    /// Runs the built `archivist`; throws when it fails.
    @discardableResult
    func archivist(_ args: [String]) throws -> Output {
        let result = try run(ProcessRunner.archivist.path, args)
        guard result.status == 0 else { throw Failure(description: "archivist \(args.joined(separator: " ")): \(result.text)") }
        return result
    }

    /// Compiles Swift files of the folder into a program of module `module`
    /// (Swift 6, warnings as errors) and returns its path; throws when
    /// swiftc fails.
    func compile(_ files: [String], module: String) throws -> String {
        let program = path("bin-" + ([module] + files).joined(separator: "-").replacingOccurrences(of: "/", with: "_"))
        let result = try run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "-module-name", module, "-o", program] + files)
        guard result.status == 0 else { throw Failure(description: "swiftc \(files): \(result.text)") }
        return program
    }

    /// Runs `archivist codegen ARGS -o NAME` and returns the Swift it wrote.
    func generate(_ args: [String], into name: String = "Upgrade.swift") throws -> String {
        try archivist(["codegen"] + args + ["-o", name])
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path(name))), as: UTF8.self)
    }

    /// Writes `source` as `FOLDER/main.swift` and compiles it, after `files`
    /// (generated code), into a program of module `module`; returns its path.
    func program(_ folder: String, source: String, after files: [String] = [], module: String) throws -> String {
        try write(folder + "/main.swift", Data(source.utf8))
        return try compile(files + [folder + "/main.swift"], module: module)
    }

    /// Removes the folder.
    func remove() {
        scratch.remove()
    }
}

/// The bench a test class prepares once, in `class func setUp()`, for all its
/// tests: what the preparation made, or the error it threw (each test then
/// throws it); `remove()`, in `class func tearDown()`, removes the folder.
final class PreparedBench<Value>: @unchecked Sendable {
    private var result: Result<Value, any Error>?
    private var bench: UpgradeBench?

    /// Makes a bench and prepares it with `make`.
    func prepare(_ make: (UpgradeBench) throws -> Value) {
        result = Result {
            let bench = try UpgradeBench()
            self.bench = bench
            return try make(bench)
        }
    }

    /// What the preparation made; throws what it threw.
    func get() throws -> Value {
        try XCTUnwrap(result).get()
    }

    /// Removes the bench's folder.
    func remove() {
        bench?.remove()
        bench = nil
        result = nil
    }
}
