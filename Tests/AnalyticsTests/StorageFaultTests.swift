import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Foundation
import Testing
@testable import Analytics
import TestSupport

/// Storage that fails under the SDK: a database locked by another
/// connection, a full disk, a stopped client's resources. Each case ends
/// with every event `track` accepted either delivered or still queued.
struct StorageFaultTests {
    private func ids(_ client: TestClient) -> [String] { client.transport.sentEvents.map(\.eventID) }

    /// The `storageUnavailable` reports a client received, those whose reason mentions `text` if given.
    private func storageTrouble(_ client: TestClient, mentioning text: String? = nil) -> [AnalyticsDiagnostic] {
        client.diagnostics.filter {
            if case .storageUnavailable(let reason) = $0 { text.map(reason.contains) ?? true } else { false }
        }
    }

    /// The clients of these tests wait 100 ms, not the SDK's 2 s, for the
    /// lock a test holds: the same failures, without blocking the test
    /// runner's few threads for seconds.
    static func briefLockWait(_ configuration: inout Configuration) { configuration.storageBusyTimeout = .milliseconds(100) }

    /// An earlier, offline launch leaves `count` events on disk; then another
    /// connection takes the write lock (`BEGIN IMMEDIATE`) and holds it until
    /// the caller commits or rolls back.
    private func lockedQueue(in storage: URL, waiting count: Int) throws -> SQLiteDatabase {
        let earlier = try TestClient(storage: storage, network: .offline)
        earlier.track(count)
        earlier.analytics.stop()
        let holder = try SQLiteDatabase(path: storage.appendingPathComponent("events.sqlite").path)
        try holder.execute("BEGIN IMMEDIATE")
        return holder
    }

    /// README: while the database refuses writes, new events wait in memory
    /// and the disk is tried again 5 s later (not sooner, not at every event);
    /// what waited moves to disk once, the recovery is reported once.
    @Test func theDiskIsTriedAgainFiveSecondsLaterAndTakesBackWhatWaited() throws {
        try withStorage { storage in
            let holder = try lockedQueue(in: storage, waiting: 0)
            let client = try TestClient(storage: storage, network: .offline, configure: Self.briefLockWait)
            client.track(2)
            #expect(storageTrouble(client).count == 1, "the failing write is reported")
            try holder.execute("COMMIT")
            client.clock.advance(by: .milliseconds(4999))
            client.track(1, startingAt: 2)
            #expect(!client.diagnostics.contains(.storageRecovered), "not tried again before 5 s: \(client.diagnostics)")
            client.clock.advance(by: .milliseconds(1))
            client.track(1, startingAt: 3)
            #expect(client.diagnostics.filter { $0 == .storageRecovered }.count == 1)
            client.track(1, startingAt: 4)
            #expect(client.diagnostics.filter { $0 == .storageRecovered }.count == 1, "reported once, not per write")
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(client.transport.sentEvents.compactMap { $0.integer("error_code") } == [0, 1, 2, 3, 4], "each once, in order")
        }
    }

    /// Deletes that failed under a lock are retried once the disk answers;
    /// afterwards the queue counts what is really waiting, so 25 new events
    /// go out at once. The trouble is reported once however often it recurs.
    @Test func afterFailedDeletesAreRetriedTheQueueCountsTrueAgain() throws {
        try withStorage { storage in
            let holder = try lockedQueue(in: storage, waiting: 50)
            let client = try TestClient(storage: storage, network: .offline, configure: Self.briefLockWait)
            client.track(1, startingAt: 50) // the write fails: memory
            client.clock.advance(by: .seconds(6))
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush() // 51 sent; the due delete fails again
            #expect(client.transport.sentEvents.count == 51, "sent while the deletes fail")
            #expect(storageTrouble(client).count == 1, "once, however often it fails: \(client.diagnostics)")
            try holder.execute("COMMIT")
            client.clock.advance(by: .seconds(6))
            client.track(1, startingAt: 51)
            client.analytics.flush() // the disk answers: the set-aside deletes commit with this batch's
            let before = client.transport.requests.count
            client.track(25, startingAt: 52)
            #expect(client.transport.requests.count == before + 1, "25 waiting: a batch goes out at once")
            #expect(client.transport.batches.last?.events.count == 25)
        }
    }

