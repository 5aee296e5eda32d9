#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit of open files, raised once: a batch holds a
/// descriptor per folder it writes into and a lock (an open file) per staged
/// result until it commits (see `Folder` and `TemporaryLock`).
enum OpenFileLimit {
    /// The soft limit after raising it to the hard limit (at most 2^20), done
    /// on first use; 0 when it cannot be read.
    static let raised: Int = {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        let wanted = min(limit.rlim_max, 1 << 20)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }()
}
