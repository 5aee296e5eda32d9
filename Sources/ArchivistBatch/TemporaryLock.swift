import ArchivistCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `flock` a writer holds on a staged temporary file until it is placed
/// or discarded, which tells a later run's cleanup that the file is live
/// (see `FileIO.removeLeftovers`): a descriptor of the file, closed when the
/// last copy of its `StagedFile` goes (placed, discarded, or the batch
/// done); and the lock a cleanup keeps on each leftover it removed. A lock is an open file: at most half the process's open-file
/// limit (raised to its hard limit, at most 2^20, the first time) are held
/// at once; past that, a staged file is left unlocked, and a cleanup by
/// another run in the same folder may take it for a leftover (its result
/// then fails to be put in place, and the destination is left as it was).
final class TemporaryLock: Sendable, Equatable {
    private let descriptor: Int32

    /// Takes over the locked descriptor `fd` (closed with this); nil, and
    /// `fd` left to the caller, when the budget is spent.
    init?(adopting fd: Int32) {
        guard Self.reserve() else { return nil }
        descriptor = fd
    }

    /// A second descriptor of `fd` (locked by its creator), so the lock
    /// outlives `fd`'s close; nil when the budget is spent or `dup` fails.
    init?(holding fd: Int32) {
        guard Self.reserve() else { return nil }
        // One call for the copy and its close-on-exec flag (no window for a fork).
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            Self.held.withLock { $0 -= 1 }
            return nil
        }
        descriptor = copy
    }

    deinit {
        close(descriptor)
        Self.held.withLock { $0 -= 1 }
    }

    static func == (a: TemporaryLock, b: TemporaryLock) -> Bool { a === b }

    /// Locks held now.
    private static let held = Locked(0)

    /// Counts one more lock held, if the budget allows.
    private static func reserve() -> Bool {
        held.withLock { held -> Bool in
            guard held < budget else { return false }
            held += 1
            return true
        }
    }

    /// How many locks may be held at once: half the open-file limit (raised
    /// to the hard limit, at most 2^20, first).
    private static let budget = OpenFileLimit.raised / 2
}
