/// One event waiting for delivery.
struct QueuedEvent: Equatable, Sendable {
    /// The event id as sent on the wire.
    var id: String
    /// Unix epoch milliseconds at `track`.
    var timestamp: Int64
    /// The event object's JSON bytes, exactly as it goes into a batch.
    var payload: [UInt8]
}

/// The events not yet accepted by the collector, oldest first.
///
/// Implementations are confined to the SDK's work scheduler.
protocol EventQueue: AnyObject {
    /// Number of events waiting.
    var count: Int { get }
    /// Appends an event; returns how many of the oldest were dropped to keep
    /// the queue within its cap.
    func append(_ event: QueuedEvent) throws -> Int
    /// The oldest `limit` events, oldest first.
    func peek(limit: Int) throws -> [QueuedEvent]
    /// Removes the events with these ids.
    func remove(ids: [String]) throws
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

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { events.count }

    func append(_ event: QueuedEvent) -> Int {
        events.append(event)
        let overflow = max(0, events.count - capacity)
        events.removeFirst(overflow)
        return overflow
    }

    func peek(limit: Int) -> [QueuedEvent] { Array(events.prefix(limit)) }

    func remove(ids: [String]) {
        let doomed = Set(ids)
        events.removeAll { doomed.contains($0.id) }
    }

    func removeAll() { events.removeAll() }

    func oldestTimestamp() -> Int64? { events.first?.timestamp }
}
