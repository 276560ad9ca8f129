import AnalyticsSupport
import Dispatch
import Testing

/// The lock every shared value of the SDK (clocks, transports, the
/// collector's store) relies on, checked the way a data race shows itself:
/// updates from many threads at once, none of them lost.
struct LockedTests {
    @Test func updatesFromManyThreadsAtOnceAreNeverLost() {
        let counter = Locked(0)
        let threads = 8
        let updates = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<updates { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == threads * updates)
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
