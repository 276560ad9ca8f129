import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Testing

/// How an app tests its own code: the presenter depends on
/// `AnalyticsTracking`, the app passes `Analytics.shared`, the test a spy.
final class CardPresenter {
    private let analytics: any AnalyticsTracking

    init(analytics: any AnalyticsTracking) { self.analytics = analytics }

    func handleCardActivation(type: String, hasVirtual: Bool) {
        analytics.track(FinancialEvent.cardActivated(cardType: type, isVirtual: hasVirtual))
    }
}

struct PresenterExampleTests {
    @Test func tappingActivateTracksTheCardActivation() {
        let spy = AnalyticsSpy()
        CardPresenter(analytics: spy).handleCardActivation(type: "Gold", hasVirtual: true)
        #expect(spy.tracked == [.init(name: "financial_card_activated", properties: ["card_type": "Gold", "is_virtual": true])])
    }

    /// The spy alone would stay green if the real adapter were emptied; this
    /// one runs the same presenter through the real client to the wire.
    @Test func theSamePresenterReachesTheWire() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            CardPresenter(analytics: client.analytics).handleCardActivation(type: "Gold", hasVirtual: true)
            client.analytics.flush()
            let event = try #require(client.transport.sentEvents.first)
            #expect(event.name == "financial_card_activated")
            #expect(event.properties == ["card_type": "Gold", "is_virtual": true])
        }
    }

    @Test func registeredProvidersReceiveEnrichedEvents() throws {
        try withStorage { storage in
            let spy = AnalyticsSpy()
            let client = try TestClient(storage: storage) { $0.providers = [spy] }
            client.analytics.track(FinancialEvent.checkoutFailed(errorCode: 7, reason: "declined"))
            client.post(.background)
            #expect(spy.received.map(\.name) == ["financial_checkout_failed"])
            #expect(spy.received.first?.context.app.appVersion == "2.4.0")
            #expect(spy.received.first?.timestamp == 1_767_225_600_000)
            #expect(spy.flushCount == 1)
            #expect(client.transport.sentEvents.map(\.eventID) == spy.received.map { $0.eventID.uuidString.lowercased() })
        }
    }
}

struct ConsoleProviderTests {
    @Test func writesOneLinePerEventWithoutForbiddenKeys() throws {
        struct SignUp: AnalyticsEvent {
            let name = "signup_completed"
            let properties: EventProperties = ["plan": "pro", "seats": 3, "email": "a@b.c"]
        }
        try withStorage { storage in
            let lines = Locked<[String]>([])
            let client = try TestClient(storage: storage) { configuration in
                configuration.providers = [ConsoleProvider(write: { line in lines.withLock { $0.append(line) } })]
            }
            client.analytics.track(SignUp())
            #expect(lines.withLock { $0 } == ["[analytics] signup_completed plan=\"pro\" seats=3"])
        }
    }
}
