import AnalyticsSupport
import Foundation

/// The first-party provider: queues each event in the persistent queue and
/// delivers batches to the collector as `DeliveryMachine` decides.
///
/// `@unchecked`: confined to the SDK's serial work scheduler; every method
/// runs there, so its `var`s are never touched by two threads at once.
final class CollectorUploader: @unchecked Sendable {
    struct Dependencies {
        var transport: any Transport
        var clock: any AnalyticsClock
        var scheduler: any WorkScheduler
        var jitter: Jitter
        var report: @Sendable (AnalyticsDiagnostic) -> Void
    }

    private let url: URL
    private let encoder: BatchEncoder
    private let dependencies: Dependencies
    private let queue: ResilientQueue
    private var machine: DeliveryMachine
    private var timer: (any ScheduledWork)?
    private var timerGeneration = 0
    private var stopped = false
    /// Events received but not yet written: written together by one
    /// transaction that runs after the work already handed to the scheduler
    /// (group commit), so a burst of `track` calls costs one disk write.
    private var pending: [QueuedEvent] = []
    /// The last context and its bytes: it changes only with the network.
    private var commitScheduled = false
    /// At most this many received events wait for the group commit: a long
    /// burst is written in slices, so a crash loses at most this many.
    static let maximumPending = 256
    /// Called once the uploader has nothing in flight (awaitable flush and stop).
    private var idleWaiters: [() -> Void] = []
    /// The kind of delivery trouble last reported, until delivery works again.
    private var trouble: String?

    init(url: URL, encoder: BatchEncoder, queue: ResilientQueue, policy: DeliveryMachine.Policy,
         uploadsAllowed: Bool, dependencies: Dependencies)
    {
        self.url = url
        self.encoder = encoder
        self.queue = queue
        self.dependencies = dependencies
        self.machine = DeliveryMachine(policy: policy, uploadsAllowed: uploadsAllowed)
    }

    /// Events left by an earlier process go out on the usual rules.
    func resume() {
        apply(machine.eventsQueued(count: queue.count, oldestAge: oldestAge()))
    }

    /// Queues an event the dispatcher has encoded (and size-checked) already.
    func receive(_ event: TrackedEvent, encoded: [UInt8]) {
        let queued = QueuedEvent(id: event.eventID.wireString, timestamp: event.timestamp, payload: encoded)
        pending.append(queued)
        if pending.count >= Self.maximumPending { return commitPending() }
        guard !commitScheduled else { return }
        commitScheduled = true
        dependencies.scheduler.execute { [self] in commitPending() }
    }

    /// Writes the pending events, then lets the machine decide.
    private func commitPending() {
        commitScheduled = false
        guard !pending.isEmpty else { return }
        let events = pending
        pending.removeAll()
        let dropped = queue.append(events)
        if dropped > 0 { dependencies.report(.queueOverflow(dropped: dropped)) }
        apply(machine.eventsQueued(count: queue.count, oldestAge: oldestAge()))
    }

    func flush() {
        commitPending()
        apply(machine.flushRequested(count: queue.count))
    }

    /// Flushes, then calls `done` once nothing is in flight: every event
    /// received so far is on disk (or in memory, if the disk failed) and the
    /// upload attempts the flush started have finished, delivered or kept
    /// for retry.
    func flush(then done: @escaping () -> Void) {
        flush()
        idleWaiters.append(done)
        notifyIfIdle()
    }

    private func notifyIfIdle() {
        guard machine.phase != .sending, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        waiters.forEach { $0() }
    }

    func purge() {
        pending.removeAll()
        do {
            try queue.removeAll()
        } catch {
            dependencies.report(.storageUnavailable(reason: "the opt-out could not empty the queue on disk: \(error)"))
        }
    }

    func uploadsAllowedChanged(_ allowed: Bool) {
        commitPending()
        apply(machine.uploadsAllowedChanged(allowed, count: queue.count))
    }

