@testable import Analytics
import AnalyticsTesting
import Foundation
import Testing

/// Which queue a test runs against.
enum QueueKind: CaseIterable, Sendable { case sqlite, memory }

/// Both queues as units: the persistent one on a database file of the
/// test's own, and the in-memory fallback; same rules for each.
struct EventQueueTests {
    private func events(_ range: Range<Int>) -> [QueuedEvent] {
        range.map { QueuedEvent(id: "id-\($0)", timestamp: 1_767_225_600_000 + Int64($0), payload: Array("{\"n\":\($0)}".utf8)) }
    }

    private func withQueue(_ kind: QueueKind = .sqlite, capacity: Int = 1000, _ body: (any EventQueue, String) throws -> Void) throws {
        try withStorage { storage in
            let path = storage.appendingPathComponent("events.sqlite").path
            switch kind {
            case .sqlite: try body(try SQLiteEventQueue(path: path, capacity: capacity), path)
            case .memory: try body(MemoryEventQueue(capacity: capacity), path)
            }
        }
    }

    @Test func keepsOrderAcrossWritesAndReopens() throws {
        try withQueue { queue, path in
            let dropped0 = try queue.append(events(0..<30))
            #expect(dropped0 == 0)
            let dropped30 = try queue.append(events(30..<60))
            #expect(dropped30 == 0)
            #expect(queue.count == 60)
            #expect(try queue.peek(limit: 40).map(\.id) == (0..<40).map { "id-\($0)" })
            #expect(try queue.oldestTimestamp() == 1_767_225_600_000)

            let reopened = try SQLiteEventQueue(path: path, capacity: 1000)
            #expect(reopened.count == 60)
            #expect(try reopened.peek(limit: 1000).map(\.payload) == events(0..<60).map(\.payload))
        }
    }

    @Test(arguments: QueueKind.allCases)
    func removesExactlyTheGivenEventsFromTheMiddleToo(kind: QueueKind) throws {
        try withQueue(kind) { queue, _ in
            _ = try queue.append(events(0..<30))
            let batch = try queue.peek(limit: 25)
            try queue.remove([batch[1], batch[3], batch[24]])
            #expect(queue.count == 27)
            let left = try queue.peek(limit: 100).map(\.id)
            #expect(left == (0..<30).filter { ![1, 3, 24].contains($0) }.map { "id-\($0)" })
            try queue.remove(try queue.peek(limit: 22))
            #expect(try queue.peek(limit: 100).map(\.id) == ["id-25", "id-26", "id-27", "id-28", "id-29"])
            #expect(try queue.oldestTimestamp() == 1_767_225_600_025)
        }
    }

    @Test(arguments: QueueKind.allCases)
    func capDropsTheOldestFirst(kind: QueueKind) throws {
        try withQueue(kind, capacity: 40) { queue, _ in
            let dropped0 = try queue.append(events(0..<30))
            #expect(dropped0 == 0)
            let dropped30 = try queue.append(events(30..<57))
            #expect(dropped30 == 17)
            #expect(queue.count == 40)
            #expect(try queue.peek(limit: 100).map(\.id) == (17..<57).map { "id-\($0)" })
            #expect(try queue.oldestTimestamp() == 1_767_225_600_017)
        }
    }

    @Test(arguments: QueueKind.allCases)
    func anInFlightBatchTrimmedByTheCapRemovesNothingElse(kind: QueueKind) throws {
        try withQueue(kind, capacity: 30) { queue, _ in
            _ = try queue.append(events(0..<25))
            let inFlight = try queue.peek(limit: 25)
            _ = try queue.append(events(25..<40)) // the cap trims ten of the events in flight
            try queue.remove(inFlight)
            #expect(try queue.peek(limit: 100).map(\.id) == (25..<40).map { "id-\($0)" })
            #expect(queue.count == 15)
        }
    }

    @Test(arguments: QueueKind.allCases)
    func removeAllEmptiesTheQueue(kind: QueueKind) throws {
        try withQueue(kind) { queue, _ in
            _ = try queue.append(events(0..<10))
            try queue.removeAll()
            #expect(queue.count == 0)
            #expect(try queue.peek(limit: 10).isEmpty)
            #expect(try queue.oldestTimestamp() == nil)
        }
    }
}

extension EventQueueTests {
    @Test func drainsALongBacklogBatchByBatchFromTheHead() throws {
        let queue = MemoryEventQueue(capacity: 1_000_000)
        _ = queue.append(events(0..<50_000))
        var removed = 0
        // 2,000 batches of 25; a queue that gives a batch back after its removal would loop for ever.
        for _ in 0..<2_100 where queue.count > 0 {
            let batch = queue.peek(limit: 25)
            queue.remove(batch)
            removed += batch.count
        }
        #expect(queue.count == 0)
        #expect(removed == 50_000)
        #expect(queue.oldestTimestamp() == nil)
        #expect(queue.heldCount <= 2 * 1_024 + 25, "delivered events leave memory as the head moves: \(queue.heldCount) held")
    }
}
