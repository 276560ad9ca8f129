import AnalyticsSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tests' own client closes what it opened, once. A refused connection
/// once closed its socket twice (in the failed init, then in `deinit`): the
/// second close took whatever another test had opened under that number
/// meanwhile, and a server of a test running in parallel failed to bind with
/// EBADF.
struct LoopbackConnectionTests {
    @Test func aRefusedConnectionClosesItsSocketOnlyOnce() throws {
        try withRefusingPort { port in try refuseWhileAnotherThreadOpens(port) }
    }

    private func refuseWhileAnotherThreadOpens(_ port: UInt16) throws {
        let stop = Locked(false)
        let closedUnderIt = Locked(0)
        let rounds = Locked(0)
        // Another thread opens /dev/null all along and checks each
        // descriptor it holds is still open when it closes it.
        let churn = Thread {
            while !stop.withLock({ $0 }) {
                let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { continue }
                if fcntl(descriptor, F_GETFD) == -1 || close(descriptor) != 0 { closedUnderIt.withLock { $0 += 1 } }
                rounds.withLock { $0 += 1 }
            }
        }
        churn.start()
        defer { stop.withLock { $0 = true } }
        let deadline = Date().addingTimeInterval(10)
        while rounds.withLock({ $0 }) == 0, Date() < deadline { usleep(1_000) }
        #expect(rounds.withLock({ $0 }) > 0, "the other thread is opening descriptors")
        for _ in 0..<1_000 where closedUnderIt.withLock({ $0 }) == 0 {
            #expect(LoopbackConnection(port: port) == nil, "nothing listens on \(port)")
        }
        stop.withLock { $0 = true }
        #expect(closedUnderIt.withLock({ $0 }) == 0, "a descriptor another thread held was closed under it")
    }

    /// Refused connections leave no socket open either.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "reads descriptors from /proc"))
    func aRefusedConnectionLeavesNoSocketOpen() throws {
        try withRefusingPort { port in
            let sockets = { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 0 }
            let before = sockets()
            for _ in 0..<300 { #expect(LoopbackConnection(port: port) == nil) }
            // Other tests open some meanwhile; 300 leaked would show.
            #expect(sockets() - before < 100, "\(sockets() - before) more descriptors open after 300 refused connections")
        }
    }
}
