import Foundation

/// Why a visit ended, as sent in `screen_exit.reason`.
public enum ExitReason: String, Sendable, Equatable {
    case replace, cover, pop, background, terminate, stop
}

/// The stack of named screens as a value (docs/screen-stack.md). Each operation
/// returns the visit events it causes; durations come from the monotonic
/// uptime passed in, never from the wall clock.
struct ScreenStack: Equatable {
    struct Entry: Equatable {
        var name: String
        var modal: Bool
    }

    struct Visit: Equatable {
        var screen: String
        var id: UUID
        var modal: Bool
        var startedAt: Duration
    }

    enum Emission: Equatable {
        case enter(screen: String, visitID: UUID, modal: Bool)
        case exit(screen: String, visitID: UUID, durationMs: Int64, reason: ExitReason)
    }

    private(set) var entries: [Entry] = []
    private(set) var openVisit: Visit?
    /// False in background: the stack changes but no visit opens.
    private(set) var inForeground = true

    /// `enter(X)`: X replaces the top. Re-entering the open top resumes it.
    mutating func enter(_ name: String, at now: Duration, newID: () -> UUID) -> [Emission] {
        guard !name.isEmpty else { return [] }
        if entries.last?.name == name, openVisit?.screen == name { return [] }
        var emissions = closeVisit(.replace, at: now)
        let modal = entries.last?.modal ?? false
        if entries.isEmpty { entries.append(Entry(name: name, modal: false)) } else { entries[entries.count - 1] = Entry(name: name, modal: modal) }
        emissions += openTop(at: now, newID: newID)
        return emissions
    }

    /// `push(X)`: X covers the top; the covered visit exits with `cover`.
    mutating func push(_ name: String, at now: Duration, newID: () -> UUID) -> [Emission] {
        guard !name.isEmpty else { return [] }
        var emissions = closeVisit(.cover, at: now)
        entries.append(Entry(name: name, modal: !entries.isEmpty))
        emissions += openTop(at: now, newID: newID)
        return emissions
    }

    /// `pop()`: removes the top; the uncovered screen starts a new visit.
    mutating func pop(at now: Duration, newID: () -> UUID) -> [Emission] {
        guard !entries.isEmpty else { return [] }
        return popFrom(entries.count - 1, at: now, newID: newID)
    }

    /// `pop(X)`: removes X and everything above it. Unknown names do nothing.
    mutating func pop(named name: String, at now: Duration, newID: () -> UUID) -> [Emission] {
        guard let index = entries.lastIndex(where: { $0.name == name }) else { return [] }
        return popFrom(index, at: now, newID: newID)
    }

    /// `replace(old, new)`: a navigator swapped one route for another. On top
    /// it is an `enter`; below, the stack changes silently.
    mutating func replace(_ old: String, with new: String, at now: Duration, newID: () -> UUID) -> [Emission] {
        guard !new.isEmpty, let index = entries.lastIndex(where: { $0.name == old }) else { return [] }
        if index == entries.count - 1 { return enter(new, at: now, newID: newID) }
        entries[index].name = new
        return []
    }

    /// `remove(X)`: a navigator removed a route. On top it is a `pop`;
    /// below, the stack changes silently.
    mutating func remove(_ name: String, at now: Duration, newID: () -> UUID) -> [Emission] {
        guard let index = entries.lastIndex(where: { $0.name == name }) else { return [] }
        if index == entries.count - 1 { return popFrom(index, at: now, newID: newID) }
        entries.remove(at: index)
        return []
    }

    /// Background or terminate: the open visit exits, the stack is kept.
    mutating func leaveForeground(_ reason: ExitReason, at now: Duration) -> [Emission] {
        inForeground = false
        return closeVisit(reason, at: now)
    }

    /// Foreground: the top enters again on a fresh clock.
    mutating func returnToForeground(at now: Duration, newID: () -> UUID) -> [Emission] {
        guard !inForeground else { return [] }
        inForeground = true
        return openTop(at: now, newID: newID)
    }

    /// `stop()`: the open visit exits with `stop` and the stack empties.
    mutating func stop(at now: Duration) -> [Emission] {
        let emissions = closeVisit(.stop, at: now)
        entries.removeAll()
        return emissions
    }

    private mutating func popFrom(_ index: Int, at now: Duration, newID: () -> UUID) -> [Emission] {
        var emissions = closeVisit(.pop, at: now)
        entries.removeSubrange(index...)
        emissions += openTop(at: now, newID: newID)
        return emissions
    }

    private mutating func closeVisit(_ reason: ExitReason, at now: Duration) -> [Emission] {
        guard let visit = openVisit else { return [] }
        openVisit = nil
        let duration = max(.zero, now - visit.startedAt).wholeMilliseconds
        return [.exit(screen: visit.screen, visitID: visit.id, durationMs: duration, reason: reason)]
    }

    private mutating func openTop(at now: Duration, newID: () -> UUID) -> [Emission] {
        guard inForeground, let top = entries.last else { return [] }
        let visit = Visit(screen: top.name, id: newID(), modal: top.modal, startedAt: now)
        openVisit = visit
        return [.enter(screen: visit.screen, visitID: visit.id, modal: visit.modal)]
    }
}