    /// An opt-out while the disk refused writes forgets what waited in memory
    /// and what was set aside, once the disk answers again.
    @Test func anOptOutForgetsWhatWaitedInMemoryAndWhatWasSetAside() throws {
        try withStorage { storage in
            let holder = try lockedQueue(in: storage, waiting: 25)
            let client = try TestClient(storage: storage, network: .offline, configure: Self.briefLockWait)
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush() // 25 sent; their deletes fail and are set aside
            client.connectivity.set(NetworkStatus(network: .offline))
            client.track(3, startingAt: 25) // memory: the disk refused the last write
            try holder.execute("COMMIT")
            client.analytics.setOptOut(true)
            client.analytics.setOptOut(false)
            let before = client.transport.sentEvents.count
            client.clock.advance(by: .seconds(6)) // the disk takes writes again
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.track(25, startingAt: 100)
            let after = client.transport.sentEvents.dropFirst(before).compactMap { $0.integer("error_code") }
            #expect(after == Array(100..<125), "only the new events, sent at 25: \(after)")
        }
    }

    /// A batch drawn partly from disk and partly from memory (the disk
    /// refused the newer events) still holds at most 25.
    @Test func aBatchFromDiskAndMemoryTogetherHoldsAtMost25() throws {
        try withStorage { storage in
            let holder = try lockedQueue(in: storage, waiting: 90)
            let client = try TestClient(storage: storage, network: .offline, configure: Self.briefLockWait)
            client.track(30, startingAt: 90)
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(client.transport.batches.allSatisfy { $0.events.count <= 25 }, "\(client.transport.batches.map(\.events.count))")
            #expect(Set(client.transport.sentEvents.map(\.eventID)).count == 120)
            try holder.execute("ROLLBACK")
        }
    }

    @Test func aLockedDatabaseLosesNothingAndMixesNoBatches() throws {
        try withStorage { storage in
            // 100 events wait on disk; another connection holds the write lock for the whole launch.
            let holder = try lockedQueue(in: storage, waiting: 100)
            let client = try TestClient(storage: storage, network: .offline, configure: Self.briefLockWait)
            client.track(10, startingAt: 100)
            #expect(client.diagnostics.contains { if case .storageUnavailable = $0 { true } else { false } }, "the failing write is reported")
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            let sentWhileLocked = ids(client)
            #expect(Set(sentWhileLocked).count == sentWhileLocked.count, "no batch is sent twice")
            #expect(sentWhileLocked.count == 110, "the 100 on disk and the 10 in memory all go out: \(sentWhileLocked.count)")

            // The lock goes; past the retry interval the tombstoned deletes commit.
            try holder.execute("COMMIT")
            client.clock.advance(by: .seconds(6))
            client.track(1, startingAt: 110)
            client.analytics.flush()
            #expect(client.diagnostics.contains(.storageRecovered))
            client.analytics.stop()

            let relaunched = try TestClient(storage: storage)
            relaunched.analytics.flush()
            #expect(ids(relaunched).isEmpty, "nothing delivered is sent again: \(ids(relaunched).count)")
            #expect(Set(ids(client)).count == 111)
        }
    }

    @Test func aFullDiskKeepsDeliveringAndNeverResendsTheSameBatch() throws {
        try withStorage { storage in
            let path = storage.appendingPathComponent("events.sqlite").path
            let disk = try SQLiteEventQueue(path: path, capacity: 10_000)
            var reports: [AnalyticsDiagnostic] = []
            var now = Duration.zero
            let queue = ResilientQueue(disk: disk, capacity: 10_000, uptime: { now }, report: { reports.append($0) })
            func events(_ range: Range<Int>) -> [QueuedEvent] {
                range.map { QueuedEvent(id: "e\($0)", timestamp: Int64($0), payload: Array(String(repeating: "x", count: 400).utf8)) }
            }
            #expect(queue.append(events(0..<200)) == 0)
            // The volume fills up: no page can be added or freed any more.
            try disk.limitPages(toCurrent: true)
            #expect(queue.append(events(200..<260)) == 0, "a failing write keeps the events in memory")
            #expect(reports.contains { if case .storageUnavailable = $0 { true } else { false } })
            #expect(queue.count == 260)

            var sent: [String] = []
            // 11 batches of 25 hold them all; a queue that gives a batch back after its removal would loop for ever.
            for _ in 0..<20 where queue.count > 0 {
                let batch = queue.peek(limit: 25)
                #expect(!batch.isEmpty)
                sent += batch.map(\.id)
                queue.remove(batch)
            }
            #expect(queue.count == 0, "20 batches took every event")
            #expect(sent == (0..<260).map { "e\($0)" }, "each event once, oldest first, disk before memory")
            now = .seconds(10)
            try disk.limitPages(toCurrent: false)
            #expect(queue.append(events(260..<261)) == 0)
            #expect(reports.contains(.storageRecovered))
            #expect(queue.peek(limit: 100).map(\.id) == ["e260"], "delivered events left the disk once it could commit")
            #expect(queue.append(events(261..<600)) == 0)
            #expect(queue.isPersisting, "and the disk has room to grow again")
        }
    }

