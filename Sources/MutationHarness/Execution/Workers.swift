import Foundation

/// Work shared out to threads of its own: each worker takes the next item
/// when it is free. Real threads, not the dispatch pool's: `--jobs 2` means
/// two at once whatever else the process is doing (a pool busy elsewhere
/// may run `concurrentPerform`'s iterations one after another).
enum Workers {
    /// Runs `body(item, worker)` for every item in `0..<items` on up to
    /// `workers` threads, and on up to `spare.count` more that each take an
    /// item only when `spare.admit()` says so, and returns once all have
    /// stopped. Workers are numbered from 0, the spare ones after the
    /// others. The first error stops the workers from taking more items
    /// (each finishes its own) and is thrown.
    static func run(items: Int, workers: Int, spare: SpareWorkers? = nil,
                    _ body: @escaping @Sendable (_ item: Int, _ worker: Int) throws -> Void) throws
    {
        let next = Locked(0)
        let failure = Locked<(any Error)?>(nil)
        let group = DispatchGroup()
        let fixed = max(1, min(workers, items))
        for worker in 0..<(fixed + (spare?.count ?? 0)) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                while true {
                    if worker >= fixed, let spare {
                        // Items left and no error yet, or it stops (a spare worker never admitted included).
                        let more = next.withLock { $0 < items } && failure.value == nil
                        guard more else { return }
                        guard spare.admit() else {
                            spare.wait(spare.poll)
                            continue
                        }
                    }
                    let item: Int? = next.withLock { value in
                        guard value < items, failure.value == nil else { return nil }
                        value += 1
                        return value - 1
                    }
                    guard let item else { return }
                    do {
                        try body(item, worker)
                    } catch {
                        failure.withLock { $0 = $0 ?? error }
                    }
                }
            }
            // As deep as the main thread's: the workers parse reports and profiles.
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        if let error = failure.value { throw error }
    }
}

/// Workers beyond the fixed ones (`Workers.run`): each takes an item only
/// when `admit` says the machine has room (`SpareCores`), and asks again
/// every `poll` seconds (`wait`: tests count them) until the items run out.
struct SpareWorkers: Sendable {
    var count: Int
    var admit: @Sendable () -> Bool
    var poll: Double = 0.1
    var wait: @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
}
