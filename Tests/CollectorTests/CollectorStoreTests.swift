@testable import Collector
import Testing

/// The store's one connection: a batch's transaction must never interleave
/// with another caller's, nor the statement cache be touched by two threads.
/// `CollectorRulesTests.concurrentBatchesAndReadsShareOneStoreSafely` races
/// real callers; a race is caught only when the threads happen to meet, so
/// the rule itself is checked here without one.
struct CollectorStoreTests {
    @Test func theConnectionHasOneCallerAtATimeAndIsFreeAfterEachCall() throws {
        let store = try CollectorStore()
        #expect(!store.isBusy)
        let inside = try store.withDatabase { _ in store.isBusy }
        #expect(inside, "a caller inside holds the connection: any other waits")
        #expect(!store.isBusy, "and lets go of it when done")
        _ = try store.count
        _ = try store.events()
        _ = try store.screenRows()
        #expect(!store.isBusy, "after every read")
    }
}
