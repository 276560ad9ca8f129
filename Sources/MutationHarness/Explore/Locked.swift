import Foundation

/// A value shared between the lab's callback and the command.
final class Locked<Value>: @unchecked Sendable {
    // Invariant: `stored` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ value: Value) {
        lock.lock()
        stored = value
        lock.unlock()
    }
}
