import AnalyticsSupport
import Dispatch
import Foundation
import Testing

/// The lock every shared value of the SDK (clocks, transports, the
/// collector's store) relies on, checked the way a data race shows itself:
/// updates from many threads at once, none of them lost.
struct LockedTests {
    @Test func updatesFromManyThreadsAtOnceAreNeverLost() {
        let counter = Locked(0)
        let threads = 8
        let updates = 20_000
        onThreads(threads) {
            for _ in 0..<updates { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == threads * updates)
    }

    /// Mutual exclusion shown without relying on a race: while one caller is
    /// inside the lock, another waits, and then sees what the first wrote.
    @Test func aSecondCallerWaitsUntilTheFirstLeaves() {
        let shared = Locked(0)
        let inside = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        let seen = Locked<Int?>(nil)
        // Threads of their own: a dispatch queue may not give the second caller a thread in time.
        Thread {
            shared.withLock { value in
                inside.signal()
                leave.wait()
                value = 1
            }
        }.start()
        inside.wait()
        Thread {
            let value = shared.withLock { $0 }
            seen.withLock { $0 = value }
            secondDone.signal()
        }.start()
        // With the lock held, the second caller cannot finish; give it time to try.
        let early = secondDone.wait(timeout: .now() + 0.5)
        #expect(early == .timedOut, "the second caller got in while the first held the lock")
        leave.signal()
        if early == .timedOut { secondDone.wait() }
        #expect(seen.withLock { $0 } == 1, "the second caller saw the first one's write")
    }

    @Test func whatTheBodyReturnsOrThrowsComesBackAndTheLockIsFreeAfter() {
        struct Refused: Error {}
        let names = Locked(["a"])
        #expect(names.withLock { $0.append("b"); return $0.count } == 2)
        #expect(throws: Refused.self) { try names.withLock { _ in throw Refused() } }
        // A lock left held by the throw would block here for ever.
        #expect(names.withLock { $0 } == ["a", "b"])
    }
}
