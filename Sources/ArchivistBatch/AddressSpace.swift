import ArchivistCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory a process may still take under its address-space limit
/// (`ulimit -v`, `RLIMIT_AS`): where an allocation the system refuses would
/// end the process (Swift stops on a failed allocation, SIGABRT), an input
/// whose work would not fit is refused with an error before it is read.
package enum AddressSpace {
    /// How many times its size an input may take while a command works on
    /// it: its bytes, its tree, the values and the result (`set` and `diff`
    /// hold a file's values besides its tree).
    package static let bytesPerInputByte = 8

    /// Bytes the limit still leaves (the limit less the address space in
    /// use); nil without a limit.
    package static func available() -> Int? {
        guard let limit else { return nil }
        return max(0, limit - inUse())
    }

    /// The limit, read once rather than for every input (the command never
    /// changes its own address-space limit); nil without a limit.
    private static let limit: Int? = {
        var limit = rlimit()
        #if os(Linux)
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 else { return nil }
        #else
        guard getrlimit(RLIMIT_AS, &limit) == 0 else { return nil }
        #endif
        guard limit.rlim_cur < rlim_t(Int.max) else { return nil }  // RLIM_INFINITY is all ones
        return Int(limit.rlim_cur)
    }()

    /// Throws when working on an input of `size` bytes would pass the limit.
    package static func check(inputOf size: Int, name: String) throws {
        guard size > 0, let left = available() else { return }
        let (needed, overflow) = size.multipliedReportingOverflow(by: bytesPerInputByte)
        guard overflow || needed > left else { return }
        let mb = { (bytes: Int) in "\(bytes / 1_048_576) MB" }
        throw PlistError(.limitExceeded, "cannot read \(name): its \(size) bytes need about \(overflow ? "more than " + mb(.max) : mb(needed)) of memory, more than the address-space limit (ulimit -v) leaves (\(mb(left)))")
    }

    /// The address space the process uses now (Linux: `/proc/self/statm`'s
    /// first field, in pages); 0 where it cannot be read.
    private static func inUse() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return 0 }
        var pages = 0
        for byte in buffer[..<n] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            let (times, o1) = pages.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { return 0 }
            pages = sum
        }
        let (bytes, overflow) = pages.multipliedReportingOverflow(by: Int(sysconf(Int32(_SC_PAGESIZE))))
        return overflow ? 0 : bytes
    }
}
