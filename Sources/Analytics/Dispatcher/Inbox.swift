import Foundation

/// What the app handed the SDK and the worker has not processed yet, in
/// call order. `track` appends a value (no closure per event) and the
/// worker takes everything at once, so a burst costs one hand-off.
///
/// The inbox is bounded: past `capacity` waiting events, the oldest waiting
/// event is dropped and counted (the same rule as the queue's cap), so a
/// burst of `track` calls cannot grow memory without limit and `track` never
/// waits. The worker reports the exact count.
///
/// `@unchecked`: the invariant below (every `var` only under `lock`) is
/// what makes it safe; a `Locked` box would cost a closure per `track`.
final class Inbox: @unchecked Sendable {
    enum Work {
        case track(name: String, properties: EventProperties, id: UUID, stamp: Stamp)
        case other(@Sendable () -> Void)
    }

    // Invariant: every stored property below is read and written only while
    // `lock` is held.
    private let lock = NSLock()
    private var items: [Work] = []
    private var head = 0

    /// Items the storage holds, those already handed out included: what
    /// compaction keeps bounded.
    var heldCount: Int { lock.withLock { items.count } }
    private var tracked = 0
    private var dropped = 0
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Adds `work`; true when the inbox was empty, so the caller must
    /// schedule a drain.
    func add(_ work: Work) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let wasEmpty = head == items.count
        if case .track = work {
            if tracked >= capacity, dropOldestTrack() { dropped += 1 } else { tracked += 1 }
        }
        items.append(work)
        return wasEmpty
    }

    /// Up to `limit` of the oldest waiting items, in order, and how many
    /// events were dropped since the last call. Taking a slice at a time
    /// keeps what the worker holds small while the inbox fills again.
    func take(limit: Int = 1024) -> (work: [Work], dropped: Int) {
        lock.lock()
        defer { lock.unlock() }
        let end = min(items.count, head + limit)
        let work = Array(items[head..<end])
        for item in work { if case .track = item { tracked -= 1 } }
        head = end
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 4096)
            head = 0
        } else {
            compact()
        }
        let count = dropped
        dropped = 0
        return (work, count)
    }

    private func compact() {
        if head > 4096, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    /// Drops the oldest waiting event: at the head in a burst of tracks
    /// (cheap), after a few other items otherwise.
    private func dropOldestTrack() -> Bool {
        guard let oldest = items[head...].firstIndex(where: { if case .track = $0 { true } else { false } }) else { return false }
        if oldest == head {
            head += 1
            compact()
        } else {
            items.remove(at: oldest)
        }
        return true
    }
}
