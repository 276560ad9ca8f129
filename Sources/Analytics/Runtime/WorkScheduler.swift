import Dispatch

/// A timer that has been set and can still be called off.
public protocol ScheduledWork: Sendable {
    /// Calls the work off; a no-op if it already ran.
    func cancel()
}

/// Where the SDK does its work and sets its timers. All of the SDK's state is
/// touched only from work handed to one scheduler, one piece at a time.
///
/// The live scheduler is a serial dispatch queue, so `track` returns at once.
/// `ManualClock` in `AnalyticsTesting` runs work inline and fires timers
/// only when a test advances its clock.
public protocol WorkScheduler: Sendable {
    /// Runs `work` soon, after all work handed over before it.
    func execute(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` once `delay` has passed, unless cancelled first.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork
}

/// The live scheduler: one serial, utility-priority dispatch queue.
public struct DispatchWorkScheduler: WorkScheduler {
    private let queue: DispatchQueue

    public init(label: String = "analytics.worker") {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        let item = DispatchWorkItem(block: work)
        let nanoseconds = max(0, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: item)
        return DispatchScheduledWork(item: item)
    }
}

private struct DispatchScheduledWork: ScheduledWork, @unchecked Sendable {
    let item: DispatchWorkItem
    func cancel() { item.cancel() }
}
