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
/// persistence across launches.
final class MemoryEventQueue: EventQueue {
    private var events: [QueuedEvent] = []
    private let capacity: Int
    private var nextSequence: Int64 = 1

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { events.count }

    func append(_ newEvents: [QueuedEvent]) -> Int {
        for var event in newEvents {
            event.sequence = nextSequence
            nextSequence += 1
            events.append(event)
        }
        let overflow = max(0, events.count - capacity)
        events.removeFirst(overflow)
        return overflow
    }

    func peek(limit: Int) -> [QueuedEvent] { Array(events.prefix(limit)) }

    func remove(_ removed: [QueuedEvent]) {
        let doomed = Set(removed.map(\.sequence))
        events.removeAll { doomed.contains($0.sequence) }
    }

    func removeAll() { events.removeAll() }

    func oldestTimestamp() -> Int64? { events.first?.timestamp }
}
