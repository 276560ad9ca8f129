import Foundation
import Testing
@testable import MutationHarness

/// Samples handed out in turn (the last one again once they run out); how
/// many times it was read.
private final class ScriptedTimes: ProcessorTimes, @unchecked Sendable {
    private let state: Locked<(samples: [ProcessorSample?], reads: Int)>

    init(_ samples: [ProcessorSample?]) { state = Locked((samples, 0)) }

    var reads: Int { state.value.reads }

    func sample() -> ProcessorSample? {
        state.withLock { state in
            defer { state.reads += 1 }
            return state.samples[min(state.reads, state.samples.count - 1)]
        }
    }
}

/// A clock that moves only when told.
private final class StepClock: @unchecked Sendable {
    private let time = Locked(Date(timeIntervalSince1970: 1_000))
    var now: Date { time.value }
    func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
}

struct SpareCoresTests {
    private func sample(busy: UInt64, idle: UInt64, cores: Int = 2) -> ProcessorSample {
        ProcessorSample(busy: busy, idle: idle, cores: cores)
    }

    /// One core's worth of time unused since the last look lets one process
    /// in; less does not. The first look only starts the count.
    @Test func aProcessIsLetInOnlyWhenOneCoresWorthOfTimeWentUnused() {
        let times = ScriptedTimes([
            sample(busy: 0, idle: 0),
            sample(busy: 100, idle: 100),   // half of two cores idle: one core
            sample(busy: 201, idle: 199),   // a little less than one core
            sample(busy: 201, idle: 399),   // all idle
        ])
        let clock = StepClock()
        let cores = SpareCores(times: times, interval: 0.5, now: { clock.now })
        #expect(!cores.admit(), "the first look has nothing to compare with")
        clock.advance(0.5)
        #expect(cores.admit())
        let one = ScriptedTimes([sample(busy: 7, idle: 7), sample(busy: 7, idle: 8)])
        let fine = SpareCores(times: one, interval: 0.5, now: { clock.now })
        _ = fine.admit()
        clock.advance(0.5)
        #expect(fine.admit(), "one tick, idle")
        clock.advance(0.5)
        #expect(!cores.admit(), "99 of 200 ticks idle on two cores is under one core")
        clock.advance(0.5)
        #expect(cores.admit())
    }

    /// A look sooner than the interval after the last says no without
    /// reading the times: a process just let in has not shown its load yet.
    @Test func aLookWithinTheIntervalSaysNoAndReadsNothing() {
        let times = ScriptedTimes([sample(busy: 0, idle: 0), sample(busy: 0, idle: 1_000)])
        let clock = StepClock()
        let cores = SpareCores(times: times, interval: 0.5, now: { clock.now })
        _ = cores.admit()
        clock.advance(0.49)
        #expect(!cores.admit() && times.reads == 1)
        clock.advance(0.01)
        #expect(cores.admit() && times.reads == 2)
        #expect(!cores.admit() && times.reads == 2, "the admission starts a new interval")
    }

    /// Times that cannot be read, that went backwards (a counter reset), or
    /// that did not move let nothing in.
    @Test func timesUnreadableBackwardsOrStillLetNothingIn() {
        let clock = StepClock()
        for samples in [
            [nil, nil],
            [sample(busy: 100, idle: 500), sample(busy: 50, idle: 900)],
            [sample(busy: 100, idle: 500), sample(busy: 200, idle: 400)],
            [sample(busy: 100, idle: 500), sample(busy: 100, idle: 500)],
        ] as [[ProcessorSample?]] {
            let cores = SpareCores(times: ScriptedTimes(samples), interval: 0.5, now: { clock.now })
            _ = cores.admit()
            clock.advance(1)
            #expect(!cores.admit(), "\(samples)")
        }
    }

    /// There are spare workers only when some are asked for and the
    /// machine's times can be read.
    @Test func spareWorkersExistOnlyWhereTheTimesCanBeRead() {
        let readable = ScriptedTimes([sample(busy: 1, idle: 1)])
        #expect(SpareWorkers.whileCoresIdle(count: 6, times: readable)?.count == 6)
        #expect(SpareWorkers.whileCoresIdle(count: 1, times: readable)?.count == 1)
        #expect(SpareWorkers.whileCoresIdle(count: 0, times: readable) == nil)
        #expect(SpareWorkers.whileCoresIdle(count: 6, times: ScriptedTimes([nil])) == nil)
    }
}

struct ProcStatTests {
    private let text = """
        cpu  4705 150 1120 16250 520 0 45 7 0 0
        cpu0 2355 75 560 8125 260 0 22 3 0 0
        cpu1 2350 75 560 8125 260 0 23 4 0 0
        intr 114930548 113199788 3 0 5 263 0 4 [...]
        ctxt 1990473

        """

    /// Busy is user, nice, system, irq, softirq and steal; idle is idle and
    /// iowait; the cores are the `cpuN` lines.
    @Test func theFirstLineGivesBusyAndIdleTimeAndTheCpuLinesTheCores() {
        #expect(ProcStat.parse(text) == ProcessorSample(busy: 4705 + 150 + 1120 + 45 + 7, idle: 16250 + 520, cores: 2))
        #expect(ProcStat.parse("cpu  1 2 3 4\ncpu0 1 2 3 4\n") == ProcessorSample(busy: 6, idle: 4, cores: 1), "an old kernel's four fields")
        #expect(ProcStat.parse("cpu  1 2 3 4\ncpu0 1 2 3 4\nnet9 1 2\ncpux 1\n")?.cores == 1, "only `cpu` and a number name a core")
    }

