import Dispatch
import Foundation

/// Where the SDK reads time: the wall clock for event timestamps and a
/// monotonic clock for durations (screen time, session gaps, batch age).
///
/// ```swift
/// let clock: any AnalyticsClock = SystemClock()
/// let startedAt = clock.uptime()
/// ```
public protocol AnalyticsClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Time since an arbitrary fixed origin; never jumps, never goes back.
    func uptime() -> Duration
}

/// The real clocks: `Date()` and the system's monotonic uptime.
public struct SystemClock: AnalyticsClock {
    public init() {}
    public func now() -> Date { Date() }
    public func uptime() -> Duration { .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds)) }
}

/// Unix epoch milliseconds, the unit of every timestamp on the wire.
enum EpochMilliseconds {
    /// Whole milliseconds since 1970-01-01T00:00:00Z, rounded down.
    static func of(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}

extension Duration {
    /// Whole milliseconds in this duration, rounded down.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
