@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

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

    /// docs/delivery.md: the backoff counts consecutive failures, so a
    /// delivery in between starts it over at its first step.
    @Test func aDeliveryStartsTheBackoffOver() {
        var machine = DeliveryMachine()
        func failed() -> DeliveryMachine.Action {
            machine.batchFinished(.retry(retryAfterSeconds: nil), sentCount: 25, count: 25, oldestAge: .zero, jitter: 0)
        }
        #expect(machine.eventsQueued(count: 25, oldestAge: .zero) == .send(limit: 25))
        #expect(failed() == .armTimer(after: .seconds(4)))
        #expect(machine.timerFired(count: 25) == .send(limit: 25))
        #expect(failed() == .armTimer(after: .seconds(8)))
        #expect(machine.timerFired(count: 25) == .send(limit: 25))
        #expect(machine.batchFinished(.delivered, sentCount: 25, count: 0, oldestAge: .zero, jitter: 0) == .none)
        #expect(machine.eventsQueued(count: 25, oldestAge: .zero) == .send(limit: 25))
        #expect(failed() == .armTimer(after: .seconds(4)), "the first step again, not the third")
    }

    @Test func offlineAgainWhileOfflineSendsNothing() {
        var machine = DeliveryMachine(uploadsAllowed: false)
        #expect(machine.uploadsAllowedChanged(false, count: 30) == .none, "still no network: nothing can go out")
        #expect(machine.uploadsAllowedChanged(true, count: 30) == .send(limit: 25))
    }
}
