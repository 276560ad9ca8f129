/// Screen time computed the way the contract says (docs/collector.md): visits
/// are `screen_enter`/`screen_exit` pairs by `visit_id`; an enter without an
/// exit is dropped from time; visits under 250 ms and over 30 minutes are
/// left out of averages and counted apart (raw events are kept).
public struct VisitStatistics: Sendable, Equatable {
    public static let shortVisitMs: Int64 = 250
    public static let cappedVisitMs: Int64 = 30 * 60 * 1000

    /// Figures for one screen.
    public struct Screen: Sendable, Equatable {
        /// Paired visits of every length.
        public var visits: Int
        /// Visits between 250 ms and 30 minutes, the ones in the averages.
        public var countedVisits: Int
        public var meanMs: Double?
        public var medianMs: Double?
        public var shortVisits: Int
        public var cappedVisits: Int
        /// Enters never closed by an exit (dropped from time).
        public var unpairedEnters: Int
    }

    /// Figures for one session.
    public struct Session: Sendable, Equatable {
        public var visits: Int
        /// Sum of the durations of the counted visits.
        public var totalMs: Int64
    }

    public var screens: [String: Screen]
    public var sessions: [String: Session]

    init(rows: [CollectorStore.ScreenRow]) {
        var enters: [String: CollectorStore.ScreenRow] = [:]
        var exits: [String: CollectorStore.ScreenRow] = [:]
        for row in rows {
            if row.name == "screen_enter" { enters[row.visitID] = row } else { exits[row.visitID] = row }
        }
        var durations: [String: [Int64]] = [:]
        var screens: [String: Screen] = [:]
        var sessions: [String: Session] = [:]
        func blank() -> Screen { Screen(visits: 0, countedVisits: 0, meanMs: nil, medianMs: nil, shortVisits: 0, cappedVisits: 0, unpairedEnters: 0) }
        for (visitID, enter) in enters {
            guard let exit = exits[visitID], let duration = exit.durationMs else {
                screens[enter.screen, default: blank()].unpairedEnters += 1
                continue
            }
            screens[enter.screen, default: blank()].visits += 1
            sessions[enter.sessionID, default: Session(visits: 0, totalMs: 0)].visits += 1
            if duration < Self.shortVisitMs {
                screens[enter.screen, default: blank()].shortVisits += 1
            } else if duration > Self.cappedVisitMs {
                screens[enter.screen, default: blank()].cappedVisits += 1
            } else {
                durations[enter.screen, default: []].append(duration)
                sessions[enter.sessionID, default: Session(visits: 0, totalMs: 0)].totalMs += duration
            }
        }
        for (screen, values) in durations where !values.isEmpty {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            var figures = screens[screen, default: blank()]
            figures.countedVisits = sorted.count
            figures.meanMs = Double(sorted.reduce(0, +)) / Double(sorted.count)
            figures.medianMs = sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
            screens[screen] = figures
        }
        self.screens = screens
        self.sessions = sessions
    }
}