    /// Flushes what is queued, then schedules nothing more; `done` runs
    /// once the last upload attempt has finished.
    func stop(then done: @escaping () -> Void = {}) {
        flush()
        stopped = true
        machine.stopped()
        cancelTimer()
        idleWaiters.append(done)
        notifyIfIdle()
    }

    private func apply(_ action: DeliveryMachine.Action) {
        defer { notifyIfIdle() }
        switch action {
        case .none:
            break
        case .send(let limit):
            cancelTimer()
            send(limit: limit)
        case .armTimer(let delay):
            cancelTimer()
            guard !stopped else { return }
            let generation = timerGeneration
            // Weak: a cancelled timer stays with the dispatch queue until its
            // deadline, and must not keep a stopped uploader (and its open
            // database) alive that long.
            let scheduler = dependencies.scheduler
            timer = scheduler.schedule(after: delay) { [weak self] in
                scheduler.execute { [weak self] in
                    guard let self, generation == timerGeneration else { return }
                    timer = nil
                    apply(machine.timerFired(count: queue.count))
                }
            }
        }
    }

    private func cancelTimer() {
        timerGeneration += 1
        timer?.cancel()
        timer = nil
    }

    private func send(limit: Int) {
        let batch = Self.fitting(queue.peek(limit: limit), within: WireContract.requestBudgetBytes)
        guard !batch.isEmpty else {
            return apply(machine.batchFinished(.delivered, sentCount: 0, count: queue.count, oldestAge: oldestAge(), jitter: 0))
        }
        let sentAt = EpochMilliseconds.of(dependencies.clock.now())
        let request = TransportRequest(
            url: url, method: "POST", headers: ["Content-Type": "application/json"],
            body: encoder.body(events: batch, sentAt: sentAt)
        )
        dependencies.transport.send(request) { [self] result in
            dependencies.scheduler.execute { [self] in finish(batch, result: result) }
        }
    }

    /// The longest prefix of `events` whose payloads fit in `budget` bytes
    /// (never fewer than one event).
    static func fitting(_ events: [QueuedEvent], within budget: Int) -> [QueuedEvent] {
        var used = WireContract.envelopeAllowanceBytes
        var count = 0
        for event in events {
            used += event.payload.count + 1
            if used > budget && count > 0 { break }
            count += 1
        }
        return Array(events.prefix(count))
    }

    private func finish(_ batch: [QueuedEvent], result: Result<TransportResponse, NetworkFailure>) {
        let outcome = ResponsePolicy.outcome(of: result, batchSize: batch.count)
        switch outcome {
        case .delivered:
            queue.remove(batch)
        case .dropBatch(let reason):
            queue.remove(batch)
            dependencies.report(.batchDropped(events: batch.count, reason: reason))
        case .dropEvents(let indices):
            queue.remove(indices.map { batch[$0] })
            dependencies.report(.eventsDroppedByCollector(count: indices.count))
        case .split, .retry:
            break
        }
        reportTrouble(result, outcome: outcome)
        apply(machine.batchFinished(outcome, sentCount: batch.count, count: queue.count, oldestAge: oldestAge(), jitter: dependencies.jitter()))
    }

    /// The first failure of a kind, then a recovery: never one per retry.
    private func reportTrouble(_ result: Result<TransportResponse, NetworkFailure>, outcome: DeliveryOutcome) {
        guard let kind = DeliveryTrouble.kind(of: result, outcome: outcome) else {
            if trouble != nil, outcome == .delivered {
                trouble = nil
                dependencies.report(.deliveryRecovered)
            }
            return
        }
        guard kind != trouble else { return }
        trouble = kind
        dependencies.report(.deliveryFailing(reason: DeliveryTrouble.explanation(of: result, url: url)))
    }

    private func oldestAge() -> Duration {
        guard let oldest = queue.oldestTimestamp() else { return .zero }
        return .milliseconds(max(0, EpochMilliseconds.of(dependencies.clock.now()) - oldest))
    }
}
