import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Foundation
import Testing

/// `stop` lets go of everything the app handed to `start`: its providers,
/// its transport and its connectivity source (and stops observing the
/// notification center, whose observers would hold them). An app that starts and stops the SDK (a user logs out and in)
/// must not keep one set of them per start.
struct StopReleasesTests {
    private final class Held: Sendable {
        nonisolated(unsafe) weak var provider: AnalyticsSpy?
        nonisolated(unsafe) weak var transport: RecordingTransport?
        nonisolated(unsafe) weak var connectivity: ManualConnectivity?

        var released: Bool { provider == nil && transport == nil && connectivity == nil }
    }

    /// Starts a client with objects only it holds, tracks, stops it and waits for the stop.
    private func startAndStop(storage: URL, center: NotificationCenter, held: Held) throws {
        let clock = ManualClock()
        let provider = AnalyticsSpy(), transport = RecordingTransport(clock: clock), connectivity = ManualConnectivity()
        held.provider = provider
        held.transport = transport
        held.connectivity = connectivity
        var configuration = Configuration.testing(storage: storage, clock: clock, transport: transport, connectivity: connectivity,
                                                  notificationCenter: center)
        configuration.providers = [provider]
        let analytics = Analytics()
        try analytics.start(configuration)
        analytics.track(FinancialEvent.checkoutFailed(errorCode: 1, reason: "declined"))
        let stopped = DispatchSemaphore(value: 0)
        analytics.stop { stopped.signal() }
        stopped.wait()
        #expect(provider.received.count == 1, "the provider was used")
    }

    @Test func aStoppedClientKeepsNothingTheAppGaveIt() throws {
        try withStorage { storage in
            let center = NotificationCenter()
            let held = Held()
            try startAndStop(storage: storage, center: center, held: held)
            // The worker lets go of its last closure just after the stop's completion.
            let deadline = Date().addingTimeInterval(5)
            while !held.released, Date() < deadline { usleep(5_000) }
            #expect(held.provider == nil, "the provider is still held")
            #expect(held.transport == nil, "the transport is still held")
            #expect(held.connectivity == nil, "the connectivity source is still held")
        }
    }
}
