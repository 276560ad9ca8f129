import Foundation

/// Decides the session an event belongs to. A session ends after 30 minutes
/// without activity: no event, or the app in background that long.
struct SessionClock {
    static let timeout: Duration = .seconds(30 * 60)

    private(set) var sessionID: UUID
    private var lastActivity: Duration

    init(id: UUID, at uptime: Duration) {
        sessionID = id
        lastActivity = uptime
    }

    /// The session for activity at `uptime`, rotating to `newID()` after a gap
    /// longer than the timeout.
    mutating func touch(at uptime: Duration, newID: () -> UUID) -> UUID {
        if uptime - lastActivity > Self.timeout { sessionID = newID() }
        lastActivity = max(lastActivity, uptime)
        return sessionID
    }
}

/// The current session, started by the first activity of a run.
struct Sessions {
    private var clock: SessionClock?

    mutating func id(at uptime: Duration, newID: () -> UUID) -> UUID {
        guard var current = clock else {
            let started = SessionClock(id: newID(), at: uptime)
            clock = started
            return started.sessionID
        }
        let id = current.touch(at: uptime, newID: newID)
        clock = current
        return id
    }
}
