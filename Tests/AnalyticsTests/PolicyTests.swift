@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

/// Each delivery policy as a plain value.
struct ResponsePolicyTests {
    private func outcome(_ status: Int, body: String = "", headers: [String: String] = [:], batch: Int = 10) -> DeliveryOutcome {
        ResponsePolicy.outcome(of: .success(TransportResponse(status: status, headers: headers, body: Array(body.utf8))), batchSize: batch)
    }

    @Test func successIsDelivered() {
        #expect(outcome(200, body: "{\"accepted\":3,\"duplicates\":0}") == .delivered)
    }

    @Test func contractRejectionsAreDroppedNeverRetried() {
        #expect(outcome(400, body: "{\"error\":\"bad_json\"}") == .dropBatch(reason: "400 bad_json"))
        #expect(outcome(400, body: "{\"error\":\"unsupported_schema\"}") == .dropBatch(reason: "400 unsupported_schema"))
        #expect(outcome(400, body: "not json") == .dropBatch(reason: "400 bad_request"))
        if case .dropBatch = outcome(403, body: "{\"error\":\"unknown_app\"}") {} else { Issue.record("403 must drop") }
        if case .dropBatch = outcome(413, batch: 1) {} else { Issue.record("413 of one event must drop") }
    }

    @Test func badFieldNamesTheEventsToDrop() {
        let body = "{\"error\":\"bad_field\",\"fields\":[\"events[3].ts\",\"events[0].name\",\"events[3].props.a\",\"events[99].ts\"]}"
        #expect(outcome(400, body: body) == .dropEvents(indices: [0, 3]))
        #expect(outcome(400, body: "{\"error\":\"bad_field\",\"fields\":[\"app_id\"]}") == .dropBatch(reason: "400 bad_field naming no event"))
    }

    @Test func tooLargeSplits() {
        #expect(outcome(413, batch: 2) == .split)
    }

    @Test func overloadFaultsAndSilenceAreRetried() {
        #expect(outcome(429) == .retry(retryAfterSeconds: nil))
        #expect(outcome(429, headers: ["retry-after": " 30"]) == .retry(retryAfterSeconds: 30))
        #expect(outcome(500) == .retry(retryAfterSeconds: nil))
        #expect(outcome(503) == .retry(retryAfterSeconds: nil))
        #expect(outcome(404) == .retry(retryAfterSeconds: nil))
        #expect(ResponsePolicy.outcome(of: .failure(NetworkFailure("refused")), batchSize: 3) == .retry(retryAfterSeconds: nil))
    }

    @Test func eventIndexIsReadFromAFieldPath() {
        #expect(ResponsePolicy.eventIndex(inPath: "events[12].props.card") == 12)
        #expect(ResponsePolicy.eventIndex(inPath: "app_id") == nil)
        #expect(ResponsePolicy.eventIndex(inPath: "events[x].ts") == nil)
        #expect(ResponsePolicy.eventIndex(inPath: "extras[12].x") == nil, "a field outside the events")
    }
}

struct AppInfoTests {
    @Test func theOSVersionShowsAPatchOnlyWhenThereIsOne() {
        #expect(AppInfo.osVersion(OperatingSystemVersion(majorVersion: 18, minorVersion: 1, patchVersion: 0)) == "18.1")
        #expect(AppInfo.osVersion(OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 1)) == "17.4.1")
    }

    /// The context's `device_model` is the machine name as `uname -m` prints
    /// it: the C string's bytes up to its terminator, no trailing NULs.
    @Test func theDeviceModelIsTheMachineNameWithoutItsTerminator() throws {
        let uname = Process()
        uname.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        uname.arguments = ["uname", "-m"]
        let pipe = Pipe()
        uname.standardOutput = pipe
        try uname.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        uname.waitUntilExit()
        let machine = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(!machine.isEmpty)
        #expect(AppInfo.current().deviceModel == machine)
    }
}

struct EventSizeTests {
    /// The contract's number, not the constant under test: 65,536 bytes
    /// (64 KiB) is the largest event, the next byte is too much.
    @Test func theLargestEventIsExactly64KiB() {
        #expect(EventValidator.checkSize(of: [UInt8](repeating: 0x20, count: 65_536)) == nil)
        #expect(EventValidator.checkSize(of: [UInt8](repeating: 0x20, count: 65_537)) == .eventTooLarge(bytes: 65_537))
    }
}

struct BatchFittingTests {
    static func events(_ count: Int, payload: Int) -> [QueuedEvent] {
        (0..<count).map { QueuedEvent(id: "e\($0)", timestamp: 0, payload: [UInt8](repeating: UInt8(ascii: "x"), count: payload)) }
    }

