import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Foundation
import Testing
import TestSupport

struct PersistenceTests {
    @Test func installIDSurvivesANewClientOnTheSameStorage() throws {
        try withStorage { storage in
            let first = try TestClient(storage: storage)
            first.track(1)
            first.analytics.flush()
            first.analytics.stop()

            let second = try TestClient(storage: storage)
            second.track(1)
            second.analytics.flush()

            let firstID = try #require(first.transport.batches.first?.installID)
            #expect(second.transport.batches.first?.installID == firstID)
        }
    }

    @Test func freshStorageGetsADifferentInstallID() throws {
        let one = try TemporaryDirectory(in: TestScratch.root)
        let two = try TemporaryDirectory(in: TestScratch.root)
        defer { one.remove(); two.remove() }
        let first = try TestClient(storage: one.url)
        let second = try TestClient(storage: two.url)
        for client in [first, second] {
            client.track(1)
            client.analytics.flush()
        }
        let firstID = try #require(first.transport.batches.first?.installID)
        let secondID = try #require(second.transport.batches.first?.installID)
        #expect(firstID != secondID)
    }

    @Test func eventsTrackedBeforeACrashAreSentByTheNextClient() throws {
        try withStorage { storage in
            let crashed = try TestClient(storage: storage)
            crashed.transport.enqueue(.networkFailure())
            crashed.track(3)
            crashed.analytics.flush()
            try #require(crashed.transport.requests.count == 1)
            let lost = crashed.transport.batches[0].events.map(\.eventID)
            // The process dies: no stop, no flush; the next launch starts over.

            let next = try TestClient(storage: storage)
            next.clock.advance(by: .seconds(60))
            #expect(next.transport.sentEvents.map(\.eventID) == lost)
        }
    }

    /// A long burst is written in slices of 256 (README: "the worker commits
    /// at least every 256 events"): while the worker is still handing out
    /// the 300th event of one burst, the first 256 are already on disk, so a
    /// crash there would lose 44, not 300. Read by a provider that comes
    /// after the collector's, through a connection of its own.
    @Test func aLongBurstIsOnDiskInSlicesOf256BeforeItEnds() throws {
        final class RowCounter: AnalyticsProvider {
            let database: URL
            let seen = Locked<(received: Int, rowsAtLast: Int?)>((0, nil))
            init(database: URL) { self.database = database }
            func receive(_ event: TrackedEvent) {
                let received = seen.withLock { $0.received += 1; return $0.received }
                guard received == 300 else { return }
                let rows = (try? SQLiteDatabase(path: database.path).query("SELECT COUNT(*) FROM events"))?.first?.first?.integer
                seen.withLock { $0.rowsAtLast = rows.map(Int.init) }
            }
        }
        try withStorage { storage in
            let counter = RowCounter(database: storage.appendingPathComponent("events.sqlite"))
            let client = try TestClient(storage: storage, network: .offline) { $0.providers = [counter] }
            // One burst: the 300 calls land in the inbox while the worker is busy, and one drain hands them out.
            client.clock.execute { client.track(300) }
            #expect(counter.seen.withLock { $0.received } == 300)
            #expect(counter.seen.withLock { $0.rowsAtLast } == 256)
            client.analytics.stop()
            let rows = try SQLiteDatabase(path: storage.appendingPathComponent("events.sqlite").path).query("SELECT COUNT(*) FROM events")
            #expect(rows.first?.first?.integer == 300, "the rest is written when the burst ends")
        }
    }

    @Test func stopSendsEverythingQueuedAndLeavesFailuresOnDiskForTheNextStart() throws {
        try withStorage { storage in
            let clock = ManualClock()
            let transport = RecordingTransport(clock: clock)
            transport.enqueue(.delayed(.seconds(5), .accepted), .accepted, .status(503))
            let client = try TestClient(storage: storage, clock: clock, transport: transport)
            client.track(25)
            client.track(40, startingAt: 25) // queued behind the request in flight
            client.analytics.stop()
            clock.advance(by: .seconds(5))
            #expect(transport.requests.map { $0.batch?.events.count } == [25, 25, 15], "stop drains batch after batch until one fails")
            clock.advance(by: .seconds(3600))
            #expect(transport.requests.count == 3, "a stopped client sets no retry timer")

            let next = try TestClient(storage: storage)
            next.analytics.flush()
            let resent = next.transport.sentEvents.compactMap { $0.integer("error_code") }
            #expect(resent == Array(50..<65), "the batch that failed during stop goes out on the next start")
        }
    }

