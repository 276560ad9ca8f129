import Foundation

/// A value shared between threads of the harness (the lab's callbacks and
/// the command, a process's output readers). `Value` must be `Sendable`:
/// what leaves the lock could otherwise be shared unguarded.
///
/// The harness does not depend on the SDK's support module, so it keeps
/// this small copy of its lock box.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // Invariant that makes the `@unchecked` safe: `stored` is read and
    // written only while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { withLock { $0 } }

    func set(_ value: Value) { withLock { $0 = value } }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