    @Test func aBatchFitsItsBudgetCountingTheEnvelopeAndEveryComma() {
        // 512 bytes of envelope, then each event's bytes and its comma: four
        // events of 100 bytes need 916 bytes.
        #expect(CollectorUploader.fitting(Self.events(10, payload: 100), within: 916).count == 4)
        #expect(CollectorUploader.fitting(Self.events(10, payload: 100), within: 915).count == 3)
        #expect(CollectorUploader.fitting(Self.events(10, payload: 100), within: 100).count == 1, "never fewer than one")
        #expect(CollectorUploader.fitting(Self.events(2, payload: 100), within: 100_000).count == 2)
    }

    /// README: requests stay under 500 KiB (512,000 bytes; the collector
    /// answers 413 only above 512 KiB). By the rule above, eight events of
    /// 63,935 bytes need exactly 512,000 bytes; of 63,936, 512,008.
    @Test func aRequestStaysWithin500KiB() {
        let budget = WireContract.requestBudgetBytes
        #expect(CollectorUploader.fitting(Self.events(9, payload: 63_935), within: budget).count == 8)
        #expect(CollectorUploader.fitting(Self.events(9, payload: 63_936), within: budget).count == 7)
    }
}

struct BackoffTests {
    @Test func doublesFromTheBaseWithJitterInTheUpperHalf() {
        let backoff = Backoff()
        #expect(backoff.delay(afterFailures: 1, jitter: 0) == .seconds(4))
        #expect(backoff.delay(afterFailures: 1, jitter: 0.5) == .seconds(5))
        #expect(backoff.delay(afterFailures: 1, jitter: 0.999) < .seconds(6))
        #expect(backoff.delay(afterFailures: 5, jitter: 0) == .seconds(64))
        #expect(backoff.delay(afterFailures: 5, jitter: 0.5) == .seconds(80))
    }

    @Test func isCappedAtFifteenMinutes() {
        let backoff = Backoff()
        #expect(backoff.delay(afterFailures: 10, jitter: 0.999) <= .seconds(900))
        #expect(backoff.delay(afterFailures: 1000, jitter: 0.999) <= .seconds(900))
        #expect(backoff.delay(afterFailures: 1000, jitter: 0) == .seconds(720))
        #expect(backoff.delay(afterFailures: 9, jitter: 0.999) == .seconds(900))
        #expect(backoff.delay(retryAfter: 86_400) == .seconds(900))
        #expect(backoff.delay(retryAfter: 7) == .seconds(7))
    }

    @Test func aJitterSourceOutOfRangeCannotStretchOrShrinkTheWait() {
        let backoff = Backoff()
        let stretched = backoff.delay(afterFailures: 1, jitter: 7)
        #expect(stretched > .milliseconds(5_999) && stretched < .milliseconds(6_001), "clamped to 1: at most 20% over the ceiling")
        #expect(backoff.delay(afterFailures: 1, jitter: -3) == .seconds(4), "clamped to 0: at most 20% under")
    }

    @Test func aNegativeRetryAfterMeansNow() {
        #expect(Backoff().delay(retryAfter: -30) == .zero)
        #expect(Backoff().delay(retryAfter: 0) == .zero)
    }
}

struct DeliveryMachineTests {
    @Test func armsTheAgeTimerForTheFirstEventAndSendsAtTheBatchSize() {
        var machine = DeliveryMachine()
        #expect(machine.eventsQueued(count: 1, oldestAge: .zero) == .armTimer(after: .seconds(60)))
        #expect(machine.eventsQueued(count: 2, oldestAge: .seconds(5)) == .none)
        #expect(machine.eventsQueued(count: 25, oldestAge: .seconds(6)) == .send(limit: 25))
        #expect(machine.eventsQueued(count: 26, oldestAge: .seconds(6)) == .none, "one request in flight")
    }

    @Test func retryableFailureWaitsOnlyForTheTimer() {
        var machine = DeliveryMachine()
        _ = machine.flushRequested(count: 3)
        #expect(machine.batchFinished(.retry(retryAfterSeconds: nil), sentCount: 3, count: 3, oldestAge: .zero, jitter: 0) == .armTimer(after: .seconds(4)))
        #expect(machine.eventsQueued(count: 30, oldestAge: .seconds(1)) == .none)
        #expect(machine.flushRequested(count: 30) == .none)
        #expect(machine.timerFired(count: 30) == .send(limit: 25))
        #expect(machine.batchFinished(.retry(retryAfterSeconds: 42), sentCount: 25, count: 30, oldestAge: .zero, jitter: 0) == .armTimer(after: .seconds(42)))
        #expect(machine.consecutiveFailures == 2)
    }