    /// A queue on a real SQLite file whose uptime the test moves, and which
    /// another connection can lock.
    private struct QueueOnDisk {
        let path: String
        let queue: ResilientQueue
        let now: Locked<Duration>

        init(in storage: URL) throws {
            path = storage.appendingPathComponent("events.sqlite").path
            let disk = try SQLiteEventQueue(path: path, capacity: 10_000, busyTimeout: .milliseconds(20))
            let now = Locked(Duration.zero)
            self.now = now
            queue = ResilientQueue(disk: disk, capacity: 10_000, uptime: { now.withLock { $0 } }, report: { _ in })
        }

        static func events(_ range: Range<Int>) -> [QueuedEvent] {
            range.map { QueuedEvent(id: "e\($0)", timestamp: Int64($0), payload: Array("{}".utf8)) }
        }

        /// Another connection holding the write lock until it rolls back.
        func lock() throws -> SQLiteDatabase {
            let holder = try SQLiteDatabase(path: path)
            try holder.execute("BEGIN IMMEDIATE")
            return holder
        }

        /// Queues events 0..<count, then delivers the first 25 while another
        /// connection holds the write lock: their delete fails and is set
        /// aside. Returns that connection, still holding the lock.
        func setAsideADelete(after count: Int) throws -> SQLiteDatabase {
            #expect(queue.append(Self.events(0..<count)) == 0)
            let holder = try lock()
            queue.remove(queue.peek(limit: 25))
            return holder
        }

        /// The rows another launch would find in the file.
        func rowsOnDisk() throws -> Int { try SQLiteEventQueue(path: path, capacity: 10_000).count }
    }

    /// README: a disk that refused a write is tried again 5 s later, not
    /// sooner, and a failed delete is such a write: the next batch within
    /// the 5 s sets its delete aside too.
    @Test func aFailedDeleteIsNotTriedAgainBeforeTheInterval() throws {
        try withStorage { storage in
            let file = try QueueOnDisk(in: storage)
            let holder = try file.setAsideADelete(after: 50)
            #expect(try file.rowsOnDisk() == 50, "the locked disk refused the delete")
            try holder.execute("ROLLBACK")
            file.now.withLock { $0 = .seconds(1) }
            file.queue.remove(file.queue.peek(limit: 25))
            #expect(try file.rowsOnDisk() == 50, "the disk is not tried before 5 s")
            #expect(file.queue.count == 0)
            file.now.withLock { $0 = .seconds(5) }
            #expect(file.queue.append(QueueOnDisk.events(50..<51)) == 0)
            let last = file.queue.peek(limit: 25)
            #expect(last.map(\.id) == ["e50"])
            file.queue.remove(last)
            #expect(try file.rowsOnDisk() == 0, "at 5 s every delete set aside commits with the next batch")
        }
    }

    /// The deletes set aside go with the next batch even when that batch
    /// waited in memory only (it touches no row of the disk itself).
    @Test func setAsideDeletesCommitWithABatchFromMemory() throws {
        try withStorage { storage in
            let file = try QueueOnDisk(in: storage)
            let holder = try file.setAsideADelete(after: 25)
            #expect(file.queue.append(QueueOnDisk.events(25..<28)) == 0) // memory: the disk is not due
            try holder.execute("ROLLBACK")
            #expect(try file.rowsOnDisk() == 25)
            file.now.withLock { $0 = .seconds(6) }
            let fromMemory = file.queue.peek(limit: 25)
            #expect(fromMemory.map(\.id) == ["e25", "e26", "e27"])
            file.queue.remove(fromMemory)
            #expect(try file.rowsOnDisk() == 0, "the 25 delivered first left the disk with them")
        }
    }