    @Test func queueIsCappedDroppingTheOldestFirst() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline) { $0.queueCapacity = 5 }
            client.track(8)
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(client.transport.sentEvents.compactMap { $0.integer("error_code") } == [3, 4, 5, 6, 7])
            #expect(client.diagnostics.filter { $0 == .queueOverflow(dropped: 1) }.count == 3)
        }
    }

    /// A burst that overflows before the worker even sees it (the hand-off
    /// holds at most the queue's capacity) is reported to the app with the
    /// exact count, and the newest events are the ones kept.
    @Test func aBurstDroppedAtTheHandOffIsReportedWithItsCount() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline) { $0.queueCapacity = 3 }
            client.clock.execute { client.track(4) }
            #expect(client.diagnostics.filter { if case .queueOverflow = $0 { true } else { false } } == [.queueOverflow(dropped: 1)])
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(client.transport.sentEvents.compactMap { $0.integer("error_code") } == [1, 2, 3])
        }
    }

    /// README: by default the queue keeps 10,000 events; the 10,001st
    /// waiting pushes out the oldest, reported with the exact count.
    @Test func theQueueKeeps10000EventsByDefault() throws {
        let client = try TestClient(storage: nil, network: .offline)
        client.track(10_000)
        #expect(!client.diagnostics.contains { if case .queueOverflow = $0 { true } else { false } })
        client.track(1, startingAt: 10_000)
        #expect(client.diagnostics.filter { if case .queueOverflow = $0 { true } else { false } } == [.queueOverflow(dropped: 1)])
    }

    /// An app's own provider that buffers until a flush (a vendor SDK's
    /// adapter) is told to forget too: after an opt-out it sends nothing the
    /// user tracked before, just as the collector's queue sends nothing.
    @Test func optingOutPurgesTheAppsProvidersAsWellAsTheQueue() throws {
        final class BufferingProvider: AnalyticsProvider {
            let state = Locked<(buffered: [String], sent: [String])>(([], []))
            func receive(_ event: TrackedEvent) { state.withLock { $0.buffered.append(event.eventID.uuidString) } }
            func flush() { state.withLock { $0.sent += $0.buffered; $0.buffered = [] } }
            func purge() { state.withLock { $0.buffered = [] } }
        }
        try withStorage { storage in
            let vendor = BufferingProvider()
            let client = try TestClient(storage: storage, network: .offline) { $0.providers = [vendor] }
            client.track(3)
            #expect(vendor.state.withLock { $0.buffered.count } == 3)
            client.analytics.setOptOut(true)
            client.analytics.setOptOut(false)
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(vendor.state.withLock { $0.sent }.isEmpty, "the vendor's buffer was forgotten at the opt-out")
            #expect(client.transport.requests.isEmpty, "and so was the collector's queue")
            client.track(1)
            client.analytics.flush()
            #expect(vendor.state.withLock { $0.sent.count } == 1, "after opting back in, new events flow again")
        }
    }

    @Test func optingOutPurgesTheQueueAndStopsCollecting() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline)
            client.track(3)
            client.analytics.setOptOut(true)
            client.track(2)
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(client.transport.requests.isEmpty)
            client.analytics.stop()

            let relaunched = try TestClient(storage: storage)
            relaunched.track(1)
            relaunched.analytics.flush()
            #expect(relaunched.transport.requests.isEmpty)

            relaunched.analytics.setOptOut(false)
            relaunched.track(1)
            relaunched.analytics.flush()
            #expect(relaunched.transport.sentEvents.count == 1)
        }
    }

    /// Events the worker has received but not yet written when the opt-out
    /// arrives (one burst: the group commit runs after it) are forgotten too,
    /// not written after the purge and sent once the user opts back in.
    @Test func anOptOutForgetsEventsNotYetWritten() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline)
            client.clock.execute {
                client.track(3)
                client.analytics.setOptOut(true)
            }
            client.analytics.setOptOut(false)
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(client.transport.sentEvents.isEmpty, "\(client.transport.sentEvents.count) events from before the opt-out went out")
        }
    }

    @Test func optingInWhenNeverOptedOutIsQuiet() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline)
            client.track(3)
            client.analytics.setOptOut(false)
            client.track(1, startingAt: 3)
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.analytics.flush()
            #expect(client.diagnostics.isEmpty, "no file to delete is no trouble: \(client.diagnostics)")
            #expect(client.transport.sentEvents.count == 4, "opting in purges nothing")
        }
    }

    /// Opted out before start: what an earlier launch left on disk is
    /// purged at start, not sent once the user opts back in.
    @Test func anOptOutBeforeStartPurgesWhatAnEarlierLaunchLeft() throws {
        try withStorage { storage in
            let earlier = try TestClient(storage: storage, network: .offline)
            earlier.track(3)
            earlier.analytics.stop()

            let analytics = Analytics()
            analytics.setOptOut(true)
            let clock = ManualClock()
            let transport = RecordingTransport(clock: clock)
            try analytics.start(.testing(storage: storage, clock: clock, transport: transport))
            analytics.setOptOut(false)
            analytics.flush()
            #expect(transport.sentEvents.isEmpty, "\(transport.sentEvents.count) events from before the opt-out went out")
            analytics.stop()
        }
    }

    @Test func anOptOutBeforeStartHoldsFromTheFirstEvent() throws {
        try withStorage { storage in
            let analytics = Analytics()
            analytics.setOptOut(true)
            let clock = ManualClock()
            let transport = RecordingTransport(clock: clock)
            try analytics.start(.testing(storage: storage, clock: clock, transport: transport))
            analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
            analytics.flush()
            #expect(transport.requests.isEmpty, "the choice made before start is the first thing the SDK applies")
            #expect(FileManager.default.fileExists(atPath: storage.appendingPathComponent("opted-out").path))
            analytics.stop()
        }
    }

    @Test func anOptOutWhileRunningIsKeptInItsStorageOnly() throws {
        try withStorage { storage in
            let clock = ManualClock()
            let analytics = Analytics()
            try analytics.start(.testing(storage: storage.appendingPathComponent("first"), clock: clock, transport: RecordingTransport(clock: clock)))
            analytics.setOptOut(true)
            analytics.stop()
            // A later start on another storage folder reads that folder's choice.
            let transport = RecordingTransport(clock: clock)
            try analytics.start(.testing(storage: storage.appendingPathComponent("second"), clock: clock, transport: transport))
            analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
            analytics.flush()
            #expect(transport.sentEvents.map(\.name) == ["financial_card_activated"])
            analytics.stop()
        }
    }

    @Test func aCorruptDatabaseIsMovedAsideAndAFreshQueueKeepsEvents() throws {
        try withStorage { storage in
            let garbage = Data("this is not an SQLite database, just bytes".utf8)
            try garbage.write(to: storage.appendingPathComponent("events.sqlite"))
            let client = try TestClient(storage: storage, network: .offline)
            client.track(2)
            client.analytics.flush()
            let repaired = client.diagnostics.compactMap { if case .storageRepaired(let path) = $0 { path } else { nil } }
            #expect(repaired.count == 1, "reported once: \(client.diagnostics)")
            let aside = try #require(repaired.first)
            #expect(aside.contains("events.sqlite.unreadable-"))
            #expect(FileManager.default.contents(atPath: aside) == garbage, "the unreadable file is kept for inspection")
            client.analytics.stop()

            // The fresh queue is on disk: the next launch delivers, with no new report.
            let relaunched = try TestClient(storage: storage)
            relaunched.analytics.flush()
            #expect(relaunched.transport.sentEvents.count == 2)
            #expect(relaunched.diagnostics.isEmpty)
        }
    }

    /// A damaged database that cannot even be moved aside (something already
    /// holds the name it would get) is reported; events go out from memory.
    @Test func aCorruptDatabaseThatCannotBeMovedAsideIsReported() throws {
        try withStorage { storage in
            try Data("not a database".utf8).write(to: storage.appendingPathComponent("events.sqlite"))
            let clock = ManualClock(now: Date(timeIntervalSince1970: 1_767_225_600))
            let taken = storage.appendingPathComponent("events.sqlite.unreadable-1767225600000/inside")
            try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
            let client = try TestClient(storage: storage, clock: clock)
            #expect(client.diagnostics.contains { if case .storageUnavailable(let reason) = $0 { reason.contains("cannot be moved aside") } else { false } },
                    "\(client.diagnostics)")
            client.track(2)
            client.analytics.flush()
            #expect(client.transport.sentEvents.count == 2)
        }
    }

    @Test func aGarbageInstallIDFileIsReportedBeforeItIsReplaced() throws {
        try withStorage { storage in
            try Data("not-a-uuid\n".utf8).write(to: storage.appendingPathComponent("install-id"))
            let client = try TestClient(storage: storage)
            client.track(1)
            client.analytics.flush()
            #expect(client.diagnostics.contains { if case .installIDReplaced = $0 { true } else { false } })
            let id = try #require(client.transport.batches.first?.installID)
            #expect(try String(contentsOf: storage.appendingPathComponent("install-id"), encoding: .utf8) == id)
            client.analytics.stop()
            let second = try TestClient(storage: storage)
            #expect(second.diagnostics.isEmpty, "a good id is not reported")
        }
    }

    /// Something the SDK cannot replace sits where the install id belongs
    /// (here a folder with a file in it): the id lives in memory for this
    /// launch, events still go out with it, and the app hears that the next
    /// launch will have another one.
    @Test func anInstallIDThatCannotBeWrittenIsReportedAndEventsStillGoOut() throws {
        try withStorage { storage in
            try FileManager.default.createDirectory(at: storage.appendingPathComponent("install-id/keep"), withIntermediateDirectories: true)
            let client = try TestClient(storage: storage)
            client.track(1)
            client.analytics.flush()
            let notPersisted = client.diagnostics.filter { if case .installIDNotPersisted = $0 { true } else { false } }
            #expect(notPersisted.count == 1, "\(client.diagnostics)")
            let replaced = client.diagnostics.compactMap { if case .installIDReplaced(let reason) = $0 { reason } else { nil } }
            #expect(replaced == ["\(storage.appendingPathComponent("install-id").path) cannot be read"], "and why the old one is gone: \(client.diagnostics)")
            #expect(client.transport.batches.first?.installID != nil)
            #expect(FileManager.default.fileExists(atPath: storage.appendingPathComponent("install-id/keep").path), "nothing of the user's removed")
            client.analytics.stop()
        }
    }

    /// Opting back in is kept for the next launch: the flag file goes and
    /// the next launch sends.
    @Test func anOptInIsKeptForTheNextLaunch() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.analytics.setOptOut(true)
            client.analytics.setOptOut(false)
            client.analytics.stop()
            #expect(!FileManager.default.fileExists(atPath: storage.appendingPathComponent("opted-out").path))
            let next = try TestClient(storage: storage)
            next.track(1)
            next.analytics.flush()
            #expect(next.transport.sentEvents.count == 1)
        }
    }

    /// The flag file cannot be deleted (a file system that refuses it, as a
    /// read-only folder would for a user who is not root): the opt-in holds
    /// for this launch and its events go out, the app is told the next
    /// launch starts opted out, and it does.
    @Test func anOptInWhoseFlagCannotBeDeletedIsReportedAndHoldsForThisLaunch() throws {
        try withStorage { storage in
            let first = try TestClient(storage: storage)
            first.analytics.setOptOut(true)
            first.analytics.stop()

            let client = try TestClient(storage: storage) { $0.storageFiles = UndeletableFiles() }
            client.analytics.setOptOut(false)
            let reports = client.diagnostics.compactMap { if case .storageUnavailable(let reason) = $0 { reason } else { nil } }
            #expect(reports.count == 1 && reports[0].hasPrefix("cannot delete ") && reports[0].contains("opted-out")
                && reports[0].hasSuffix("the opt-in holds for this run only; the next launch starts opted out"), "\(client.diagnostics)")
            client.track(1)
            client.analytics.flush()
            #expect(client.transport.sentEvents.count == 1, "opted in for this launch")
            client.analytics.stop()

            let next = try TestClient(storage: storage)
            next.track(1)
            next.analytics.flush()
            #expect(next.transport.sentEvents.isEmpty, "the next launch starts opted out, as the app was told")
            next.analytics.stop()
        }
    }

    /// The local file system, except that nothing can be deleted.
    struct UndeletableFiles: StorageFiles {
        let local = LocalStorageFiles()
        func createDirectory(at url: URL) throws { try local.createDirectory(at: url) }
        func fileExists(atPath path: String) -> Bool { local.fileExists(atPath: path) }
        func createEmptyFile(atPath path: String) -> Bool { local.createEmptyFile(atPath: path) }
        func moveItem(at source: URL, to destination: URL) throws { try local.moveItem(at: source, to: destination) }
        func removeItem(atPath path: String) throws { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
    }

    /// Files the SDK cannot create, for every user (root included): a folder
    /// where the queue database or the opt-out flag should be. Each is
    /// reported; events still go out from memory.
    @Test func aQueueOrOptOutFileThatCannotBeCreatedIsReported() throws {
        try withStorage { storage in
            try FileManager.default.createDirectory(at: storage.appendingPathComponent("events.sqlite/inside"), withIntermediateDirectories: true)
            let client = try TestClient(storage: storage)
            #expect(client.diagnostics.contains { if case .storageUnavailable(let reason) = $0 { reason.contains("events.sqlite") } else { false } },
                    "\(client.diagnostics)")
            client.track(2)
            client.analytics.flush()
            #expect(client.transport.sentEvents.count == 2)
            client.analytics.stop()
        }
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            // A folder named like the flag file: the file cannot be written over it.
            try FileManager.default.createDirectory(at: storage.appendingPathComponent("opted-out"), withIntermediateDirectories: true)
            client.analytics.setOptOut(true)
            #expect(client.diagnostics.contains { if case .storageUnavailable(let reason) = $0 { reason.contains("the opt-out holds for this run only") } else { false } },
                    "\(client.diagnostics)")
        }
    }

    @Test func unusableStorageDirectoryFallsBackToMemory() throws {
        try withStorage { storage in
            // A file where the folder should be fails for every user, root included.
            let blocked = storage.appendingPathComponent("blocked")
            try Data().write(to: blocked)
            var directories = [blocked, blocked.appendingPathComponent("sub")]
            if getuid() != 0 {
                let readOnly = storage.appendingPathComponent("read-only")
                try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
                try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: readOnly.path)
                directories.append(readOnly)
            }
            defer {
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o700], ofItemAtPath: storage.appendingPathComponent("read-only").path)
            }

            for directory in directories {
                let client = try TestClient(storage: directory)
                client.track(2)
                client.analytics.flush()
                #expect(client.transport.sentEvents.count == 2)
                #expect(client.diagnostics.contains { if case .storageUnavailable = $0 { true } else { false } })
                client.analytics.stop()
            }
        }
    }

    @Test func missingStorageDirectoryIsCreated() throws {
        try withStorage { storage in
            let nested = storage.appendingPathComponent("a/b/c")
            let client = try TestClient(storage: nested)
            client.track(1)
            #expect(FileManager.default.fileExists(atPath: nested.appendingPathComponent("events.sqlite").path))
            #expect(FileManager.default.fileExists(atPath: nested.appendingPathComponent("install-id").path))
            #expect(client.diagnostics.isEmpty)
        }
    }
}