    @Test func droppedBatchLetsTheNextOneGo() {
        var machine = DeliveryMachine()
        _ = machine.eventsQueued(count: 25, oldestAge: .zero)
        #expect(machine.batchFinished(.dropBatch(reason: "403"), sentCount: 25, count: 25, oldestAge: .zero, jitter: 0) == .send(limit: 25))
        #expect(machine.consecutiveFailures == 0)
    }

    @Test func splitHalvesTheNextBatch() {
        var machine = DeliveryMachine()
        _ = machine.eventsQueued(count: 25, oldestAge: .zero)
        #expect(machine.batchFinished(.split, sentCount: 25, count: 25, oldestAge: .zero, jitter: 0) == .send(limit: 12))
        #expect(machine.batchFinished(.delivered, sentCount: 12, count: 13, oldestAge: .seconds(10), jitter: 0) == .armTimer(after: .seconds(50)))
        #expect(machine.batchLimit == 25)
    }

    @Test func offlineHoldsEverythingUntilTheNetworkReturns() {
        var machine = DeliveryMachine(uploadsAllowed: false)
        #expect(machine.eventsQueued(count: 100, oldestAge: .seconds(600)) == .none)
        #expect(machine.flushRequested(count: 100) == .none)
        #expect(machine.uploadsAllowedChanged(true, count: 100) == .send(limit: 25))
    }

    @Test func aLoneEventAfterABatchStillGetsItsAgeTimer() {
        var machine = DeliveryMachine()
        #expect(machine.eventsQueued(count: 1, oldestAge: .zero) == .armTimer(after: .seconds(60)))
        #expect(machine.eventsQueued(count: 25, oldestAge: .seconds(5)) == .send(limit: 25), "sending cancels the armed timer")
        #expect(machine.batchFinished(.delivered, sentCount: 25, count: 0, oldestAge: .zero, jitter: 0) == .none)
        #expect(machine.eventsQueued(count: 1, oldestAge: .zero) == .armTimer(after: .seconds(60)), "or it would wait for 24 more events")
    }

    @Test func onlyANetworkThatComesBackSendsAtOnce() {
        var machine = DeliveryMachine()
        #expect(machine.eventsQueued(count: 3, oldestAge: .zero) == .armTimer(after: .seconds(60)))
        #expect(machine.uploadsAllowedChanged(true, count: 3) == .none, "online again while online: the age timer decides")
        _ = machine.uploadsAllowedChanged(false, count: 3)
        #expect(machine.uploadsAllowedChanged(true, count: 0) == .none, "back with nothing queued: nothing to send")
    }

    @Test func aNetworkThatFlapsDuringARequestDoesNotStartASecondOne() {
        var machine = DeliveryMachine()
        #expect(machine.flushRequested(count: 40) == .send(limit: 25))
        _ = machine.uploadsAllowedChanged(false, count: 40)
        #expect(machine.uploadsAllowedChanged(true, count: 40) == .none, "one request in flight")
        #expect(machine.phase == .sending)
    }

    @Test func losingTheNetworkDuringARequestHoldsTheRest() {
        var machine = DeliveryMachine()
        #expect(machine.flushRequested(count: 40) == .send(limit: 25))
        _ = machine.uploadsAllowedChanged(false, count: 40)
        #expect(machine.batchFinished(.delivered, sentCount: 25, count: 15, oldestAge: .zero, jitter: 0) == .none)
        #expect(machine.batchFinished(.dropEvents(indices: [0]), sentCount: 25, count: 15, oldestAge: .zero, jitter: 0) == .none)
        #expect(machine.batchFinished(.split, sentCount: 25, count: 25, oldestAge: .zero, jitter: 0) == .none)
    }

    @Test func badFieldResendsTheRestAtOnceOrWaitsWhenNothingIsLeft() {
        var machine = DeliveryMachine()
        #expect(machine.eventsQueued(count: 25, oldestAge: .zero) == .send(limit: 25))
        #expect(machine.batchFinished(.dropEvents(indices: [3]), sentCount: 25, count: 24, oldestAge: .seconds(10), jitter: 0) == .send(limit: 25))
        #expect(machine.batchFinished(.dropEvents(indices: [0]), sentCount: 1, count: 0, oldestAge: .zero, jitter: 0) == .none)
    }

    @Test func aSplitOfTwoSendsOneAtATime() {
        var machine = DeliveryMachine()
        _ = machine.flushRequested(count: 2)
        #expect(machine.batchFinished(.split, sentCount: 2, count: 2, oldestAge: .zero, jitter: 0) == .send(limit: 1))
    }

