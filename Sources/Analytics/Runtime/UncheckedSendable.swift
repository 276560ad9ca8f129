/// Holds a value of a type that is thread-safe but not marked `Sendable` on
/// every platform SDK (`NotificationCenter`, documented as thread-safe).
/// Use only for such types: the compiler checks nothing here.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
