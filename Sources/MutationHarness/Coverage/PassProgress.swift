import Foundation

/// The console line of a pass that runs tests one by one (the coverage
/// pass, the switch pass): at most every 10 s, how many have run and about
/// how long is left. Safe to call from the pass's workers.
final class PassProgress: Sendable {
    private let label: String
    private let total: Int
    private let print: @Sendable (String) -> Void
    private let now: @Sendable () -> Date
    private let started: Date
    private let state: Locked<(done: Int, lastReport: Date)>

    /// `now`: the clock (tests give a manual one), read once here and once
    /// in each `testFinished` (`CoveragePassTests` meet on those reads).
    init(_ label: String, total: Int, now: @escaping @Sendable () -> Date = Date.init, print: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.total = total
        self.print = print
        self.now = now
        started = now()
        state = Locked((done: 0, lastReport: started))
    }

    /// One more test has run.
    func testFinished() {
        state.withLock { value in
            value.done += 1
            let time = now()
            guard time.timeIntervalSince(value.lastReport) >= 10 else { return }
            value.lastReport = time
            let left = time.timeIntervalSince(started) / Double(value.done) * Double(total - value.done)
            print("  \(label): \(value.done) of \(total) tests run on their own, about \(ConsoleFormat.duration(left)) left")
        }
    }
}
