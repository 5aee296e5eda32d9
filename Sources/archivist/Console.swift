#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Line output: results to standard output, errors and warnings to standard error.
enum Console {
    /// Prints a result on standard output, ending with `terminator`.
    static func output(_ text: String, terminator: String = "\n") {
        print(text, terminator: terminator)
    }

    /// Sends what `output` printed so far, so that a line on standard output
    /// comes before the standard-error lines that follow it when both go to
    /// one place.
    static func flush() {
        fflush(nil)
    }

    /// Prints an error or warning line on standard error (unbuffered).
    static func error(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
