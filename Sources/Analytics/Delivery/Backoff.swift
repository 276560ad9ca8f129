/// Retry waits: exponential with jitter, capped.
///
/// For failure number `n` (1, 2, 3, ...): `ceiling = min(cap, base * 2^(n-1))`
/// and the wait is `ceiling * (0.5 + jitter / 2)` for `jitter` in `0..<1`, so it
/// lies in `[ceiling / 2, ceiling)`. With the defaults (base 5 s, cap 15 min):
/// failure 1 waits 2.5-5 s, failure 5 waits 40-80 s, failure 9 and later wait
/// 7.5-15 min, so an hour of failures costs at most a dozen requests. A
/// `Retry-After` from the server replaces the formula, capped too.
public struct Backoff: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(5), cap: Duration = .seconds(15 * 60)) {
        self.base = base
        self.cap = cap
    }

    /// The wait before retry after the `failures`-th consecutive failure.
    public func delay(afterFailures failures: Int, jitter: Double) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let ceiling = min(cap, base * (1 << exponent))
        return ceiling * (0.5 + min(max(jitter, 0), 1) / 2)
    }

    /// The wait a server asked for, capped.
    public func delay(retryAfter seconds: Int) -> Duration {
        min(cap, .seconds(max(0, seconds)))
    }
}
