import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Foundation
import Testing

/// Through the real client into the recording transport, reading the bytes
/// that would go on the wire.
struct DeliveryEndToEndTests {
    @Test func timestampsAreMillisecondsOnTheWire() throws {
        try withStorage { storage in
            // 2026-01-01T00:00:00.123Z
            let client = try TestClient(storage: storage, clock: ManualClock(now: Date(timeIntervalSince1970: 1_767_225_600.123)))
            client.analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
            client.analytics.flush()

            let batch = try #require(client.transport.batches.first)
            #expect(batch.events.map(\.timestamp) == [1_767_225_600_123])
            #expect(batch.sentAt == 1_767_225_600_123)
            #expect(client.transport.requests[0].bodyText.contains("\"ts\":1767225600123}"))
        }
    }

    @Test func requestCarriesTheWireFormatEnvelope() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.analytics.track(FinancialEvent.transactionInitiated(amount: 12.5, currency: "BRL"))
            client.analytics.flush()

            let request = try #require(client.transport.requests.first)
            #expect(request.url.absoluteString == "https://collector.example.com/v1/batch")
            #expect(request.method == "POST")
            #expect(request.header("content-type") == "application/json")
            let batch = try #require(request.batch)
            #expect(batch.schemaVersion == 1)
            #expect(batch.appID == "com.example.app")
            #expect(UUID(uuidString: batch.installID ?? "") != nil)
            let event = try #require(batch.events.first)
            #expect(event.name == "financial_transaction_initiated")
            #expect(event.properties == ["transaction_amount": .double(12.5), "currency": "BRL"])
            #expect(event.context == [
                "app_version": "2.4.0", "platform": "iOS", "os_version": "18.1", "device_model": "iPhone15,2",
                "locale": "pt-BR", "network": "wifi", "environment": "production", "sdk": SDKInfo.identifier,
            ])
            #expect(request.bodyText.hasPrefix("{\"app_id\":\"com.example.app\",\"events\":[{\"context\":{\"app_version\":\"2.4.0\","))
        }
    }

    @Test func forbiddenKeysNeverReachTheWire() throws {
        struct SignUp: AnalyticsEvent {
            let name = "signup_completed"
            let properties: EventProperties = ["email": "ana@example.com", "plan": "pro", "latitude": 1.5, "nickname": "ana"]
        }
        try withStorage { storage in
            let client = try TestClient(storage: storage) { $0.additionalForbiddenKeys = ["nickname"] }
            client.analytics.track(SignUp())
            client.analytics.flush()

            let body = try #require(client.transport.requests.first).bodyText
            #expect(!body.contains("email"))
            #expect(!body.contains("ana@example.com"))
            #expect(!body.contains("latitude"))
            #expect(!body.contains("nickname"))
            #expect(client.transport.sentEvents.first?.properties == ["plan": "pro"])
            #expect(client.diagnostics.contains(.keysStripped(event: "signup_completed", keys: ["email", "latitude", "nickname"])))
        }
    }

    @Test func scrubberMayEditOrDropButCannotReintroduceForbiddenKeys() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage) { configuration in
                configuration.beforeSend = { event in
                    if event.name == "financial_checkout_failed" { return nil }
                    var edited = event
                    edited.properties["email"] = "leak@example.com"
                    edited.properties["card_type"] = "redacted"
                    return edited
                }
            }
            client.analytics.track(FinancialEvent.checkoutFailed(errorCode: 1, reason: "x"))
            client.analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: false))
            client.analytics.flush()

            #expect(client.transport.sentEvents.map(\.name) == ["financial_card_activated"])
            #expect(client.transport.sentEvents.first?.properties == ["card_type": "redacted", "is_virtual": false])
            #expect(client.diagnostics.contains(.eventDroppedByScrubber(name: "financial_checkout_failed")))
        }
    }

    @Test func sendsAtTwentyFiveEventsWithoutWaiting() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(24)
            #expect(client.transport.requests.isEmpty)
            client.track(1, startingAt: 24)
            try #require(client.transport.requests.count == 1)
            #expect(client.transport.batches[0].events.count == 25)
        }
    }

    @Test func sendsSixtySecondsAfterTheOldestEvent() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(1)
            client.clock.advance(by: .seconds(30))
            client.track(1, startingAt: 1)
            client.clock.advance(by: .seconds(29))
            #expect(client.transport.requests.isEmpty)
            client.clock.advance(by: .seconds(1))
            try #require(client.transport.requests.count == 1)
            #expect(client.transport.batches[0].events.count == 2)
        }
    }

    @Test func retriedBatchCarriesTheSameEventIDs() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(503), .networkFailure())
            client.track(3)
            client.analytics.flush()
            client.clock.advance(by: .seconds(15 * 60))
            client.clock.advance(by: .seconds(15 * 60))

            let batches = client.transport.batches
            try #require(batches.count == 3)
            let ids = batches.map { $0.events.map(\.eventID) }
            #expect(ids[0].count == 3)
            #expect(ids[1] == ids[0])
            #expect(ids[2] == ids[0])
            #expect(batches[0].sentAt! < batches[1].sentAt!, "sent_at is set afresh for each attempt")
        }
    }

    @Test(arguments: [400, 403, 413])
    func rejectedBatchIsDroppedAndTheNextBatchStillGoesOut(status: Int) throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage) { $0.batchSize = 1 }
            client.transport.enqueue(.status(status, body: "{\"error\":\"x\"}"))
            client.track(1)
            client.clock.advance(by: .seconds(15 * 60))
            #expect(client.transport.requests.count == 1)

            client.track(1, startingAt: 1)
            let batches = client.transport.batches
            try #require(batches.count == 2)
            try #require(batches[1].events.count == 1)
            #expect(batches[1].events[0].eventID != batches[0].events[0].eventID)
            #expect(batches[1].events[0].integer("error_code") == 1)
            #expect(client.diagnostics.contains { if case .batchDropped(1, _) = $0 { true } else { false } })
        }
    }

    @Test func badFieldDropsOnlyTheNamedEventsAndResendsTheRest() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(400, body: "{\"error\":\"bad_field\",\"fields\":[\"events[1].ts\",\"events[3].props.x\"]}"))
            client.track(4)
            client.analytics.flush()

            let batches = client.transport.batches
            try #require(batches.count == 2)
            #expect(batches[1].events.map(\.eventID) == [batches[0].events[0].eventID, batches[0].events[2].eventID])
            #expect(client.diagnostics.contains(.eventsDroppedByCollector(count: 2)))
        }
    }

    /// A field path past the end of the batch names no event of it.
    @Test func badFieldNamingAnEventPastTheBatchDropsOnlyTheOnesInIt() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(400, body: "{\"error\":\"bad_field\",\"fields\":[\"events[1].ts\",\"events[4].ts\"]}"))
            client.track(4)
            client.analytics.flush()
            #expect(client.transport.batches.map(\.events.count) == [4, 3])
            #expect(client.diagnostics.contains(.eventsDroppedByCollector(count: 1)))
        }
    }

    /// Without a flush too: what `bad_field` leaves of a full batch is resent
    /// at once, even a single event, not left to the 60 s timer.
    @Test func theOneEventBadFieldLeavesIsResentAtOnce() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            let fields = (0..<24).map { "\"events[\($0)].ts\"" }.joined(separator: ",")
            client.transport.enqueue(.status(400, body: "{\"error\":\"bad_field\",\"fields\":[\(fields)]}"))
            client.track(25)
            #expect(client.transport.batches.map(\.events.count) == [25, 1], "the survivor goes out right after the answer")
        }
    }

    @Test func tooLargeSplitsTheBatchInHalves() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(413, body: "{\"error\":\"too_large\"}"))
            client.track(4)
            client.analytics.flush()

            let sizes = client.transport.batches.map(\.events.count)
            try #require(sizes == [4, 2, 2])
            let first = client.transport.batches[0].events.map(\.eventID)
            #expect(client.transport.batches[1...].flatMap { $0.events.map(\.eventID) } == first)
        }
    }

    /// Two events too large together go out one by one; each alone is accepted.
    @Test func aPairTooLargeTogetherGoesOutOneByOne() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(413, body: "{\"error\":\"too_large\"}"))
            client.track(2)
            client.analytics.flush()
            #expect(client.transport.batches.map(\.events.count) == [2, 1, 1])
        }
    }

    @Test(arguments: [RecordingTransport.Reply.status(429), .status(503), .status(500), .networkFailure()])
    func retryableFailureWaitsForTheTimerWithNoExtraRequests(reply: RecordingTransport.Reply) throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(reply)
            client.track(25)
            #expect(client.transport.requests.count == 1)

            // Ten more events and a flush while the retry is pending: no request.
            client.track(10, startingAt: 25)
            client.analytics.flush()
            #expect(client.transport.requests.count == 1)
            #expect(client.clock.pendingTimers == [.seconds(5)])

            client.clock.advance(by: .milliseconds(4999))
            #expect(client.transport.requests.count == 1)
            client.clock.advance(by: .milliseconds(1))
            try #require(client.transport.requests.count >= 2)
            #expect(client.transport.batches[1].events.map(\.eventID) == client.transport.batches[0].events.map(\.eventID))
            #expect(client.transport.sentEvents.count == 25 + 25 + 10)
        }
    }

    @Test func retryAfterIsHonouredOn429() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(429, headers: ["Retry-After": "120"]))
            client.track(1)
            client.analytics.flush()
            #expect(client.clock.pendingTimers == [.seconds(120)])
            client.clock.advance(by: .seconds(119))
            #expect(client.transport.requests.count == 1)
            client.clock.advance(by: .seconds(1))
            #expect(client.transport.requests.count == 2)
        }
    }

    @Test func backoffGrowsAndIsCappedAtFifteenMinutes() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, transport: nil)
            for _ in 0..<14 { client.transport.enqueue(.status(503)) }
            client.track(1)
            client.analytics.flush()
            var waits: [Duration] = []
            for _ in 0..<13 {
                let wait = try #require(client.clock.pendingTimers.first)
                waits.append(wait)
                client.clock.advance(by: wait)
            }
            #expect(waits.prefix(4) == [.seconds(5), .seconds(10), .seconds(20), .seconds(40)])
            #expect(waits.allSatisfy { $0 <= .seconds(900) })
            #expect(waits.last == .seconds(900))
            #expect(client.transport.requests.count == 14)
        }
    }

    @Test func aStoppedClientNeverSendsWhenItsRetryTimerWouldHaveFired() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(503))
            client.track(3)
            client.analytics.flush()
            #expect(client.transport.requests.count == 1)
            #expect(client.clock.pendingTimers.count == 1, "the retry is waiting on its timer")
            client.analytics.stop()
            #expect(client.clock.pendingTimers.isEmpty, "stop calls the retry off")
            client.clock.advance(by: .seconds(20 * 60))
            #expect(client.transport.requests.count == 1, "nothing goes out after stop; the events wait on disk for the next start")
        }
    }

    /// Stopped while a request is out: its failure arrives after the stop and
    /// must not arm a retry (the machine would send again on that timer).
    @Test func aFailureThatArrivesAfterStopArmsNoRetry() throws {
        try withStorage { storage in
            let clock = ManualClock()
            let transport = RecordingTransport(clock: clock)
            transport.enqueue(.delayed(.seconds(5), .status(503)))
            let client = try TestClient(storage: storage, clock: clock, transport: transport)
            client.track(3)
            client.analytics.flush()
            #expect(client.transport.requests.count == 1)
            client.analytics.stop()
            client.clock.advance(by: .seconds(5)) // the 503 arrives
            #expect(client.clock.pendingTimers.isEmpty, "no retry timer after stop")
            client.clock.advance(by: .seconds(20 * 60))
            #expect(client.transport.requests.count == 1, "nothing goes out after stop; the events wait on disk for the next start")
        }
    }

    /// A flush and the 60 s timer at the same moment, both waiting for the
    /// worker: the flush sends, and the failure arms the retry before the
    /// timer's own work runs. That work belongs to a timer that no longer
    /// counts and must not send the retry early (no backoff against a
    /// failing collector).
    @Test func aTimerThatFiredBehindOtherWorkDoesNotCutTheBackoffShort() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.transport.enqueue(.status(503))
            client.track(3)
            #expect(client.clock.pendingTimers == [.seconds(60)])
            client.clock.execute {
                client.analytics.flush()
                client.clock.advance(by: .seconds(60)) // fires; its work runs after the flush and the 503
            }
            #expect(client.transport.requests.count == 1, "one request; the retry waits for its timer")
            #expect(client.clock.pendingTimers == [.seconds(5)])
            client.clock.advance(by: .seconds(5))
            #expect(client.transport.requests.count == 2)
        }
    }

    @Test func oneRequestInFlightAtATime() throws {
        try withStorage { storage in
            let clock = ManualClock()
            let transport = RecordingTransport(clock: clock)
            transport.enqueue(.delayed(.seconds(5), .accepted))
            let client = try TestClient(storage: storage, clock: clock, transport: transport)
            client.track(25)
            client.track(25, startingAt: 25)
            client.analytics.flush()
            #expect(transport.requests.count == 1)
            clock.advance(by: .seconds(5))
            #expect(transport.requests.count == 2)
            #expect(Set(transport.sentEvents.map(\.eventID)).count == 50)
        }
    }

    /// docs/wire-format.md: `context.network` is the network the event was
    /// tracked on, so the events of one batch can differ.
    @Test func eachEventCarriesTheNetworkItWasTrackedOn() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(1)
            client.connectivity.set(NetworkStatus(network: .cellular))
            client.track(1, startingAt: 1)
            client.analytics.flush()
            #expect(client.transport.sentEvents.map { $0.context["network"] } == ["wifi", "cellular"])
        }
    }

    @Test func offlineEventsWaitOnDiskAndGoOutWhenTheNetworkReturns() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline)
            client.track(30)
            client.analytics.flush()
            client.clock.advance(by: .seconds(3600))
            #expect(client.transport.requests.isEmpty)

            client.connectivity.set(NetworkStatus(network: .cellular))
            #expect(client.transport.sentEvents.count == 30)
            #expect(client.transport.requests.count == 2)
        }
    }

    /// Nothing queued, nothing to wait for: no timer at start, none after the
    /// queue empties.
    @Test func anEmptyQueueArmsNoTimer() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            #expect(client.clock.pendingTimers.isEmpty, "at start")
            client.track(25)
            #expect(client.transport.sentEvents.count == 25)
            #expect(client.clock.pendingTimers.isEmpty, "after the queue emptied")
        }
    }

    /// A flush with nothing queued (the app went to the background offline)
    /// asks for nothing later: the next event, online, waits its 60 s.
    @Test func aFlushWithNothingQueuedLeavesTheNextEventToItsTimer() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline)
            client.analytics.flush()
            client.connectivity.set(NetworkStatus(network: .wifi))
            client.track(1)
            #expect(client.transport.requests.isEmpty, "a lone event waits for its batch or its 60 s")
            client.clock.advance(by: .seconds(60))
            #expect(client.transport.sentEvents.count == 1)
        }
    }

    /// The 60 s timer fires after the network went away: nothing is sent
    /// until it returns.
    @Test func theBatchTimerFiringOfflineSendsNothing() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(3)
            client.connectivity.set(NetworkStatus(network: .offline))
            client.clock.advance(by: .seconds(60))
            #expect(client.transport.requests.isEmpty)
            client.connectivity.set(NetworkStatus(network: .wifi))
            #expect(client.transport.sentEvents.count == 3)
        }
    }

    /// The timer of an event the opt-out purged fires on an empty queue; after
    /// opting back in, a lone event still gets its own 60 s timer.
    @Test func aLoneEventAfterAnOptOutAndBackInIsStillTimed() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(1)
            client.analytics.setOptOut(true)
            client.clock.advance(by: .seconds(60))
            client.analytics.setOptOut(false)
            client.track(1, startingAt: 1)
            client.clock.advance(by: .seconds(60))
            #expect(client.transport.sentEvents.compactMap { $0.integer("error_code") } == [1])
        }
    }

    /// One event is enough: it goes out when the network returns, not when
    /// 24 more arrive.
    @Test func aSingleEventWaitingOfflineGoesOutWhenTheNetworkReturns() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage, network: .offline)
            client.track(1)
            client.connectivity.set(NetworkStatus(network: .wifi))
            #expect(client.transport.sentEvents.count == 1)
        }
    }

    @Test func lowPowerModeHoldsEventsUntilItEnds() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.connectivity.set(NetworkStatus(network: .wifi, isLowPower: true))
            client.track(26)
            #expect(client.transport.requests.isEmpty)
            client.connectivity.set(NetworkStatus(network: .wifi, isLowPower: false))
            #expect(client.transport.sentEvents.count == 25)
        }
    }

    /// Where low power meets the background: the background's flush sends
    /// nothing while low power holds uploads, its completion still comes
    /// (the events wait on disk), and once the power is back the flush it
    /// asked for drains the queue.
    @Test func lowPowerHoldsEvenTheBackgroundFlushWhichDrainsOncePowerReturns() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.connectivity.set(NetworkStatus(network: .wifi, isLowPower: true))
            client.track(30)
            client.post(.background)
            let flushed = Locked(false)
            client.analytics.flush { flushed.withLock { $0 = true } }
            #expect(client.transport.requests.isEmpty)
            #expect(flushed.withLock { $0 }, "the wait ends with the events on disk")
            client.connectivity.set(NetworkStatus(network: .wifi, isLowPower: false))
            #expect(client.transport.sentEvents.count == 30)
            #expect(client.transport.requests.count == 2)
        }
    }

    /// `sendsToCollector = false`: the app's providers get every event, the
    /// collector no request, and the completion forms still complete.
    @Test func withoutTheCollectorOnlyTheAppsProvidersReceiveAndFlushAndStopComplete() throws {
        try withStorage { storage in
            let spy = AnalyticsSpy()
            let client = try TestClient(storage: storage) { $0.sendsToCollector = false; $0.providers = [spy] }
            client.track(25)
            let calls = Locked(0)
            client.analytics.flush(completion: { calls.withLock { $0 += 1 } })
            client.analytics.stop(completion: { calls.withLock { $0 += 1 } })
            #expect(spy.received.count == 25)
            #expect(client.transport.requests.isEmpty)
            #expect(calls.withLock { $0 } == 2, "flush and stop each called their completion")
        }
    }

    @Test func backgroundFlushesEverythingQueued() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(30)
            #expect(client.transport.requests.count == 1)
            client.post(.background)
            #expect(client.transport.sentEvents.count == 30)
        }
    }

    /// An app whose lifecycle posts no notifications reports it by hand.
    @Test func aBackgroundReportedByHandFlushesToo() throws {
        try withStorage { storage in
            let client = try TestClient(storage: storage)
            client.track(3)
            client.analytics.handle(.background)
            #expect(client.transport.sentEvents.count == 3)
        }
    }
}
