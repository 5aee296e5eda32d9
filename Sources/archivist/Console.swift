#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Line output: results to standard output, errors and warnings to standard error.
enum Console {
    /// Prints a result line on standard output.
    static func output(_ line: String) {
        print(line)
    }

    /// Prints an error or warning line on standard error (unbuffered).
    static func error(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
