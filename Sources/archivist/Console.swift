#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArchivistCore

/// Line output: results to standard output, errors and warnings to standard error.
///
/// Every text output goes through here and is made safe for a terminal with
/// `TerminalText`: a line (`output`, `error`) has every control character
/// escaped, line breaks and tabs included, so a name cannot forge a line; a
/// block of lines (`text`, `outputSink()`) keeps its line feeds and tabs and
/// escapes the rest. Machine formats (JSON, a value `get` prints for a script)
/// go out as they are through `data` and `dataSink()`.
///
/// A failed write to standard output (a full disk, a closed pipe) is recorded
/// the first time; later output is dropped, and `finish(status:)` reports it
/// once at the end as `error: cannot write standard output: REASON`. A
/// command that only reads (`stopsAtFailedOutput`) ends there instead, with
/// that line and the same status: the rest of its work would print to no one.
enum Console {
    /// Standard output's buffer: what `data` printed and has not yet written.
    /// On a terminal each line is written as it is printed.
    private static let pending = Locked<[UInt8]>([])
    /// Standard output is a terminal.
    private static let interactive = isatty(STDOUT_FILENO) == 1
    /// The size at which the buffer is written, and the size of a sink's
    /// buffer (`outputSink`, `dataSink`): a view streams out in pieces of
    /// 64 KiB, whatever its size.
    private static let bufferSize = 1 << 16

    /// The `errno` of the first failed write to standard output.
    private static let failure = Locked<Int32?>(nil)

    /// The exit status when standard output failed: 1, or 2 for `diff`, whose
    /// status 1 means the files differ.
    nonisolated(unsafe) static var outputFailureStatus: Int32 = 1

    /// The run ends at the first failed write to standard output (see the
    /// type's description); set by the commands that write no file
    /// (`lint` without `--stamp`, `info`, `classes`, `get`, `diff`, `schema`),
    /// before they print. A command that writes files finishes them and only
    /// stops printing.
    nonisolated(unsafe) static var stopsAtFailedOutput = false

    /// The error a stream to standard output ends with once a write failed;
    /// `finish(status:)` reports it.
    struct OutputFailed: Error {}

