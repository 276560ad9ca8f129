import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Foundation
import Testing

/// The live dispatch-queue scheduler with real threads: every other test
/// runs work inline on a manual clock, this one checks the SDK under
/// concurrent `track` calls.
struct LiveSchedulerTests {
    /// Signals once the transport has seen `expected` checkout events.
    final class CountingTransport: Transport, Sendable {
        let recorder = RecordingTransport()
        let expected: Int
        let done = DispatchSemaphore(value: 0)
        private let seen = Locked(0)

        init(expected: Int) { self.expected = expected }

        func send(_ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, NetworkFailure>) -> Void) {
            let count = request.batch?.events.filter { $0.name == "financial_checkout_failed" }.count ?? 0
            let finished = seen.withLock { seen in
                seen += count
                return seen >= expected && seen - count < expected
            }
            recorder.send(request, completion: completion)
            if finished { done.signal() }
        }
    }

    @Test func concurrentTracksFromManyThreadsAreEachDeliveredOnce() throws {
        try withStorage { storage in
            let transport = CountingTransport(expected: 400)
            var configuration = Configuration(
                appID: "com.example.app", endpoint: URL(string: "https://collector.example.com")!, storageDirectory: storage, appInfo: .example
            )
            configuration.transport = transport
            configuration.connectivity = AlwaysOnlineConnectivity()
            configuration.onDiagnostic = { _ in }
            let analytics = Analytics()
            try analytics.start(configuration)

            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<100 {
                    analytics.track(FinancialEvent.checkoutFailed(errorCode: thread * 1000 + index, reason: "r"))
                    if index % 10 == 0 { analytics.screens.enter("screen_\(thread)") }
                }
            }
            analytics.flush()
            // A deadline for the failure case only; delivery normally takes milliseconds.
            #expect(transport.done.wait(timeout: .now() + 30) == .success, "all 400 events reach the transport")

            let codes = transport.recorder.sentEvents.compactMap { $0.integer("error_code") }
            #expect(codes.count == 400)
            #expect(Set(codes) == Set((0..<4).flatMap { thread in (0..<100).map { thread * 1000 + $0 } }))
            let ids = transport.recorder.sentEvents.map(\.eventID)
            #expect(Set(ids).count == ids.count, "no event is sent twice")
            analytics.stop()
        }
    }
}


/// The live scheduler itself: delayed work runs, in order with the rest,
/// and cancelled work never runs.
struct DispatchWorkSchedulerTests {
    @Test func delayedWorkRunsAndCancelledWorkDoesNot() {
        let scheduler = DispatchWorkScheduler(label: "scheduler-test")
        let ran = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let cancelled = scheduler.schedule(after: .milliseconds(20)) { ran.withLock { $0.append("cancelled") } }
        cancelled.cancel()
        _ = scheduler.schedule(after: .milliseconds(10)) { ran.withLock { $0.append("delayed") } }
        _ = scheduler.schedule(after: .milliseconds(50)) {
            ran.withLock { $0.append("last") }
            done.signal()
        }
        scheduler.execute { ran.withLock { $0.append("now") } }
        #expect(done.wait(timeout: .now() + 3) == .success, "delayed work ran")
        #expect(ran.withLock { $0 } == ["now", "delayed", "last"])
    }

    /// A delay of seconds is waited for (whole seconds, not only the
    /// fraction): work due in 5 s has not run 300 ms later.
    @Test func workDueInSecondsWaitsForThem() {
        let scheduler = DispatchWorkScheduler(label: "scheduler-seconds-test")
        let ran = Locked(false)
        let later = scheduler.schedule(after: .seconds(5)) { ran.withLock { $0 = true } }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!ran.withLock { $0 }, "ran before its 5 s were up")
        later.cancel()
    }
}
