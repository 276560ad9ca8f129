import Foundation

/// Whether the user asked the run to stop (SIGINT or SIGTERM).
///
/// The signal handler only sets the flag and kills the running commands; the
/// lab checks the flag after every step and unwinds with
/// `LabError.interrupted`, so an interrupted mutant never gets a verdict and
/// the process exits with 130, never with the gate's code.
enum Interruption {
    /// Guarded by `lock`; read and written only through the functions below.
    private nonisolated(unsafe) static var signalNumber: Int32?
    private static let lock = NSLock()

    /// The signal that asked the run to stop, if one did.
    static var requested: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return signalNumber
    }

    /// Records the request; true the first time.
    @discardableResult
    static func request(_ signal: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard signalNumber == nil else { return false }
        signalNumber = signal
        return true
    }

    /// Runs `body` (the process's final exit) so that no request can slip in
    /// between reading the flag and exiting: a signal that arrives later
    /// waits, and the process is gone before it is recorded.
    static func finish(_ body: (_ interrupted: Bool) -> Never) -> Never {
        lock.lock()
        body(signalNumber != nil)
    }

    /// For tests that simulate a signal in-process.
    static func reset() {
        lock.lock()
        signalNumber = nil
        lock.unlock()
    }
}
