import Foundation

/// What a finished process left: its status, standard output and standard error.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var output: Data
    public var stderr: String
    public var stdout: String { String(decoding: output, as: UTF8.self) }

    public init(status: Int32, output: Data, stderr: String) {
        self.status = status
        self.output = output
        self.stderr = stderr
    }
}

/// The one way the tests start a program: the built `archivist`, an oracle,
/// a shell, a tracer. `run` waits for the result; `start` hands back the
/// running process for tests that signal it, feed it or read it as it goes.
public enum ProcessRunner {
    /// What the program reads.
    public enum Input {
        /// `/dev/null`.
        case null
        /// The test process's own standard input.
        case inherit
        /// A pipe holding these bytes, then closed (empty bytes: at once end of file).
        case bytes(Data)
        /// A pipe left open: the test writes to `RunningProcess.input` and closes it.
        case open
        /// A file the test opened.
        case handle(FileHandle)
    }

    /// Where the program's standard output or standard error goes.
    public enum Output {
        /// A pipe `finish()` collects.
        case pipe
        /// `/dev/null`.
        case null
        /// The test process's own.
        case inherit
        /// A pipe whose read end is closed before the program starts: every write fails with EPIPE.
        case closed
        /// A file (or terminal) the test opened.
        case handle(FileHandle)
        /// Standard error only: into the standard output pipe (the result's `stderr` is then empty).
        case merged
    }

    /// The built `archivist` beside the test bundle.
    public static var archivist: URL { TestPaths.productsDirectory.appendingPathComponent("archivist") }

    /// Runs `executable ARGS` in `folder` and waits for it.
    public static func run(_ executable: URL, _ args: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                           stdin: Input = .bytes(Data()), stdout: Output = .pipe, stderr: Output = .pipe) throws -> ProcessResult {
        try start(executable, args, in: folder, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr).finish()
    }

    /// Runs a program found on `PATH` (through `/usr/bin/env`) in `folder`.
    public static func run(program: String, _ args: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                           stdin: Input = .null, stdout: Output = .pipe, stderr: Output = .pipe) throws -> ProcessResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [program] + args, in: folder, environment: environment,
                stdin: stdin, stdout: stdout, stderr: stderr)
    }

    /// Runs one test of this very test binary in a child process (so that a
    /// trap there cannot take the tests down), with `environment` added to
    /// this process's and Swift's backtraces off; its standard output and
    /// error together.
    public static func runTestChild(_ test: String, environment: [String: String]) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        env.merge(environment) { $1 }
        return try run(URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]), [test], environment: env, stdin: .inherit, stderr: .merged)
    }

    /// Starts `executable ARGS` in `folder` without waiting for it.
    public static func start(_ executable: URL, _ args: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                             stdin: Input = .null, stdout: Output = .pipe, stderr: Output = .pipe) throws -> RunningProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        var input: Pipe?, bytes: Data?
        switch stdin {
        case .null: process.standardInput = FileHandle.nullDevice
        case .inherit: break
        case .bytes(let data): input = Pipe(); bytes = data
        case .open: input = Pipe()
        case .handle(let handle): process.standardInput = handle
        }
        if let input { process.standardInput = input }
        let out = try attach(stdout, merged: nil) { process.standardOutput = $0 }
        let err = try attach(stderr, merged: out) { process.standardError = $0 }
        try process.run()
        if let input, let bytes {
            input.fileHandleForWriting.write(bytes)
            try input.fileHandleForWriting.close()
        }
        return RunningProcess(process: process, input: input, out: out, err: stderr.isMerged ? nil : err)
    }

    private static func attach(_ output: Output, merged: Pipe?, _ set: (Any) -> Void) throws -> Pipe? {
        switch output {
        case .pipe:
            let pipe = Pipe()
            set(pipe)
            return pipe
        case .null:
            set(FileHandle.nullDevice)
        case .inherit:
            break
        case .closed:
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            set(pipe)
        case .handle(let handle):
            set(handle)
        case .merged:
            if let merged { set(merged) }
        }
        return nil
    }
}

extension ProcessRunner.Output {
    var isMerged: Bool {
        if case .merged = self { return true }
        return false
    }
}

/// A program `ProcessRunner.start` started.
public final class RunningProcess {
    public let process: Process
    /// Its standard input, when started with `.open`.
    public let input: Pipe?
    /// Its standard output and standard error, when they are `.pipe`.
    public let out: Pipe?, err: Pipe?

    init(process: Process, input: Pipe?, out: Pipe?, err: Pipe?) {
        self.process = process
        self.input = input
        self.out = out
        self.err = err
    }

    public var pid: Int32 { process.processIdentifier }

    /// Reads what is left of its standard output and standard error (the
    /// latter on another thread, so neither pipe can fill up and block) and
    /// waits for it to end.
    public func finish() -> ProcessResult {
        let errorData = DataBox()
        let group = DispatchGroup()
        if let err {
            DispatchQueue.global().async(group: group) { errorData.data = err.fileHandleForReading.readDataToEndOfFile() }
        }
        let output = out?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, output: output, stderr: String(decoding: errorData.data, as: UTF8.self))
    }
}

/// Bytes one thread collects and another reads once it is done (after a
/// `DispatchGroup.wait()`).
public final class DataBox: @unchecked Sendable {
    public var data = Data()
    public init() {}
}
