import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a scratch copy (`flock` on `.mutate-lock` in it), so
/// two runs never build in one copy at once. The system drops the lock when
/// the process ends, however it ends.
final class ScratchLock {
    private let descriptor: Int32

    /// Takes the lock. Without `wait`, a held lock throws at once; with it,
    /// `waiting` is called once and the lock is polled until it is free (or
    /// the run is interrupted). `lock` is `flock` (a test stands in for it
    /// to return what a network file system can, such as EINTR), and
    /// `interruption` the user's signal, if any (`Interruption.requested`),
    /// and `poll` the pause between two asks while waiting (200 ms).
    init(root: URL, wait: Bool, lock: (Int32, Int32) -> Int32 = { flock($0, $1) },
         interruption: () -> Int32? = { Interruption.requested }, poll: () -> Void = pauseBeforeAskingAgain,
         waiting: () -> Void) throws {
        // Every failure closes the descriptor and throws before `descriptor`
        // is set: an initializer that throws after setting every property
        // still runs `deinit`, which would close the number a second time,
        // and by then another thread may have opened something under it.
        descriptor = try Self.acquire(root: root, wait: wait, lock: lock, interruption: interruption, poll: poll, waiting: waiting)
    }

    /// Opens the lock file and locks it; the descriptor, locked, or an error
    /// with the descriptor closed. A call cut short by a signal (EINTR) is
    /// tried again at once, with or without `wait`, unless the signal was the
    /// user's: then the run is interrupted.
    private static func acquire(root: URL, wait: Bool, lock: (Int32, Int32) -> Int32, interruption: () -> Int32?,
                                poll: () -> Void, waiting: () -> Void) throws -> Int32 {
        let path = root.appendingPathComponent(".mutate-lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw WorkspaceError(reason: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        var announced = false
        while lock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            let stop: Error?
            if failure == EINTR {
                // A call cut short by a signal says nothing of the lock: asked again at once, unless the signal was the user's.
                guard let signal = interruption() else { continue }
                stop = LabError.interrupted(signal: signal)
            } else if failure != EWOULDBLOCK {
                stop = WorkspaceError(reason: "cannot lock \(path): \(String(cString: strerror(failure)))")
            } else if !wait {
                stop = LabError.locked(root.path)
            } else {
                if !announced {
                    waiting()
                    announced = true
                }
                stop = interruption().map { LabError.interrupted(signal: $0) }
            }
            if let stop {
                close(descriptor)
                throw stop
            }
            poll()
        }
        return descriptor
    }

    /// The pause between two asks for a held lock: a fifth of a second, so
    /// a waiting run takes no core from the run that holds it.
    static func pauseBeforeAskingAgain() {
        usleep(200_000)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