    /// Live worker threads: a cancelled dispatch timer keeps its closure
    /// until its deadline, so only the real scheduler shows what a stopped
    /// client still holds.
    @Test func deliveredEventsThatCannotBeDeletedAreReportedAndNotSentAgain() throws {
        try withStorage { storage in
            let holder = try lockedQueue(in: storage, waiting: 30)
            defer { try? holder.execute("ROLLBACK") }
            // Nothing is tracked: the first write this client tries is the delete after delivery.
            let client = try TestClient(storage: storage, configure: Self.briefLockWait)
            client.analytics.flush()
            let undeletable = storageTrouble(client, mentioning: "cannot be deleted")
            #expect(undeletable.count == 1, "reported once for the two batches: \(client.diagnostics)")
            let sent = ids(client)
            #expect(sent.count == 30 && Set(sent).count == 30, "each event once")
            client.analytics.stop()
        }
    }

    @Test func aDiskThatStaysLockedIsReportedOnceNotOnEveryRetry() throws {
        try withStorage { storage in
            let holder = try lockedQueue(in: storage, waiting: 1)
            defer { try? holder.execute("ROLLBACK") }
            let client = try TestClient(storage: storage, network: .offline, configure: Self.briefLockWait)
            for round in 0..<2 {
                client.track(1, startingAt: round)
                client.clock.advance(by: .seconds(6)) // past the 5 s before the disk is tried again
            }
            let unavailable = storageTrouble(client)
            #expect(unavailable.count == 1, "\(client.diagnostics)")
            client.analytics.stop()
        }
    }

    /// Opting out must empty the queue on disk; when the disk refuses, the
    /// app hears it rather than believing the events are gone.
    @Test func anOptOutThatCannotEmptyTheDiskIsReported() throws {
        try withStorage { storage in
            let holder = try lockedQueue(in: storage, waiting: 3)
            defer { try? holder.execute("ROLLBACK") }
            let client = try TestClient(storage: storage, network: .offline, configure: Self.briefLockWait)
            client.analytics.setOptOut(true)
            let reports = storageTrouble(client, mentioning: "the opt-out could not empty the queue on disk")
            #expect(reports.count == 1, "\(client.diagnostics)")
            client.analytics.stop()
        }
    }

