import Analytics
import AnalyticsTesting
import Foundation
import Testing

/// Screen scenarios through the real client to the recording transport,
/// decoded back into visits.
struct ScreenTrackingTests {
    /// One decoded `screen_enter` / `screen_exit`, durations in ms.
    enum Visit: Equatable, CustomStringConvertible {
        case enter(String, modal: Bool)
        case exit(String, ms: Int64, reason: String)

        var description: String {
            switch self {
            case let .enter(screen, modal): "enter \(screen)\(modal ? " (modal)" : "")"
            case let .exit(screen, ms, reason): "exit \(screen) \(ms)ms \(reason)"
            }
        }
    }

    /// Flushes and decodes every screen event sent, checking visit ids pair up.
    private func visits(_ client: TestClient) -> [Visit] {
        client.analytics.flush()
        var open: [String: String] = [:]
        return client.transport.sentEvents.compactMap { event in
            switch event.name {
            case "screen_enter":
                open[event.string("visit_id")!] = event.string("screen")
                return .enter(event.string("screen")!, modal: event.bool("modal")!)
            case "screen_exit":
                let screen = event.string("screen")!
                #expect(open.removeValue(forKey: event.string("visit_id")!) == screen, "exit pairs with its enter")
                return .exit(screen, ms: event.integer("duration_ms")!, reason: event.string("reason")!)
            default:
                return nil
            }
        }
    }

    private func client(_ storage: URL) throws -> TestClient { try TestClient(storage: storage) }

