/// Retry waits: exponential with jitter, capped.
///
/// For failure number `n` (1, 2, 3, ...): `ceiling = min(cap, base * 2^(n-1))`
/// and the wait is `min(cap, ceiling * (0.8 + 0.4 * jitter))` for `jitter` in
/// `0..<1`: within 20% of the ceiling, as gRPC does, so clients spread out
/// but never retry much sooner than the schedule. With the defaults (base
/// 5 s, cap 15 min): failure 1 waits 4-6 s, failure 5 waits 64-96 s, failure 9
/// and later wait 12-15 min, so an hour of failures costs at most 12 requests.
/// A `Retry-After` from the server replaces the formula, capped too.
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
        return min(cap, ceiling * (0.8 + 0.4 * min(max(jitter, 0), 1)))
    }

    /// The wait a server asked for, capped.
    public func delay(retryAfter seconds: Int) -> Duration {
        min(cap, .seconds(max(0, seconds)))
    }
}
