/// One event waiting for delivery.
package struct QueuedEvent: Equatable, Sendable {
    /// The event id as sent on the wire.
    package var id: String
    /// Unix epoch milliseconds at `track`.
    package var timestamp: Int64
    /// The event object's JSON bytes, exactly as it goes into a batch.
    package var payload: [UInt8]
    /// Position in the queue, set by the queue (0 until stored).
    package var sequence: Int64

    package init(id: String, timestamp: Int64, payload: [UInt8], sequence: Int64 = 0) {
        self.id = id
        self.timestamp = timestamp
        self.payload = payload
        self.sequence = sequence
    }
}

/// The events not yet accepted by the collector, oldest first.
///
/// Implementations are confined to the SDK's work scheduler.
protocol EventQueue: AnyObject {
    /// Number of events waiting.
    var count: Int { get }
    /// Appends events (in one transaction); returns how many of the oldest
    /// were dropped to keep the queue within its cap.
    func append(_ events: [QueuedEvent]) throws -> Int
    /// The oldest `limit` events, oldest first.
    func peek(limit: Int) throws -> [QueuedEvent]
    /// Removes these events (as returned by `peek`).
    func remove(_ events: [QueuedEvent]) throws
    /// Removes every event (opt-out).
    func removeAll() throws
    /// The timestamp of the oldest waiting event.
    func oldestTimestamp() throws -> Int64?
}

/// The fallback when no database can be opened: same behaviour, no
/// persistence across launches. Delivered batches leave from the head, so
/// removal advances a head index instead of shifting the array.
final class MemoryEventQueue: EventQueue {
    private var events: [QueuedEvent] = []
    private var head = 0
    private let capacity: Int
    private var nextSequence: Int64

    /// `firstSequence` keeps its sequences apart from another queue's.
    init(capacity: Int, firstSequence: Int64 = 1) {
        self.capacity = capacity
        nextSequence = firstSequence
    }

    var count: Int { events.count - head }

    /// Events the array holds, delivered ones before `head` included: what
    /// compaction keeps bounded.
    var heldCount: Int { events.count }

    func append(_ newEvents: [QueuedEvent]) -> Int {
        for var event in newEvents {
            event.sequence = nextSequence
            nextSequence += 1
            events.append(event)
        }
        let overflow = max(0, count - capacity)
        head += overflow
        compact()
        return overflow
    }

    func peek(limit: Int) -> [QueuedEvent] { Array(events[head..<min(events.count, head + limit)]) }

    func remove(_ removed: [QueuedEvent]) {
        let doomed = Set(removed.map(\.sequence))
        var leading = 0
        while head + leading < events.count, doomed.contains(events[head + leading].sequence) { leading += 1 }
        head += leading
        if leading < doomed.count {
            // Some were not at the head (the collector named bad events, or
            // the cap already dropped some): filter what is left.
            events = Array(events[head...].filter { !doomed.contains($0.sequence) })
            head = 0
        }
        compact()
    }

    func removeAll() {
        events.removeAll()
        head = 0
    }

    func oldestTimestamp() -> Int64? { head < events.count ? events[head].timestamp : nil }

    private func compact() {
        guard head > 1024, head * 2 > events.count else { return }
        events.removeFirst(head)
        head = 0
    }
}
