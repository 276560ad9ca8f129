import AnalyticsSupport
import Collector

/// `GET /v1/stats`: the stored event count and the visit statistics per screen.
enum StatsJSON {
    static func encode(_ statistics: VisitStatistics, events: Int) -> [UInt8] {
        var screens: [String: JSONValue] = [:]
        for (name, screen) in statistics.screens {
            screens[name] = .object([
                "visits": .integer(Int64(screen.visits)), "counted_visits": .integer(Int64(screen.countedVisits)),
                "mean_ms": screen.meanMs.map(JSONValue.double) ?? .null, "median_ms": screen.medianMs.map(JSONValue.double) ?? .null,
                "short_visits": .integer(Int64(screen.shortVisits)), "capped_visits": .integer(Int64(screen.cappedVisits)),
                "unpaired_enters": .integer(Int64(screen.unpairedEnters)),
            ])
        }
        return JSONWriter.encode(.object(["events": .integer(Int64(events)), "screens": .object(screens), "sessions": .integer(Int64(statistics.sessions.count))]))
    }
}
