import Foundation

/// Whether the user asked the run to stop (SIGINT or SIGTERM).
///
/// The signal handler only sets the flag and kills the running commands; the
/// lab checks the flag after every step and unwinds with
/// `LabError.interrupted`, so an interrupted mutant never gets a verdict and
/// the process exits with 130, never with the gate's code.
enum Interruption {
    /// The process's one request (tests make their own `InterruptRequest`).
    static let current = InterruptRequest()

    /// The signal that asked the run to stop, if one did.
    static var requested: Int32? { current.signal }

    @discardableResult
    static func request(_ signal: Int32) -> Bool { current.request(signal) }

    static func finish(_ body: (_ interrupted: Bool) -> Never) -> Never { current.finish(body) }
}

/// A request to stop: the first signal is the one recorded, later ones only
/// learn that a request was made already.
final class InterruptRequest: Sendable {
    private let signalNumber = Locked<Int32?>(nil)

    /// The signal that asked the run to stop, if one did.
    var signal: Int32? { signalNumber.value }

    /// Records the request; true the first time only.
    @discardableResult
    func request(_ signal: Int32) -> Bool {
        signalNumber.withLock { number in
            guard number == nil else { return false }
            number = signal
            return true
        }
    }

    /// Runs `body` (the process's final exit) while holding the lock, so that
    /// no request can slip in between reading the flag and exiting: a signal
    /// that arrives later waits, and the process is gone before it is recorded.
    func finish(_ body: (_ interrupted: Bool) -> Never) -> Never {
        signalNumber.withLock { number -> Never in body(number != nil) }
    }
}
