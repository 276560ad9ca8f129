import Foundation

/// A value behind a lock, shared across threads. (`Mutex` from the
/// Synchronization module needs macOS 15 / iOS 18.)
///
/// `Value` must be `Sendable`: what `withLock` returns leaves the lock, so a
/// non-Sendable value could be shared unguarded through it.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // Invariant that makes the `@unchecked` safe: `value` is read and written
    // only inside `withLock`, while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
