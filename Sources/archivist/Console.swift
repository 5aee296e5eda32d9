#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArchivistCore

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

    /// A sink whose bytes go to standard output each time its buffer is full
    /// (after what `output` printed before, so the two keep their order), for
    /// results written as they are made; `finish()` it at the end.
    static func outputSink() -> ByteSink {
        ByteSink { bytes in
            guard var next = bytes.baseAddress else { return }
            flush()
            var left = bytes.count
            while left > 0 {
                let n = write(STDOUT_FILENO, next, left)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw PlistError(.io, "cannot write standard output: " + String(cString: strerror(errno))) }
                next += n
                left -= n
            }
        }
    }

    /// Prints an error or warning line on standard error (unbuffered).
    static func error(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
