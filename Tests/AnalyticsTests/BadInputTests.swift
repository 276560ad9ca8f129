import Analytics
import AnalyticsTesting
import Foundation
import Testing

/// Bad input gets a clear diagnostic, never a crash, and no good event is lost.
struct BadInputTests {
    struct RawEvent: AnalyticsEvent {
        var name: String
        var properties: EventProperties
    }

    @Test func invalidEventsAreRejectedAtTrackAndNeverPoisonABatch() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.analytics.track(RawEvent(name: "Bad Name", properties: [:]))
            client.analytics.track(RawEvent(name: "ok_event", properties: ["Bad-Key": 1]))
            client.analytics.track(RawEvent(name: "ok_event", properties: ["amount": .double(.nan)]))
            client.analytics.track(RawEvent(name: "ok_event", properties: ["note": .string(String(repeating: "x", count: 2000))]))
            client.analytics.track(RawEvent(name: "ok_event", properties: ["amount": 3]))
            client.analytics.flush()

            #expect(client.transport.requests.count == 1)
            #expect(client.transport.sentEvents.map(\.properties) == [["amount": 3]])
            #expect(client.diagnostics == [
                .eventRejected(name: "Bad Name", reason: .invalidName("Bad Name")),
                .eventRejected(name: "ok_event", reason: .invalidKey("Bad-Key")),
                .eventRejected(name: "ok_event", reason: .nonFiniteNumber(key: "amount")),
                .eventRejected(name: "ok_event", reason: .stringTooLong(key: "note", bytes: 2000)),
            ])
            #expect(client.diagnostics.first?.description.contains("^[a-z][a-z0-9_]{0,63}$") == true)
        }
    }

    @Test(arguments: ["collector.example.com", "/v1", "ftp://collector.example.com", "https://"])
    func endpointWithoutAnHTTPSchemeIsRefusedAtStart(endpoint: String) throws {
        let clock = ManualClock()
        let configuration = Configuration.testing(
            endpoint: try #require(URL(string: endpoint)), storage: nil, clock: clock, transport: RecordingTransport())
        let analytics = Analytics()
        #expect(throws: AnalyticsError.invalidEndpoint(URL(string: endpoint)!.absoluteString)) {
            try analytics.start(configuration)
        }
        #expect(!analytics.isStarted)
        #expect(AnalyticsError.invalidEndpoint(endpoint).description.contains("absolute http or https URL"))
    }

    @Test func invalidAppIDBatchSizeAndQueueCapacityAreRefused() {
        var configuration = Configuration.testing(appID: "my app", storage: nil, clock: ManualClock(), transport: RecordingTransport())
        #expect(throws: AnalyticsError.invalidAppID("my app")) { try Analytics().start(configuration) }
        configuration.appID = ""
        #expect(throws: AnalyticsError.invalidAppID("")) { try Analytics().start(configuration) }
        configuration.appID = "com.example.app"
        configuration.batchSize = 501
        #expect(throws: AnalyticsError.invalidBatchSize(501)) { try Analytics().start(configuration) }
        configuration.batchSize = 25
        configuration.queueCapacity = 0
        #expect(throws: AnalyticsError.invalidQueueCapacity(0)) { try Analytics().start(configuration) }
        configuration.queueCapacity = 1
        let smallest = Analytics()
        #expect(throws: Never.self) { try smallest.start(configuration) }
        smallest.stop()
    }

    @Test func startingTwiceIsRefusedAndStopThenStartWorks() throws {
        let clock = ManualClock()
        let transport = RecordingTransport()
        let configuration = Configuration.testing(storage: nil, clock: clock, transport: transport)
        let analytics = Analytics()
        try analytics.start(configuration)
        #expect(throws: AnalyticsError.alreadyStarted) { try analytics.start(configuration) }
        analytics.stop()
        try analytics.start(configuration)
        #expect(analytics.isStarted)
    }

    @Test func trackBeforeStartIsIgnoredWithoutACrash() {
        let analytics = Analytics()
        analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
        analytics.flush()
        analytics.screens.enter("home")
        analytics.stop()
        #expect(!analytics.isStarted)
    }
}

struct SizeLimitTests {
    struct Wide: AnalyticsEvent {
        var name = "wide_event"
        var count: Int
        var properties: EventProperties {
            Dictionary(uniqueKeysWithValues: (0..<count).map { ("field_\($0)", PropertyValue.string(String(repeating: "x", count: 1000))) })
        }
    }

    @Test func anEventTooLargeForTheCollectorIsRejectedAtTrack() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.analytics.track(Wide(count: 100))
            client.analytics.track(Wide(count: 2))
            client.analytics.flush()
            #expect(client.transport.sentEvents.count == 1)
            #expect(client.diagnostics.contains { if case .eventRejected("wide_event", .eventTooLarge) = $0 { true } else { false } })
        }
    }

    @Test func anEventTooLargeReachesNoProviderAtAll() throws {
        try withStorage { storage in
            let spy = AnalyticsSpy()
            let client = try TestClient(storage: storage) { $0.providers = [spy] }
            client.analytics.track(Wide(count: 100))
            client.analytics.track(Wide(count: 2))
            #expect(spy.received.map(\.properties.count) == [2], "an app's provider never sees what the README says is rejected")
            #expect(client.diagnostics.contains { if case .eventRejected("wide_event", .eventTooLarge(let bytes)) = $0 { bytes > 64 * 1024 } else { false } })
        }
    }

    @Test func batchesStayUnderTheCollectorsBodyLimit() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            for _ in 0..<25 { client.analytics.track(Wide(count: 40)) }
            #expect(client.transport.requests.count >= 1)
            client.analytics.flush()
            #expect(client.transport.sentEvents.count == 25)
            #expect(client.transport.requests.count >= 2)
            #expect(client.transport.requests.allSatisfy { $0.body.count <= 512 * 1024 })
        }
    }
}
