import Foundation

/// Decides when one more test process may start beside the fixed ones
/// (`--jobs`): only when, since the last look at least `interval` ago, one
/// core's worth of processor time or more went unused. Many tests wait more
/// than they compute (a client's time limit, a server's answer), and then
/// two processes leave the machine idle; a process that computes leaves no
/// core spare, so none is let in beside it. One is let in per look, so the
/// next look sees its load.
final class SpareCores: Sendable {
    let times: any ProcessorTimes
    let interval: Double
    let now: @Sendable () -> Date
    private let last = Locked<(sample: ProcessorSample, at: Date)?>(nil)

    init(times: any ProcessorTimes, interval: Double = 0.5, now: @escaping @Sendable () -> Date = Date.init) {
        self.times = times
        self.interval = interval
        self.now = now
    }

    /// Whether a core went unused since the last look (the first look only
    /// starts the count, and a look within `interval` of the last says no).
    func admit() -> Bool {
        let now = now()
        return last.withLock { last in
            if let previous = last, now.timeIntervalSince(previous.at) < interval { return false }
            guard let sample = times.sample() else { return false }
            defer { last = (sample, now) }
            guard let previous = last?.sample else { return false }
            let busy = Double(sample.busy) - Double(previous.busy), idle = Double(sample.idle) - Double(previous.idle)
            // The idle share of the time since, times the cores, is one core or more;
            // times that went backwards (a counter reset) or did not move say no.
            return busy >= 0 && idle > 0 && idle * Double(sample.cores) >= busy + idle
        }
    }
}

extension SpareWorkers {
    /// `count` spare workers admitted by `SpareCores` over `times`; none
    /// when `count` is 0 or the times cannot be read here.
    static func whileCoresIdle(count: Int, times: any ProcessorTimes) -> SpareWorkers? {
        guard count > 0, times.sample() != nil else { return nil }
        let cores = SpareCores(times: times)
        return SpareWorkers(count: count, admit: { cores.admit() })
    }
}
