#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex (the core does not import Foundation, and
/// `Synchronization.Mutex` needs macOS 15). It is the one type that vouches for
/// its own thread safety (`@unchecked Sendable`): types that share mutable
/// state between threads keep it in a `Locked` and are plainly `Sendable`.
///
/// The value lives behind a pointer, not in a stored property: the mutex
/// already keeps one body at a time, and a property passed `inout` would
/// also be registered with the runtime's exclusivity checks on every call
/// (a batch locks several times a file).
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    /// `value`, guarded from now on.
    package init(_ value: Value) {
        self.value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, no other thread touching it meanwhile.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
