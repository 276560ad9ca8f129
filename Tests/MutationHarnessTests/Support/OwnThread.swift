import Foundation
import Testing

/// Runs each test of a suite on threads of its own, at most `slots` such
/// tests at once.
///
/// Swift Testing runs every test on the cooperative thread pool, which has
/// one thread per processor. A test that blocks (waits for a child process,
/// a build, a lock, a sleep) holds one of those threads for as long as it
/// waits: on a 2-core machine two such tests stop every other test of the
/// run, and the whole suite went quiet for 40-60 s while all its quick tests
/// waited. These tests block by design (they run the harness, which is
/// synchronous, and real builds), so they run off the pool; the limit keeps
/// as many of them at once as there were before, one per processor.
struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // The suite's own scope holds no slot: its tests each take one.
        guard testCase != nil else { return try await function() }
        await Self.slots.take()
        do {
            try await withTaskExecutorPreference(ThreadPerJob()) { try await function() }
        } catch {
            await Self.slots.give()
            throw error
        }
        await Self.slots.give()
    }

    static let slots = Slots(2 * max(2, ProcessInfo.processInfo.activeProcessorCount))
}

extension Trait where Self == OwnThread {
    /// Each test on threads of its own, off the cooperative pool (`OwnThread`).
    static var ownThread: Self { OwnThread() }
}

/// Starts a thread for every job it is given: a job that blocks holds
/// only its own thread.
final class ThreadPerJob: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// A count of free slots that a task waits for without holding a thread.
actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