    /// Screens shown while opted out are not tracked at all: after opting
    /// back in, no visit closes that never opened on the wire.
    @Test func screensShownWhileOptedOutLeaveNoVisitBehind() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.setOptOut(true)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(3))
            client.analytics.setOptOut(false)
            client.analytics.screens.enter("search")
            #expect(visits(client) == [.enter("search", modal: false)])
        }
    }

    @Test func tabSwitchReplacesTheTop() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(3))
            client.analytics.screens.enter("search")
            client.clock.advance(by: .milliseconds(1500))
            client.analytics.screens.enter("profile")
            #expect(visits(client) == [
                .enter("home", modal: false), .exit("home", ms: 3000, reason: "replace"),
                .enter("search", modal: false), .exit("search", ms: 1500, reason: "replace"),
                .enter("profile", modal: false),
            ])
        }
    }

    @Test func sheetOverHomeStopsHomesClockAndHomeStartsANewVisitAfter() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(2))
            client.analytics.screens.push("paywall")
            client.clock.advance(by: .seconds(10))
            client.analytics.screens.pop()
            client.clock.advance(by: .seconds(4))
            client.analytics.screens.enter("settings")
            let result = visits(client)
            #expect(result == [
                .enter("home", modal: false), .exit("home", ms: 2000, reason: "cover"),
                .enter("paywall", modal: true), .exit("paywall", ms: 10_000, reason: "pop"),
                .enter("home", modal: false), .exit("home", ms: 4000, reason: "replace"),
                .enter("settings", modal: false),
            ])
            let homeVisits = client.transport.sentEvents.filter { $0.name == "screen_enter" && $0.string("screen") == "home" }
            #expect(Set(homeVisits.compactMap { $0.string("visit_id") }).count == 2, "home starts a new visit after the sheet")
        }
    }

    @Test func nestedModalsUnwindOneLevelAtATime() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(1))
            client.analytics.screens.push("editor_sheet")
            client.clock.advance(by: .seconds(2))
            client.analytics.screens.push("camera")
            client.clock.advance(by: .seconds(3))
            client.analytics.screens.pop()
            client.clock.advance(by: .seconds(4))
            client.analytics.screens.pop()
            #expect(visits(client) == [
                .enter("home", modal: false), .exit("home", ms: 1000, reason: "cover"),
                .enter("editor_sheet", modal: true), .exit("editor_sheet", ms: 2000, reason: "cover"),
                .enter("camera", modal: true), .exit("camera", ms: 3000, reason: "pop"),
                .enter("editor_sheet", modal: true), .exit("editor_sheet", ms: 4000, reason: "pop"),
                .enter("home", modal: false),
            ])
        }
    }

    @Test func popNamedUnwindsToBelowThatScreen() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.analytics.screens.push("sheet")
            client.analytics.screens.push("camera")
            client.clock.advance(by: .seconds(1))
            client.analytics.screens.pop(named: "sheet")
            client.analytics.screens.pop(named: "not_on_stack")
            #expect(visits(client).suffix(2) == [.exit("camera", ms: 1000, reason: "pop"), .enter("home", modal: false)])
        }
    }

    @Test(arguments: [true, false])
    func onAppearFiredAgainOrNotGivesTheSameVisits(refires: Bool) throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(2))
            if refires { client.analytics.screens.enter("home") }
            client.clock.advance(by: .seconds(3))
            client.analytics.screens.enter("search")
            #expect(visits(client) == [
                .enter("home", modal: false), .exit("home", ms: 5000, reason: "replace"), .enter("search", modal: false),
            ])
        }
    }

    @Test func backgroundClosesTheVisitAndForegroundOpensANewOneKeepingTheStack() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.analytics.screens.push("sheet")
            client.clock.advance(by: .seconds(7))
            client.post(.background)
            let flushed = client.transport.requests.count
            #expect(flushed == 1, "background flushes")
            client.clock.advance(by: .seconds(600))
            client.post(.foreground)
            client.clock.advance(by: .seconds(2))
            client.analytics.screens.pop()
            #expect(visits(client) == [
                .enter("home", modal: false), .exit("home", ms: 0, reason: "cover"),
                .enter("sheet", modal: true), .exit("sheet", ms: 7000, reason: "background"),
                .enter("sheet", modal: true), .exit("sheet", ms: 2000, reason: "pop"),
                .enter("home", modal: false),
            ])
        }
    }

    @Test func resignActiveAloneChangesNothing() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(1))
            client.center.post(name: Notification.Name("test.willResignActive"), object: nil)
            client.center.post(name: Notification.Name("test.didBecomeActive"), object: nil)
            client.clock.advance(by: .seconds(1))
            client.analytics.screens.enter("next")
            #expect(visits(client) == [.enter("home", modal: false), .exit("home", ms: 2000, reason: "replace"), .enter("next", modal: false)])
        }
    }

    @Test func terminateClosesTheVisitAndFlushes() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(9))
            client.post(.terminate)
            #expect(client.transport.requests.count == 1, "terminate sends at once")
            #expect(client.transport.sentEvents.last?.name == "screen_exit")
            #expect(client.transport.sentEvents.last?.string("reason") == "terminate")
            #expect(client.transport.sentEvents.last?.integer("duration_ms") == 9000)
        }
    }

    @Test func stopThenStartEmitsNoStaleExit() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(5))
            client.analytics.stop()
            #expect(client.transport.sentEvents.last?.string("reason") == "stop", "stop closes the visit and flushes")
            let sentAtStop = client.transport.sentEvents.count

            try client.analytics.start(.testing(storage: storage, clock: client.clock, transport: client.transport,
                                                notificationCenter: client.center))
            client.clock.advance(by: .seconds(5))
            client.analytics.screens.enter("search")
            client.post(.background)
            let after = client.transport.sentEvents.dropFirst(sentAtStop)
            #expect(after.map(\.name) == ["screen_enter", "screen_exit"])
            #expect(after.allSatisfy { $0.string("screen") == "search" })
        }
    }

    @Test func trackerUsedBeforeStartDoesNothing() throws {
        try withStorage { storage in
            let analytics = Analytics()
            analytics.screens.enter("home")
            analytics.screens.push("sheet")
            analytics.screens.pop()
            let clock = ManualClock()
            let transport = RecordingTransport()
            try analytics.start(.testing(storage: storage, clock: clock, transport: transport))
            analytics.flush()
            #expect(transport.requests.isEmpty)
        }
    }

    @Test func anonymousDialogIsIgnoredAndTheScreenKeepsItsVisit() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.clock.advance(by: .seconds(1))
            client.analytics.screens.push(nil)
            client.analytics.screens.push("")
            client.analytics.screens.enter(nil)
            client.clock.advance(by: .seconds(1))
            client.analytics.screens.enter("next")
            #expect(visits(client) == [.enter("home", modal: false), .exit("home", ms: 2000, reason: "replace"), .enter("next", modal: false)])
        }
    }

    @Test func navigatorReplaceAndRemoveKeepTheStackInStep() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.analytics.screens.push("list")
            client.analytics.screens.push("detail")
            client.analytics.screens.remove("list")
            client.analytics.screens.replace("detail", with: "detail_v2")
            client.analytics.screens.pop()
            let enters = visits(client).compactMap { visit -> String? in
                if case .enter(let screen, _) = visit { return screen } else { return nil }
            }
            #expect(enters == ["home", "list", "detail", "detail_v2", "home"])
        }
    }

    @Test func screensCarryTheSessionAndRotateAfterThirtyMinutesInBackground() throws {
        try withStorage { storage in
            let client = try client(storage)
            client.analytics.screens.enter("home")
            client.post(.background)
            client.clock.advance(by: .seconds(31 * 60))
            client.post(.foreground)
            let sessions = client.transport.sentEvents.map(\.sessionID) + visitsSessions(client)
            #expect(Set(sessions).count == 2)
        }
    }

    private func visitsSessions(_ client: TestClient) -> [String] {
        client.analytics.flush()
        return client.transport.sentEvents.map(\.sessionID)
    }
}