    /// Set up before a command runs: SIGPIPE is ignored, so that a closed
    /// pipe on standard output is a failed write (EPIPE) that is reported,
    /// like a full disk, instead of a silent death by signal. The fatal
    /// signals get their default action back (unless `SWIFT_BACKTRACE` asks
    /// for Swift's backtraces): Swift's crash handler runs a program named
    /// `swift-backtrace` that it looks for in the runtime's folder: the
    /// binary's own, or the current folder when the static binary is run by
    /// name through PATH (`./swift-backtrace`, `./bin/`, `./libexec/swift/`,
    /// seen with strace). Whoever may write that folder (a cloned repository
    /// being linted) would have their program run with this process's
    /// rights at its first crash.
    static func start() {
        signal(SIGPIPE, SIG_IGN)
        if getenv("SWIFT_BACKTRACE") == nil {
            for fatal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGQUIT] { signal(fatal, SIG_DFL) }
        }
        LoaderPages.release()
    }

    /// Prints one line on standard output, every control character escaped.
    static func output(_ line: String) {
        data(TerminalText.escaped(line))
    }

    /// Prints one line on standard output, every control character escaped,
    /// in `color` when one is given (the escapes `--color` asks for).
    static func output(_ line: String, color: LineColor?) {
        guard let color else { return output(line) }
        data("\u{1B}[\(color.rawValue)m" + TerminalText.escaped(line) + "\u{1B}[0m")
    }

    /// Prints a tab-separated line, each column's control characters (tabs
    /// included) escaped.
    static func output(columns: [String]) {
        data(columns.map { TerminalText.escaped($0) }.joined(separator: "\t"))
    }

    /// Prints a block of lines (a dump, generated source) as it is made, line
    /// feeds and tabs kept, other control characters escaped; `terminator`
    /// follows it.
    /// A `painted` block (a dump in colour) holds escape sequences of its
    /// own and goes out as it is: its maker escaped the names in it.
    static func text(_ block: String, terminator: String = "", painted: Bool = false) {
        data(painted ? block : TerminalText.escaped(block, keepingLayout: true), terminator: terminator)
    }

    /// Prints a document a writer made (pretty JSON ends with its own line
    /// break): unchanged, with a line break only where it has none.
    static func document(_ bytes: [UInt8]) {
        data(String(decoding: bytes, as: UTF8.self), terminator: bytes.last == UInt8(ascii: "\n") ? "" : "\n")
    }

    /// Prints text of a machine format (JSON) or a value for a script,
    /// unchanged, ending with `terminator`.
    static func data(_ text: String, terminator: String = "\n") {
        guard failure.withLock({ $0 == nil }) else { return }
        let full = pending.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            buffer.append(contentsOf: terminator.utf8)
            return interactive || buffer.count >= bufferSize
        }
        if full { flush() }
    }

    /// Writes what `output` printed so far, so that a line on standard output
    /// comes before the standard-error lines that follow it when both go to
    /// one place.
    static func flush() {
        let bytes = pending.withLock { buffer in
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        guard !bytes.isEmpty, failure.withLock({ $0 == nil }) else { return }
        try? bytes.withUnsafeBytes { try writeAll($0) }
    }

    /// A sink for a block of text written as it is made (a dump): its bytes
    /// go to standard output each time its buffer is full (after what
    /// `output` printed before, so the two keep their order), line feeds and
    /// tabs kept, other control characters escaped; `finish()` it at the end.
    /// A `painted` block (a dump in colour) holds escape sequences of its
    /// own and goes out as it is: its maker escaped the names in it.
    static func outputSink(painted: Bool = false) -> ByteSink {
        if painted { return dataSink() }
        var escaper = TerminalText.Escaper(keepingLayout: true)
        var scratch: [UInt8] = []
        return ByteSink(capacity: bufferSize) { bytes in
            scratch.removeAll(keepingCapacity: true)
            escaper.escape(bytes.bindMemory(to: UInt8.self), into: &scratch)
            flush()
            try scratch.withUnsafeBytes { try writeAll($0) }
        }
    }

    /// A sink for a machine format (JSON) streamed to standard output
    /// unchanged; `finish()` it at the end.
    static func dataSink() -> ByteSink {
        ByteSink(capacity: bufferSize) { bytes in
            flush()
            try writeAll(bytes)
        }
    }

    /// Throws `OutputFailed` once a write to standard output failed, so a
    /// command stops making output nobody receives.
    static func checkOutput() throws {
        if failure.withLock({ $0 != nil }) { throw OutputFailed() }
    }

    /// Writes `bytes` to standard output after what stdio holds; on failure
    /// records it and throws `OutputFailed`.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard failure.withLock({ $0 == nil }) else { throw OutputFailed() }
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = write(STDOUT_FILENO, next, left)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let code = n < 0 ? errno : EIO
                let first = failure.withLock { failure -> Bool in
                    defer { if failure == nil { failure = code } }
                    return failure == nil
                }
                if first, stopsAtFailedOutput {
                    // Nothing else is pending: standard error is written
                    // unbuffered and the command writes no file.
                    error("error: cannot write standard output: " + String(cString: strerror(code)))
                    _exit(outputFailureStatus)
                }
                throw OutputFailed()
            }
            next += n
            left -= n
        }
    }

    /// Ends the run: sends what stdio holds, and when a write to standard
    /// output failed, prints `error: cannot write standard output: REASON`
    /// once and returns the status to exit with (the larger of `status` and
    /// `outputFailureStatus`); nil when standard output is fine.
    static func finish(status: Int32) -> Int32? {
        flush()
        guard let code = failure.withLock({ $0 }) else { return nil }
        error("error: cannot write standard output: " + String(cString: strerror(code)))
        return max(status, outputFailureStatus)
    }

    /// Prints an error or warning line on standard error (unbuffered), every
    /// control character escaped.
    static func error(_ line: String) {
        writeError(TerminalText.escaped(line) + "\n")
    }

    /// Prints a block of lines on standard error (a usage text), line feeds
    /// and tabs kept, other control characters escaped.
    static func errorBlock(_ block: String) {
        let text = TerminalText.escaped(block, keepingLayout: true)
        writeError(text.hasSuffix("\n") ? text : text + "\n")
    }

    private static func writeError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
