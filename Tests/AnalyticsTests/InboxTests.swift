import Foundation
import Testing
@testable import Analytics

/// The hand-off between the app's threads and the worker, as a value.
struct InboxTests {
    private func names(_ work: [Inbox.Work]) -> [String] {
        work.map { item in
            switch item {
            case .track(let name, _, _, _): name
            case .other: "other"
            }
        }
    }

    private let stamp = Stamp(clock: SystemClock())

    @Test func keepsCallOrderAndAsksForOneDrainPerBurst() {
        let inbox = Inbox(capacity: 10)
        #expect(inbox.add(.track(name: "a", properties: [:], id: UUID(), stamp: stamp)), "the first item asks for a drain")
        #expect(!inbox.add(.other({})), "later items ride on it")
        #expect(!inbox.add(.track(name: "b", properties: [:], id: UUID(), stamp: stamp)))
        let (work, dropped) = inbox.take()
        #expect(names(work) == ["a", "other", "b"])
        #expect(dropped == 0)
        #expect(inbox.add(.track(name: "c", properties: [:], id: UUID(), stamp: stamp)), "empty again: the next item asks again")
    }

    @Test func aBurstPastTheCapacityDropsTheOldestEventsAndCountsEachOne() {
        let inbox = Inbox(capacity: 10)
        for index in 0..<25 { _ = inbox.add(.track(name: "e\(index)", properties: [:], id: UUID(), stamp: stamp)) }
        let (work, dropped) = inbox.take()
        #expect(names(work) == (15..<25).map { "e\($0)" }, "the newest events are kept, like the queue's cap")
        #expect(dropped == 15)
        #expect(inbox.take().dropped == 0, "counted once")
    }

    /// A long burst taken a slice at a time: once more than 4,096 items
    /// were handed out and they are most of the array, the inbox drops them
    /// from its storage. Every event still waiting comes out once, in order,
    /// after that compaction (found by explore: a head left one past the
    /// start lost the next event, and only a loaded concurrent test ever
    /// reached it).
    @Test func aLongBurstTakenInSlicesLosesNothingWhenTheInboxCompacts() {
        let inbox = Inbox(capacity: 1_000_000)
        for index in 0..<10_000 { _ = inbox.add(.track(name: "e\(index)", properties: [:], id: UUID(), stamp: stamp)) }
        var taken: [String] = []
        for _ in 0..<6 { taken += names(inbox.take(limit: 1_000).work) }
        // 6,000 handed out of 10,000: the inbox compacts here.
        #expect(inbox.heldCount == 4_000, "what was handed out leaves the storage")
        _ = inbox.add(.other({}))
        while case let (work, _) = inbox.take(limit: 1_000), !work.isEmpty { taken += names(work) }
        #expect(taken == (0..<10_000).map { "e\($0)" } + ["other"])
    }

    @Test func takesASliceAtATimeAndCountsWhatItHandedOut() {
        let inbox = Inbox(capacity: 10)
        for index in 0..<8 { _ = inbox.add(.track(name: "e\(index)", properties: [:], id: UUID(), stamp: stamp)) }
        #expect(names(inbox.take(limit: 3).work) == ["e0", "e1", "e2"])
        // Three were handed to the worker: seven more fit before the cap drops any.
        for index in 8..<15 { _ = inbox.add(.track(name: "e\(index)", properties: [:], id: UUID(), stamp: stamp)) }
        let (rest, dropped) = inbox.take(limit: 100)
        #expect(names(rest) == (5..<15).map { "e\($0)" })
        #expect(dropped == 2)
    }

    @Test func otherWorkIsNeverDropped() {
        let inbox = Inbox(capacity: 2)
        _ = inbox.add(.other({}))
        for index in 0..<4 { _ = inbox.add(.track(name: "e\(index)", properties: [:], id: UUID(), stamp: stamp)) }
        let (work, dropped) = inbox.take()
        #expect(names(work) == ["other", "e2", "e3"], "the oldest events go, the other work stays")
        #expect(dropped == 2)
    }
}

extension InboxTests {
    /// The app's threads call `track` at once: every item each adds is
    /// kept, once. (Without the lock, appends from two threads lose items
    /// or crash; one producer against a drain catches that only sometimes.)
    @Test func addsFromManyThreadsAtOnceAreEachKeptOnce() {
        let inbox = Inbox(capacity: 1_000_000)
        let threads = 4
        let each = 20_000
        onThreads(threads) {
            for _ in 0..<each { _ = inbox.add(.other {}) }
        }
        var taken = 0
        while case let (work, _) = inbox.take(limit: 100_000), !work.isEmpty { taken += work.count }
        #expect(taken == threads * each)
    }

    @Test func underAConcurrentDrainEveryEventIsEitherTakenOrCounted() async {
        let inbox = Inbox(capacity: 1_000)
        let total = 50_000
        let consumer = Task.detached { () -> Int in
            var seen = 0
            while seen < total {
                let (work, dropped) = inbox.take()
                seen += work.count + dropped
                if work.isEmpty { await Task.yield() }
            }
            return seen
        }
        for index in 0..<total { _ = inbox.add(.track(name: "e\(index)", properties: [:], id: UUID(), stamp: stamp)) }
        #expect(await consumer.value == total)
    }
}
