import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Collector
import Foundation
import Testing
import TestSupport

/// The real SDK client sending through the in-process collector.
struct SDKToCollectorTests {
    private struct Client {
        let analytics = Analytics()
        let clock = ManualClock()
        let collector: Collector
        let transport: CollectorTransport
        let center = NotificationCenter()
        let diagnostics = Locked<[AnalyticsDiagnostic]>([])

        init(storage: URL, appID: String = "com.example.app", allowList: Set<String> = ["com.example.app"]) throws {
            let clock = clock
            collector = try Collector(allowList: allowList, now: { Int64(clock.now().timeIntervalSince1970 * 1000) })
            transport = CollectorTransport(collector: collector)
            let diagnostics = diagnostics
            try analytics.start(.testing(appID: appID, storage: storage, clock: clock, transport: transport,
                                         notificationCenter: center, onDiagnostic: { diagnostic in diagnostics.withLock { $0.append(diagnostic) } }))
        }
    }

    private func withStorage(_ body: (URL) throws -> Void) throws {
        let directory = try TemporaryDirectory(in: TestScratch.root)
        defer { directory.remove() }
        try body(directory.url)
    }

    @Test func aRecordedSessionYieldsTheExpectedScreenStatistics() throws {
        try withStorage { storage in
            let client = try Client(storage: storage)
            let screens = client.analytics.screens
            screens.enter("home")
            client.clock.advance(by: .seconds(10))
            screens.push("paywall")
            client.clock.advance(by: .seconds(4))
            screens.pop()
            client.clock.advance(by: .milliseconds(100)) // a flicker visit: counted, left out of averages
            screens.enter("search")
            client.clock.advance(by: .seconds(2))
            screens.enter("home")
            client.clock.advance(by: .seconds(31 * 60)) // a phone left on the table
            screens.enter("search")
            client.clock.advance(by: .seconds(6))
            client.analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
            client.analytics.flush()

            let stats = try client.collector.visitStatistics()
            let home = try #require(stats.screens["home"])
            #expect(home.visits == 3)
            #expect(home.countedVisits == 1)
            #expect(home.meanMs == 10_000)
            #expect(home.shortVisits == 1)
            #expect(home.cappedVisits == 1)
            let search = try #require(stats.screens["search"])
            #expect(search.visits == 1)
            #expect(search.meanMs == 2000)
            #expect(search.unpairedEnters == 1, "the open visit has no exit yet")
            #expect(stats.screens["paywall"]?.medianMs == 4000)
            #expect(stats.sessions.values.map(\.totalMs).reduce(0, +) == 16_000)
            #expect(try client.collector.store.events().contains { $0.name == "financial_card_activated" })
        }
    }

    @Test func aHomeButtonExitIsCounted() throws {
        try withStorage { storage in
            let client = try Client(storage: storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(12))
            client.center.post(name: LifecycleNotifications.testing.background[0], object: nil)

            let home = try #require(try client.collector.visitStatistics().screens["home"])
            #expect(home.visits == 1, "the background exit pairs the enter")
            #expect(home.unpairedEnters == 0)
            #expect(home.meanMs == 12_000)
        }
    }

    @Test func aRetryAfterALostResponseStoresEachEventOnce() throws {
        try withStorage { storage in
            let client = try Client(storage: storage)
            client.transport.loseResponses(1)
            for index in 0..<3 { client.analytics.track(FinancialEvent.checkoutFailed(errorCode: index, reason: "declined")) }
            client.analytics.flush()
            #expect(try client.collector.store.count == 3, "the first attempt was stored")
            client.clock.advance(by: .seconds(5))

            #expect(client.transport.requests.count == 2)
            #expect(client.transport.responses.last?.body == Array("{\"accepted\":0,\"duplicates\":3}".utf8))
            #expect(try client.collector.store.count == 3)
        }
    }

    @Test func anAppNotOnTheAllowListIsDroppedAfterOneRequest() throws {
        try withStorage { storage in
            let client = try Client(storage: storage, appID: "com.mac.app")
            client.analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: false))
            client.analytics.flush()
            client.clock.advance(by: .seconds(3600))
            #expect(client.transport.requests.count == 1)
            #expect(client.transport.responses.first?.status == 403)
            #expect(try client.collector.store.count == 0)
            #expect(client.diagnostics.withLock { $0 }.contains { if case .batchDropped(1, let reason) = $0 { reason.contains("allow list") } else { false } })
        }
    }

    @Test func everythingTheSDKSendsIsAcceptedByTheCollector() throws {
        try withStorage { storage in
            let client = try Client(storage: storage)
            client.analytics.track(FinancialEvent.transactionInitiated(amount: 10.5, currency: "BRL"))
            client.analytics.track(FinancialEvent.checkoutFailed(errorCode: 3, reason: "timeout"))
            client.analytics.screens.enter("home")
            client.analytics.flush()
            #expect(client.transport.responses.map(\.status) == [200])
            #expect(try client.collector.store.count == 3)
        }
    }
}
