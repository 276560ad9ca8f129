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
    /// the run is interrupted).
    init(root: URL, wait: Bool, waiting: () -> Void) throws {
        let path = root.appendingPathComponent(".mutate-lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw WorkspaceError(reason: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        var announced = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(descriptor)
                throw WorkspaceError(reason: "cannot lock \(path): \(String(cString: strerror(errno)))")
            }
            guard wait else {
                close(descriptor)
                throw LabError.locked(root.path)
            }
            if !announced {
                waiting()
                announced = true
            }
            if let signal = Interruption.requested {
                close(descriptor)
                throw LabError.interrupted(signal: signal)
            }
            usleep(200_000)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
