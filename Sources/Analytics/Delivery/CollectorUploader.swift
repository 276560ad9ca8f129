import AnalyticsSupport
import Foundation

/// The first-party provider: queues each event in the persistent queue and
/// delivers batches to the collector as `DeliveryMachine` decides.
///
/// Confined to the SDK's work scheduler: every method runs there.
final class CollectorUploader: AnalyticsProvider, @unchecked Sendable {
    /// The collector answers 413 above 512 KiB; a request stays below this.
    static let maximumBatchBytes = 500 * 1024
    /// One event may use at most this much of a batch.
    static let maximumEventBytes = 64 * 1024

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
    private var queue: any EventQueue
    private let capacity: Int
    private var machine: DeliveryMachine
    private var timer: (any ScheduledWork)?
    private var timerGeneration = 0
    private var stopped = false
    /// Events received but not yet written: written together by one
    /// transaction that runs after the work already handed to the scheduler
    /// (group commit), so a burst of `track` calls costs one disk write.
    private var pending: [QueuedEvent] = []
    /// The last context and its bytes: it changes only with the network.
    private var encodedContext: (context: EventContext?, bytes: [UInt8]) = (nil, [])
    private var commitScheduled = false

    init(url: URL, encoder: BatchEncoder, queue: any EventQueue, capacity: Int, policy: DeliveryMachine.Policy,
         uploadsAllowed: Bool, dependencies: Dependencies)
    {
        self.url = url
        self.encoder = encoder
        self.queue = queue
        self.capacity = capacity
        self.dependencies = dependencies
        self.machine = DeliveryMachine(policy: policy, uploadsAllowed: uploadsAllowed)
    }

    /// Events left by an earlier process go out on the usual rules.
    func resume() {
        apply(machine.eventsQueued(count: queue.count, oldestAge: oldestAge()))
    }

    func receive(_ event: TrackedEvent) {
        if event.context != encodedContext.context {
            encodedContext = (event.context, event.context.wireBytes)
        }
        let queued = QueuedEvent(id: event.eventID.wireString, timestamp: event.timestamp,
                                 payload: event.wireBytes(contextBytes: encodedContext.bytes))
        guard queued.payload.count <= Self.maximumEventBytes else {
            return dependencies.report(.eventRejected(name: event.name, reason: .eventTooLarge(bytes: queued.payload.count)))
        }
        pending.append(queued)
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
        let dropped: Int
        do {
            dropped = try queue.append(events)
        } catch {
            fallBackToMemory(after: error)
            dropped = (try? queue.append(events)) ?? 0
        }
        if dropped > 0 { dependencies.report(.queueOverflow(dropped: dropped)) }
        apply(machine.eventsQueued(count: queue.count, oldestAge: oldestAge()))
    }

    func flush() {
        commitPending()
        apply(machine.flushRequested(count: queue.count))
    }

    func purge() {
        pending.removeAll()
        do { try queue.removeAll() } catch { dependencies.report(.storageUnavailable(reason: "\(error)")) }
    }

    func uploadsAllowedChanged(_ allowed: Bool) {
        commitPending()
        apply(machine.uploadsAllowedChanged(allowed, count: queue.count))
    }

    /// Flushes what is queued, then schedules nothing more.
    func stop() {
        flush()
        stopped = true
        machine.stopped()
        cancelTimer()
    }

    private func apply(_ action: DeliveryMachine.Action) {
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
            timer = dependencies.scheduler.schedule(after: delay) { [self] in
                dependencies.scheduler.execute { [self] in
                    guard generation == timerGeneration else { return }
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
        let peeked: [QueuedEvent]
        do {
            peeked = try queue.peek(limit: limit)
        } catch {
            fallBackToMemory(after: error)
            peeked = []
        }
        let batch = Self.fitting(peeked, within: Self.maximumBatchBytes)
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

    /// The database stopped answering: what it holds stays on disk for the
    /// next launch; this process carries on in memory, and says so.
    private func fallBackToMemory(after error: any Error) {
        dependencies.report(.storageUnavailable(reason: "\(error)"))
        queue = MemoryEventQueue(capacity: capacity)
    }

    /// The longest prefix of `events` whose payloads fit in `budget` bytes
    /// (never fewer than one event).
    static func fitting(_ events: [QueuedEvent], within budget: Int) -> [QueuedEvent] {
        var used = 512 // the envelope: app id, install id, sent_at
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
        do {
            switch outcome {
            case .delivered:
                try queue.remove(batch)
            case .dropBatch(let reason):
                try queue.remove(batch)
                dependencies.report(.batchDropped(events: batch.count, reason: reason))
            case .dropEvents(let indices):
                try queue.remove(indices.map { batch[$0] })
                dependencies.report(.eventsDroppedByCollector(count: indices.count))
            case .split, .retry:
                break
            }
        } catch {
            dependencies.report(.storageUnavailable(reason: "\(error)"))
        }
        apply(machine.batchFinished(outcome, sentCount: batch.count, count: queue.count, oldestAge: oldestAge(), jitter: dependencies.jitter()))
    }

    private func oldestAge() -> Duration {
        guard let oldest = try? queue.oldestTimestamp() else { return .zero }
        return .milliseconds(max(0, EpochMilliseconds.of(dependencies.clock.now()) - oldest))
    }
}
