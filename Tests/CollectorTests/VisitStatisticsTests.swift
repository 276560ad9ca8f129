import Collector
import Foundation
import Testing

/// Screen time as the collector computes it from what it stored: boundaries
/// of the short and capped visits, mean and median, unpaired enters, and
/// sessions. Every figure of every screen is checked, so a wrong counter
/// anywhere shows.
struct VisitStatisticsTests {
    static let now = CollectorRulesTests.now

    /// An enter and, unless `duration` is nil, its exit.
    static func visit(_ screen: String, _ duration: Int64?, session: String, number: Int) -> [String] {
        let visitID = String(format: "7d9e3c6a-1b2c-4d5e-8f90-%012x", number)
        func id(_ kind: Int) -> String { String(format: "5d9e3c6a-1b2c-4d5e-8f90-%012x", number * 2 + kind) }
        let enter = "{\"event_id\":\"\(id(0))\",\"name\":\"screen_enter\",\"ts\":\(now - 100_000 + Int64(number)),\"session_id\":\"\(session)\","
            + "\"props\":{\"screen\":\"\(screen)\",\"visit_id\":\"\(visitID)\",\"modal\":false}}"
        guard let duration else { return [enter] }
        let exit = "{\"event_id\":\"\(id(1))\",\"name\":\"screen_exit\",\"ts\":\(now - 50_000 + Int64(number)),\"session_id\":\"\(session)\","
            + "\"props\":{\"screen\":\"\(screen)\",\"visit_id\":\"\(visitID)\",\"duration_ms\":\(duration),\"reason\":\"navigation\"}}"
        return [enter, exit]
    }

    @Test func everyFigureOfEveryScreenAndSession() throws {
        let collector = try Collector(allowList: ["com.example.app"], now: { Self.now })
        var events: [String] = []
        var number = 0
        func add(_ screen: String, _ duration: Int64?, _ session: String) {
            number += 1
            events += Self.visit(screen, duration, session: session, number: number)
        }
        // home: just under and exactly at the short limit, ordinary visits,
        // exactly at and just over the 30-minute cap, and one enter left open.
        for duration: Int64 in [249, 250, 1_000, 3_000, 1_800_000, 1_800_001] { add("home", duration, "s-1") }
        add("home", nil, "s-1")
        // cart: an odd count, in another session.
        for duration: Int64 in [400, 800, 600] { add("cart", duration, "s-2") }
        let body = CollectorRulesTests.batch(events)
        let response = collector.handle(CollectorRequest(method: "POST", path: "/v1/batch", body: Array(body.utf8)))
        #expect(response.status == 200, "\(response.bodyText)")

        let statistics = try collector.visitStatistics()
        let home = try #require(statistics.screens["home"])
        #expect(home.visits == 6)
        #expect(home.countedVisits == 4, "250 ms and 30 minutes exactly are counted")
        #expect(home.shortVisits == 1)
        #expect(home.cappedVisits == 1)
        #expect(home.unpairedEnters == 1)
        #expect(home.meanMs == Double(250 + 1_000 + 3_000 + 1_800_000) / 4)
        #expect(home.medianMs == 2_000, "an even count: the mean of the two middle visits")

        let cart = try #require(statistics.screens["cart"])
        #expect(cart.visits == 3)
        #expect(cart.countedVisits == 3)
        #expect(cart.shortVisits == 0)
        #expect(cart.cappedVisits == 0)
        #expect(cart.unpairedEnters == 0)
        #expect(cart.meanMs == 600)
        #expect(cart.medianMs == 600)

        #expect(statistics.screens.count == 2)
        #expect(statistics.sessions["s-1"]?.visits == 6)
        #expect(statistics.sessions["s-1"]?.totalMs == Int64(1_804_250))
        #expect(statistics.sessions["s-2"]?.visits == 3)
        #expect(statistics.sessions["s-2"]?.totalMs == 1_800)
        #expect(statistics.sessions.count == 2)
    }

    @Test func aScreenWithOnlyAnOpenEnterHasNoTime() throws {
        let collector = try Collector(allowList: ["com.example.app"], now: { Self.now })
        let body = CollectorRulesTests.batch(Self.visit("paywall", nil, session: "s-9", number: 1))
        #expect(collector.handle(CollectorRequest(method: "POST", path: "/v1/batch", body: Array(body.utf8))).status == 200)
        let paywall = try #require(try collector.visitStatistics().screens["paywall"])
        #expect(paywall.visits == 0)
        #expect(paywall.countedVisits == 0)
        #expect(paywall.unpairedEnters == 1)
        #expect(paywall.meanMs == nil)
        #expect(paywall.medianMs == nil)
        #expect(paywall.shortVisits == 0)
        #expect(paywall.cappedVisits == 0)
        #expect(try collector.visitStatistics().sessions.isEmpty)
    }
}