    @Test func storageThatNeverFailedReportsNoRecovery() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(30)
            client.analytics.flush()
            client.track(3)
            client.analytics.flush()
            #expect(client.transport.sentEvents.count == 33)
            #expect(client.diagnostics.isEmpty, "nothing to report: \(client.diagnostics)")
            client.analytics.stop()
        }
    }

    @Test func aQueueThatCannotBeReadIsReportedOnceAndEventsStillFlow() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline)
            client.track(2)
            // Another process breaks the file under the running client.
            try SQLiteDatabase(path: storage.appendingPathComponent("events.sqlite").path).execute("DROP TABLE events")
            client.connectivity.set(NetworkStatus(network: .wifi))
            for round in 0..<3 {
                client.track(1, startingAt: 10 + round)
                client.analytics.flush()
            }
            let unreadable = storageTrouble(client, mentioning: "can no longer be read")
            #expect(unreadable.count == 1, "once, not once per attempt: \(client.diagnostics)")
            #expect(Set(client.transport.sentEvents.map(\.name)) == ["financial_checkout_failed"])
            #expect(client.transport.batches.allSatisfy { !$0.events.isEmpty }, "the unread events make no empty request")
            client.analytics.stop()
        }
    }

    @Test func startAndStopReleaseTheDatabase() async throws {
        #if os(Linux)
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        // Only this test's files count: other tests open and close descriptors all the while.
        let prefix = folder.url.resolvingSymlinksInPath().path + "/"
        func openFiles() -> [String] {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
                .filter { $0.hasPrefix(prefix) }.sorted()
        }
        let analytics = Analytics()
        func configuration() -> Configuration {
            var configuration = Configuration.testing(storage: folder.url, clock: ManualClock(), transport: RecordingTransport())
            configuration.scheduler = DispatchWorkScheduler(label: "fd-test")
            return configuration
        }
        try analytics.start(configuration())
        await analytics.stopAndWait()
        let before = openFiles()
        for index in 0..<100 {
            try analytics.start(configuration())
            analytics.track(FinancialEvent.checkoutFailed(errorCode: index, reason: "declined"))
            await analytics.stopAndWait()
        }
        // A database is released after stopAndWait returns, and under load the releases can lag a
        // few cycles behind; once they settle no file is open twice. One never closed stays open:
        // the wait ends once the count has not moved for 2 s (at most 10 s in all).
        var after = openFiles()
        var unchanged = 0
        for _ in 0..<200 where after.count != Set(after).count && unchanged < 40 {
            try await Task.sleep(nanoseconds: 50_000_000)
            let now = openFiles()
            unchanged = now.count == after.count ? unchanged + 1 : 0
            after = now
        }
        #expect(after.count == Set(after).count && after.count <= 3,
                "100 start/stop cycles leave at most the last database's files open: \(before.count) -> \(after.count) \(Set(after))")
        #endif
    }

    @Test func aMisconfiguredEndpointIsReportedOnceAndItsRecoveryToo() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(404), .status(404), .status(404), .networkFailure(), .accepted)
            client.track(25)
            for _ in 0..<4 { client.clock.advance(by: .seconds(16 * 60)) }
            let failing = client.diagnostics.compactMap { if case .deliveryFailing(let reason) = $0 { reason } else { nil } }
            #expect(failing.count == 2, "404 once (not per retry), then the network failure: \(failing)")
            #expect(failing.first?.contains("https://collector.example.com/v1/batch answered 404") == true)
            #expect(failing.first?.contains("is the endpoint URL right?") == true)
            #expect(client.diagnostics.filter { $0 == .deliveryRecovered }.count == 1)
            #expect(client.transport.sentEvents.count == 5 * 25, "every retry carried the same events")
            #expect(Set(client.transport.sentEvents.map(\.eventID)).count == 25)
        }
    }

    /// Every answer that is retried is reported as failing delivery, with
    /// what to check (overload for 429 and 5xx, the endpoint for statuses a
    /// collector never sends: 3xx, 401, 414, 600), and its events are kept
    /// and sent again.
    @Test(arguments: [(300, ", which a collector never does"), (401, ", which a collector never does"),
                      (414, ", which a collector never does"), (429, " (overloaded or failing)"), (500, " (overloaded or failing)"),
                      (599, " (overloaded or failing)"), (600, ", which a collector never does")])
    func aRetriedAnswerIsReportedWithWhatToCheck(status: Int, explanation: String) throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(status))
            client.track(25)
            let failing = client.diagnostics.compactMap { if case .deliveryFailing(let reason) = $0 { reason } else { nil } }
            #expect(failing.count == 1, "\(client.diagnostics)")
            #expect(failing.first?.contains("answered \(status)\(explanation)") == true, "\(failing)")
            client.clock.advance(by: .seconds(5))
            let batches = client.transport.batches
            #expect(batches.count == 2 && batches[1].events.map(\.eventID) == batches[0].events.map(\.eventID), "kept and retried")
        }
    }

    /// A second outage after a recovery is a new trouble: reported again,
    /// recovered again, and its retries start the backoff over (4 s, not 8).
    @Test func aSecondOutageIsReportedAgainAndRetriedFromTheFirstStep() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(503), .accepted, .status(503), .accepted)
            client.track(25)
            client.clock.advance(by: .seconds(5))
            client.track(25, startingAt: 25)
            client.clock.advance(by: .seconds(5))
            let delivery = client.diagnostics.compactMap { diagnostic -> String? in
                switch diagnostic {
                case .deliveryFailing: "failing"
                case .deliveryRecovered: "recovered"
                default: nil
                }
            }
            #expect(delivery == ["failing", "recovered", "failing", "recovered"], "\(client.diagnostics)")
            #expect(client.transport.requests.count == 4)
            #expect(client.transport.sentEvents.count == 100)
        }
    }

    /// A 400 after a 503 is not a recovery (the batch was refused for good,
    /// reported apart); the next 2xx is.
    @Test func onlyADeliveredBatchReportsTheRecovery() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(503), .status(400), .accepted)
            client.track(25)
            client.clock.advance(by: .seconds(5)) // the retry: 400, dropped
            #expect(client.transport.requests.count == 2)
            #expect(!client.diagnostics.contains(.deliveryRecovered), "\(client.diagnostics)")
            client.track(25, startingAt: 25)
            #expect(client.transport.requests.count == 3)
            #expect(client.diagnostics.filter { $0 == .deliveryRecovered }.count == 1)
        }
    }
}
