import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds back what a test prints (generated Swift, a snippet's `print`) so
/// the test log stays quiet: standard output goes to a temporary file from
/// `start()` to `stop()`, which returns it for the test to show when it
/// failed. Not nested, not across threads: one test at a time.
public final class StandardOutputCapture {
    private var saved: Int32 = -1
    private var file: Int32 = -1
    private var path = ""

    public init() {}

    /// Sends standard output to a temporary file; false (nothing held back)
    /// when it cannot.
    @discardableResult
    public func start() -> Bool {
        guard saved < 0 else { return false }
        let name = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("archivist-test-output-XXXXXX").path
        var template = Array(name.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { return false }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fflush(nil)  // every stream: Swift's print buffers in C's stdout
        let copy = dup(STDOUT_FILENO)
        guard copy >= 0, dup2(fd, STDOUT_FILENO) >= 0 else {
            if copy >= 0 { close(copy) }
            close(fd); unlink(path)
            return false
        }
        saved = copy
        file = fd
        return true
    }

    /// Gives standard output back and returns what was printed meanwhile.
    @discardableResult
    public func stop() -> String {
        guard saved >= 0 else { return "" }
        fflush(nil)  // every stream: Swift's print buffers in C's stdout
        dup2(saved, STDOUT_FILENO)
        close(saved)
        saved = -1
        close(file)
        file = -1
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        unlink(path)
        return text
    }

    deinit { stop() }
}
