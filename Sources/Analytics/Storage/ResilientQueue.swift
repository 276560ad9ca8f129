/// The queue the uploader works with: the SQLite queue while it answers,
/// memory while it does not, and no event lost or confused between the two.
///
/// - Writes that fail (database locked by another process, disk full) go to
///   memory; the disk is tried again `retryInterval` later, and what waited
///   in memory moves to disk first, so order is kept.
/// - Memory sequences start at `memoryBase`, far above any SQLite sequence,
///   so removing a batch that was read from disk never touches a memory
///   event (and the other way round).
/// - A delivered batch whose delete cannot be committed leaves the queue's
///   view at once (a tombstone); the delete is tried again with the next
///   one. Only a later launch can send it again (the collector drops the
///   repeat by `event_id`).
/// - A disk that can no longer be read is left alone: what it holds stays
///   for the next launch.
///
/// Confined to the SDK's work scheduler.
final class ResilientQueue {
    static let memoryBase: Int64 = 1 << 62

    private let disk: SQLiteEventQueue?
    private let memory: MemoryEventQueue
    private var tombstones: Set<Int64> = []
    private var diskWritable: Bool
    private var diskReadable: Bool
    private var lastWriteFailure: Duration?
    private let retryInterval: Duration
    private let uptime: () -> Duration
    private let report: (AnalyticsDiagnostic) -> Void

    init(disk: SQLiteEventQueue?, capacity: Int, retryInterval: Duration = .seconds(5), uptime: @escaping () -> Duration,
         report: @escaping (AnalyticsDiagnostic) -> Void)
    {
        self.disk = disk
        memory = MemoryEventQueue(capacity: capacity, firstSequence: Self.memoryBase)
        diskWritable = disk != nil
        diskReadable = disk != nil
        self.retryInterval = retryInterval
        self.uptime = uptime
        self.report = report
    }

    /// Events waiting, on disk (less tombstones) and in memory.
    var count: Int {
        (diskReadable ? max(0, (disk?.count ?? 0) - tombstones.count) : 0) + memory.count
    }

    /// Whether new events reach the disk now.
    var isPersisting: Bool { diskWritable }

    /// Appends the events; returns how many of the oldest were dropped to keep the cap.
    func append(_ events: [QueuedEvent]) -> Int {
        if let disk, diskWritable || retryIsDue {
            let waiting = memory.peek(limit: memory.count)
            do {
                let dropped = try disk.append(waiting + events)
                memory.removeAll()
                if !diskWritable {
                    diskWritable = true
                    report(.storageRecovered)
                }
                return dropped
            } catch {
                lastWriteFailure = uptime()
                if diskWritable {
                    diskWritable = false
                    report(.storageUnavailable(reason: "\(error)"))
                }
            }
        }
        return memory.append(events)
    }

    /// The oldest `limit` events: from disk first (they are older), then memory.
    func peek(limit: Int) -> [QueuedEvent] {
        var result: [QueuedEvent] = []
        if let disk, diskReadable {
            do {
                result = Array(try disk.peek(limit: limit + tombstones.count).filter { !tombstones.contains($0.sequence) }.prefix(limit))
            } catch {
                diskReadable = false
                report(.storageUnavailable(reason: "the queue can no longer be read; what it holds stays for the next launch: \(error)"))
            }
        }
        if result.count < limit { result += memory.peek(limit: limit - result.count) }
        return result
    }

    /// Removes delivered or dropped events from wherever they are.
    func remove(_ events: [QueuedEvent]) {
        let inMemory = events.filter { $0.sequence >= Self.memoryBase }
        if !inMemory.isEmpty { memory.remove(inMemory) }
        let onDisk = events.filter { $0.sequence < Self.memoryBase }.map(\.sequence)
        guard let disk, !(onDisk.isEmpty && tombstones.isEmpty) else { return }
        let doomed = tombstones.union(onDisk)
        // While writes fail, do not wait on the disk for every batch.
        guard diskWritable || retryIsDue else {
            tombstones = doomed
            return
        }
        do {
            try disk.remove(doomed.map { QueuedEvent(id: "", timestamp: 0, payload: [], sequence: $0) })
            tombstones.removeAll()
        } catch {
            lastWriteFailure = uptime()
            if diskWritable {
                diskWritable = false
                report(.storageUnavailable(reason: "delivered events cannot be deleted from the queue; they are set aside for this run: \(error)"))
            }
            tombstones = doomed
        }
    }

    /// Removes every event (opt-out).
    func removeAll() throws {
        memory.removeAll()
        try disk?.removeAll()
        tombstones.removeAll()
    }

    /// The timestamp of the oldest waiting event.
    func oldestTimestamp() -> Int64? {
        peek(limit: 1).first?.timestamp
    }

    private var retryIsDue: Bool {
        guard let lastWriteFailure else { return true }
        return uptime() - lastWriteFailure >= retryInterval
    }
}