    /// No totals line first (a file that begins with a core's own line
    /// included), a field that is not a number, fewer than four, no core.
    @Test(arguments: ["", "intr 1 2\n", "cpu0 1 2 3 4\ncpu1 1 2 3 4\n", "cpu  1 2 x 4 5\ncpu0 1 2 3 4 5\n", "cpu  1 2 3\ncpu0 1 2 3\n",
                      "cpu  1 2 3 4\n"])
    func aFileOfAnotherShapeIsNotRead(text: String) {
        #expect(ProcStat.parse(text) == nil)
    }

    /// A cgroup that caps the processor time, or a file that counts other
    /// processors than this process may use (a container seeing its host's),
    /// says nothing of this run's share: nil.
    @Test func aCappedOrForeignCountOfProcessorsIsNotRead() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("stat", text)
        try scratch.write("unlimited", "max 100000\n")
        try scratch.write("capped", "200000 100000\n")
        try scratch.write("empty", "")
        func stat(limit: String, cores: Int) -> ProcStat {
            ProcStat(statPath: scratch.url.appendingPathComponent("stat").path,
                     cgroupLimitPath: scratch.url.appendingPathComponent(limit).path, usableCores: { cores })
        }
        #expect(stat(limit: "unlimited", cores: 2).sample()?.cores == 2)
        #expect(stat(limit: "none", cores: 2).sample()?.cores == 2, "no cgroup file: no cap")
        #expect(stat(limit: "empty", cores: 2).sample()?.cores == 2, "an empty one: no cap")
        #expect(stat(limit: "capped", cores: 2).sample() == nil)
        #expect(stat(limit: "unlimited", cores: 1).sample() == nil)
        #expect(ProcStat(statPath: scratch.url.appendingPathComponent("missing").path).sample() == nil)
    }
}

extension WorkersTests {
    /// Spare workers take items only when admitted: never admitted, the
    /// fixed ones do all the work; always admitted, they share it, and no
    /// more than the fixed and spare ones run at once. Every item runs once.
    @Test func spareWorkersTakeItemsOnlyWhenAdmitted() throws {
        let never = Locked((workers: Set<Int>(), done: [Int]()))
        try Workers.run(items: 6, workers: 1, spare: SpareWorkers(count: 3, admit: { false }, poll: 0.001)) { item, worker in
            usleep(1_000)
            never.withLock { $0.workers.insert(worker); $0.done.append(item) }
        }
        #expect(never.value.workers == [0] && never.value.done == [0, 1, 2, 3, 4, 5])
        let always = Locked((running: 0, most: 0, workers: Set<Int>(), done: [Int]()))
        try Workers.run(items: 40, workers: 1, spare: SpareWorkers(count: 2, admit: { true }, poll: 0.001)) { item, worker in
            always.withLock { $0.running += 1; $0.most = max($0.most, $0.running); $0.workers.insert(worker) }
            usleep(5_000)
            always.withLock { $0.running -= 1; $0.done.append(item) }
        }
        #expect(always.value.most <= 3 && always.value.workers.contains { $0 > 0 } && always.value.workers.isSubset(of: [0, 1, 2]))
        #expect(always.value.done.sorted() == Array(0..<40))
    }

    /// A spare worker told no waits `poll` before it asks again, rather
    /// than spin a core (which would leave none spare).
    @Test func aSpareWorkerToldNoWaitsBeforeItAsksAgain() throws {
        let counts = Locked((asked: 0, waited: [Double]()))
        try Workers.run(items: 3, workers: 1, spare: SpareWorkers(count: 1, admit: { counts.withLock { $0.asked += 1 }; return false },
                                                                   poll: 0.25, wait: { seconds in counts.withLock { $0.waited.append(seconds) }; usleep(1_000) })) { _, _ in
            usleep(10_000)
        }
        #expect(counts.value.asked > 0 && counts.value.waited == Array(repeating: 0.25, count: counts.value.asked))
    }

    /// A spare worker that is never let in stops once an error stops the
    /// others: the run returns and throws the error rather than wait on it.
    @Test func aSpareWorkerNeverLetInStopsAtTheFirstError() {
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try Workers.run(items: 5, workers: 1, spare: SpareWorkers(count: 1, admit: { false }, poll: 0.001)) { _, _ in throw Stop() }
        }
    }

    /// The first error stops the spare workers too: a spare worker asks no
    /// more and takes no item after it.
    @Test func theFirstErrorStopsTheSpareWorkersToo() {
        struct Stop: Error {}
        let ran = Locked([Int]())
        #expect(throws: Stop.self) {
            try Workers.run(items: 50, workers: 1, spare: SpareWorkers(count: 2, admit: { true }, poll: 0.001)) { item, _ in
                ran.withLock { $0.append(item) }
                if item == 0 { throw Stop() }
                usleep(50_000)
            }
        }
        #expect(ran.value.count <= 3, "at most the three that began beside the failing one: \(ran.value)")
    }
}
