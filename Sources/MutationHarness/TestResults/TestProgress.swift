import Foundation

/// Which tests of a run are running now, and when a test last started or
/// ended: how a run of chosen tests tells a hung test from slow ones.
///
/// A test's own limit cannot be its time alone: in a run of many tests at
/// once a test waits for the others' turn on the processor. But while the
/// others run they start and end, so the rule is about silence: when tests
/// are running and none has started or ended for longer than the slowest
/// of them may take (`allowance`), the run has stalled and is a timeout.
struct TestProgress: Equatable {
    /// What a stalled run reports.
    struct Stall: Equatable {
        /// The test running longest: the one most likely hung.
        var test: String
        /// How long no test has started or ended.
        var quiet: Double
        /// The longest allowance among the running tests.
        var limit: Double
    }

    /// Each running test and when it started.
    private(set) var running: [String: Date] = [:]
    /// When a test last started or ended.
    private(set) var lastEvent: Date?
    /// For each test, the longest time so far that it was running and no
    /// test started or ended: in the baseline's whole suite, how quiet a
    /// healthy run gets while that test runs (`EventStreamReader.quietWhileRunning`).
    private(set) var quietWhileRunning: [String: Double] = [:]

    mutating func started(_ test: String, at now: Date) {
        noteQuiet(until: now)
        running[test] = now
        lastEvent = now
    }

    mutating func ended(_ test: String, at now: Date) {
        noteQuiet(until: now)
        running[test] = nil
        lastEvent = now
    }

    private mutating func noteQuiet(until now: Date) {
        guard !running.isEmpty, let lastEvent else { return }
        let quiet = now.timeIntervalSince(lastEvent)
        for test in running.keys where quiet > quietWhileRunning[test] ?? 0 { quietWhileRunning[test] = quiet }
    }

    /// Whether the run has stalled at `now`: tests run, and none has started
    /// or ended for longer than the largest `allowance` of those running.
    func stall(at now: Date, allowance: (String) -> Double) -> Stall? {
        guard let lastEvent, let oldest = running.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { return nil }
        let limit = running.keys.map(allowance).max() ?? 0
        let quiet = now.timeIntervalSince(lastEvent)
        return quiet > limit ? Stall(test: oldest.key, quiet: quiet, limit: limit) : nil
    }
}
