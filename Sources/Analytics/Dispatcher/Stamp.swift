/// The moment of a call, read on the caller's thread so that queueing delay
/// never shifts a timestamp or a duration.
struct Stamp: Sendable {
    /// Unix epoch milliseconds.
    var timestamp: Int64
    /// Monotonic uptime.
    var uptime: Duration

    init(clock: any AnalyticsClock) {
        timestamp = EpochMilliseconds.of(clock.now())
        uptime = clock.uptime()
    }
}
