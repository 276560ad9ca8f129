import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Foundation
import Testing
import TestSupport

/// A command-line tool tracks, waits, and exits: what it waited for must
/// have happened. Live worker threads, so nothing runs inline.
struct AwaitableFlushTests {
    private func liveConfiguration(storage: URL, transport: any Transport, network: NetworkType = .wifi) -> Configuration {
        var configuration = Configuration.testing(storage: storage, clock: ManualClock(), transport: transport,
                                                  connectivity: ManualConnectivity(network))
        configuration.scheduler = DispatchWorkScheduler(label: "awaitable-test")
        return configuration
    }

    @Test func flushAndWaitReturnsOnceTheEventsAreDeliveredAndOnDisk() async throws {
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let storage = folder.appending("fresh/storage")
        let transport = RecordingTransport()
        let analytics = Analytics()
        try analytics.start(liveConfiguration(storage: storage, transport: transport))
        for index in 0..<60 { analytics.track(FinancialEvent.checkoutFailed(errorCode: index, reason: "declined")) }
        await analytics.flushAndWait()
        #expect(transport.sentEvents.count == 60, "every batch of the flush went out before it returned")
        #expect(FileManager.default.fileExists(atPath: storage.appendingPathComponent("events.sqlite").path))
        await analytics.stopAndWait()
    }

    @Test func offlineTheWaitEndsWithTheEventsOnDiskForTheNextLaunch() async throws {
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let analytics = Analytics()
        try analytics.start(liveConfiguration(storage: folder.url, transport: RecordingTransport(), network: .offline))
        for index in 0..<30 { analytics.track(FinancialEvent.checkoutFailed(errorCode: index, reason: "declined")) }
        await analytics.stopAndWait()

        let clock = ManualClock()
        let transport = RecordingTransport(clock: clock)
        let next = Analytics()
        try next.start(.testing(storage: folder.url, clock: clock, transport: transport))
        next.flush()
        #expect(transport.sentEvents.count == 30, "stopAndWait returned with all 30 on disk")
    }

    /// Nothing in flight when the flush has done its work: offline (the
    /// events stay queued) and online (the batch already answered), the
    /// completion runs once, before the call returns on the inline worker.
    @Test func flushCompletionRunsOnceNothingIsInFlight() throws {
        try withStorage { storage in
            for network in [NetworkType.offline, .wifi] {
                let client = try TestClient(storage: storage.appendingPathComponent("\(network)"), network: network)
                client.track(3)
                let calls = Locked(0)
                client.analytics.flush(completion: { calls.withLock { $0 += 1 } })
                #expect(calls.withLock { $0 } == 1, "\(network)")
                #expect(client.transport.sentEvents.count == (network == .offline ? 0 : 3), "\(network)")
                client.analytics.stop()
            }
        }
    }

    @Test func theCompletionFormsRunAtOnceWhenNotStarted() {
        let analytics = Analytics()
        let calls = Locked(0)
        analytics.flush(completion: { calls.withLock { $0 += 1 } })
        analytics.stop(completion: { calls.withLock { $0 += 1 } })
        #expect(calls.withLock { $0 } == 2)
    }
}
