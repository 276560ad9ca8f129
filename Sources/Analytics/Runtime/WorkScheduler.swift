import Dispatch

/// A timer that has been set and can still be called off.
package protocol ScheduledWork: Sendable {
    /// Calls the work off; a no-op if it already ran.
    func cancel()
}

/// Where the SDK does its work and sets its timers. All of the SDK's state is
/// touched only from work handed to one scheduler, one piece at a time.
///
/// The live scheduler is a serial dispatch queue, so `track` returns at once.
/// `ManualClock` in `AnalyticsTesting` runs work inline and fires timers
/// only when a test advances its clock.
///
/// A scheduler must be serial: `Pipeline`, `CollectorUploader`, `Inbox`'s
/// worker and `LifecycleObserver` keep mutable state that is safe only
/// because one piece of work runs at a time. That is why the seam is
/// `package`, not `public`: only this package's testing kit and tests can
/// inject one, and an app cannot pass a concurrent queue by mistake.
package protocol WorkScheduler: Sendable {
    /// Runs `work` soon, after all work handed over before it.
    func execute(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` once `delay` has passed, unless cancelled first.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork
}

/// The live scheduler: one serial, utility-priority dispatch queue.
package struct DispatchWorkScheduler: WorkScheduler {
    private let queue: DispatchQueue

    package init(label: String = "analytics.worker") {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    package func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        let item = DispatchWorkItem(block: work)
        let nanoseconds = max(0, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: item)
        return DispatchScheduledWork(item: item)
    }
}

// `@unchecked`: `DispatchWorkItem` is not marked Sendable, but `cancel()` is
// documented as safe from any thread, and it is the only thing called on it.
private struct DispatchScheduledWork: ScheduledWork, @unchecked Sendable {
    let item: DispatchWorkItem
    func cancel() { item.cancel() }
}