    @Test func flushDrainsTheQueueBatchAfterBatch() {
        var machine = DeliveryMachine()
        #expect(machine.flushRequested(count: 40) == .send(limit: 25))
        #expect(machine.batchFinished(.delivered, sentCount: 25, count: 15, oldestAge: .zero, jitter: 0) == .send(limit: 25))
        #expect(machine.batchFinished(.delivered, sentCount: 15, count: 0, oldestAge: .zero, jitter: 0) == .none)
        #expect(machine.eventsQueued(count: 1, oldestAge: .zero) == .armTimer(after: .seconds(60)), "draining ends with the queue")
    }
}

struct SessionClockTests {
    @Test func rotatesAfterThirtyMinutesWithoutActivity() {
        var ids = [UUID(), UUID(), UUID()].makeIterator()
        var session = SessionClock(id: ids.next()!, at: .seconds(0))
        let first = session.sessionID
        #expect(session.touch(at: .seconds(29 * 60), newID: { ids.next()! }) == first)
        #expect(session.touch(at: .seconds(59 * 60), newID: { ids.next()! }) == first)
        let second = session.touch(at: .seconds(89 * 60 + 1), newID: { ids.next()! })
        #expect(second != first)
    }
}

struct EnvironmentClassifierTests {
    @Test func freshStoreInstallWithoutAReceiptFileIsProduction() {
        // The receipt URL exists even before StoreKit writes the file.
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "receipt", buildConfiguration: .release)) == .production)
    }

    @Test func sandboxReceiptIsSandbox() {
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "sandboxReceipt", buildConfiguration: .release)) == .sandbox)
    }

    @Test func simulatorAndDebugBuildsAreDebug() {
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "receipt", isSimulator: true, buildConfiguration: .release)) == .debug)
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "sandboxReceipt", buildConfiguration: .debug)) == .debug)
    }

    /// The facts read from the process the tests run in: this build's own
    /// configuration, and no simulator outside one (a device or a Mac is
    /// never reported as a simulator, which would mark its events debug).
    @Test func theRunningProcessIsDescribedAsItIs() {
        let facts = EnvironmentFacts.current()
        #if targetEnvironment(simulator)
        #expect(facts.isSimulator)
        #else
        #expect(!facts.isSimulator)
        #endif
        #if DEBUG
        #expect(facts.buildConfiguration == .debug)
        #else
        #expect(facts.buildConfiguration == .release)
        #endif
    }

    @Test func ambiguousFactsAreProduction() {
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: nil)) == .production)
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: "weird", buildConfiguration: .unknown)) == .production)
        #expect(EnvironmentClassifier.classify(EnvironmentFacts(receiptName: nil, buildConfiguration: .release)) == .production)
    }
}

struct EventValidatorTests {
    let validator = EventValidator()

    @Test func acceptsContractNamesAndKeys() {
        #expect(EventValidator.isValidIdentifier("a"))
        #expect(EventValidator.isValidIdentifier("financial_card_activated_2"))
        #expect(EventValidator.isValidIdentifier("a" + String(repeating: "b", count: 63)))
    }

    @Test(arguments: ["", "Card", "1abc", "_x", "card-activated", "cart activated", "ação", "a" + String(repeating: "b", count: 64)])
    func rejectsNamesOutsideThePattern(name: String) {
        #expect(validator.filter(name: name, properties: [:]) == .failure(.invalidName(name)))
    }

    @Test func rejectsBadKeysNonFiniteNumbersAndLongStrings() {
        #expect(validator.filter(name: "e", properties: ["Bad Key": 1]) == .failure(.invalidKey("Bad Key")))
        #expect(validator.filter(name: "e", properties: ["x": .double(.nan)]) == .failure(.nonFiniteNumber(key: "x")))
        #expect(validator.filter(name: "e", properties: ["x": .double(-.infinity)]) == .failure(.nonFiniteNumber(key: "x")))
        let long = String(repeating: "é", count: 513)
        #expect(validator.filter(name: "e", properties: ["x": .string(long)]) == .failure(.stringTooLong(key: "x", bytes: 1026)))
        let atTheLimit = String(repeating: "a", count: 1024)
        #expect(validator.filter(name: "e", properties: ["x": .string(atTheLimit)]) == .success(.init(properties: ["x": .string(atTheLimit)], strippedKeys: [])),
                "1,024 bytes is within the limit")
    }

    @Test func stripsEveryDefaultForbiddenKey() {
        var properties: EventProperties = ["plan": "pro"]
        for key in ForbiddenKeys.defaults { properties[key] = "secret" }
        let result = validator.filter(name: "e", properties: properties)
        #expect(result == .success(.init(properties: ["plan": "pro"], strippedKeys: ForbiddenKeys.defaults.sorted())))
    }
}
