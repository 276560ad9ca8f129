import AnalyticsSupport
import Analytics
import Foundation

/// A clock and scheduler that move only when a test says so.
///
/// Work handed to `execute` runs at once on the calling thread (work handed
/// over while other work runs waits its turn), so after `track` returns the
/// event has been validated, queued and, if due, sent. Timers fire only in
/// `advance(by:)`, in (deadline, insertion) order, with `now` set to each
/// deadline before its work runs. Nothing relies on yielding or sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// clock.advance(by: .seconds(60))   // fires the batch timer
/// ```
public final class ManualClock: AnalyticsClock, WorkScheduler, Sendable {
    fileprivate struct Timer {
        var id: Int
        var deadline: Duration
        var work: @Sendable () -> Void
    }

    fileprivate struct State {
        var wall: Date
        var uptime: Duration
        var timers: [Timer] = []
        var nextID = 0
        var pending: [@Sendable () -> Void] = []
        var draining = false
    }

    private let state: Locked<State>

    /// Starts at `now` (default 2026-01-01T00:00:00Z) with uptime 1000 s.
    public init(now: Date = Date(timeIntervalSince1970: 1_767_225_600), uptime: Duration = .seconds(1000)) {
        state = Locked(State(wall: now, uptime: uptime))
    }

    public func now() -> Date { state.withLock { $0.wall } }
    public func uptime() -> Duration { state.withLock { $0.uptime } }

    package func execute(_ work: @escaping @Sendable () -> Void) {
        let shouldDrain = state.withLock { state -> Bool in
            state.pending.append(work)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard shouldDrain else { return }
        while let next = state.withLock({ state -> (@Sendable () -> Void)? in
            guard !state.pending.isEmpty else {
                state.draining = false
                return nil
            }
            return state.pending.removeFirst()
        }) {
            next()
        }
    }

    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.timers.append(Timer(id: state.nextID, deadline: state.uptime + max(.zero, delay), work: work))
            return state.nextID
        }
        return ManualScheduledWork { [weak self] in
            self?.state.withLock { $0.timers.removeAll { $0.id == id } }
        }
    }

    /// Moves both clocks forward, firing every timer that falls due on the way.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.uptime } + duration
        while let timer = state.withLock({ state -> Timer? in
            guard let index = state.timers.indices
                .filter({ state.timers[$0].deadline <= target })
                .min(by: { (state.timers[$0].deadline, state.timers[$0].id) < (state.timers[$1].deadline, state.timers[$1].id) })
            else { return nil }
            let timer = state.timers.remove(at: index)
            state.move(to: timer.deadline)
            return timer
        }) {
            execute(timer.work)
        }
        state.withLock { $0.move(to: target) }
    }

    /// Sets the wall clock alone (a user changing the device time).
    public func setWallClock(_ date: Date) {
        state.withLock { $0.wall = date }
    }

    /// The delays until each pending timer, soonest first.
    public var pendingTimers: [Duration] {
        state.withLock { state in state.timers.map { $0.deadline - state.uptime }.sorted() }
    }
}

extension ManualClock.State {
    fileprivate mutating func move(to newUptime: Duration) {
        guard newUptime > uptime else { return }
        let delta = newUptime - uptime
        let (seconds, attoseconds) = delta.components
        wall = wall.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        uptime = newUptime
    }
}

private struct ManualScheduledWork: ScheduledWork {
    let onCancel: @Sendable () -> Void
    func cancel() { onCancel() }
}
