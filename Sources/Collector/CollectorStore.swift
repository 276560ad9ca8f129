import AnalyticsSupport
import Foundation

/// The collector's SQLite store: one row per `event_id`
/// (`UNIQUE(event_id)` + `INSERT OR IGNORE`), raw event JSON kept.
///
/// `@unchecked`: the SQLite connection is not Sendable; after `init` it is
/// reached only through `withDatabase`, which holds `lock`.
public final class CollectorStore: @unchecked Sendable {
    private let database: SQLiteDatabase
    private let lock = NSLock()

    /// The one way to the connection: one caller at a time, so a batch's
    /// transaction never interleaves with another's and the statement cache
    /// is never touched by two threads.
    func withDatabase<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(database)
    }

    /// Whether a caller has the connection now (inside `withDatabase`).
    var isBusy: Bool {
        guard lock.try() else { return true }
        lock.unlock()
        return false
    }

    /// Opens (creating) the store at `path`, or in memory by default.
    public init(path: String = ":memory:") throws {
        database = try SQLiteDatabase(path: path)
        try database.execute("""
            CREATE TABLE IF NOT EXISTS events (
                event_id TEXT NOT NULL UNIQUE,
                app_id TEXT NOT NULL,
                install_id TEXT NOT NULL,
                session_id TEXT NOT NULL,
                name TEXT NOT NULL,
                ts INTEGER NOT NULL,
                screen TEXT,
                visit_id TEXT,
                duration_ms INTEGER,
                raw BLOB NOT NULL
            );
            CREATE INDEX IF NOT EXISTS events_visit ON events (visit_id);
            """)
    }

    /// Stores the events in one transaction; returns (accepted, duplicates).
    func insert(_ events: [ValidEvent], appID: String, installID: String) throws -> (accepted: Int, duplicates: Int) {
        try withDatabase { database throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) -> (Int, Int) in
                var accepted = 0
                for event in events {
                    try database.query(
                        "INSERT OR IGNORE INTO events (event_id, app_id, install_id, session_id, name, ts, screen, visit_id, duration_ms, raw) VALUES (?,?,?,?,?,?,?,?,?,?)",
                        [.text(event.eventID), .text(appID), .text(installID), .text(event.sessionID), .text(event.name),
                         .integer(event.timestamp),
                         event.properties["screen"]?.stringValue.map(SQLiteValue.text) ?? .null,
                         event.properties["visit_id"]?.stringValue.map(SQLiteValue.text) ?? .null,
                         event.properties["duration_ms"]?.integerValue.map(SQLiteValue.integer) ?? .null,
                         .blob(event.raw)]
                    )
                    accepted += database.changes
                }
                return (accepted, events.count - accepted)
            }
        }
    }

    /// Number of stored events. Throws when SQLite cannot answer (a locked
    /// or unreadable database), rather than pretending the store is empty.
    public var count: Int {
        get throws {
            try withDatabase { database throws(SQLiteError) in
                Int(try database.query("SELECT COUNT(*) FROM events").first?.first?.integer ?? 0)
            }
        }
    }

    /// A stored event as the collector keeps it.
    public struct StoredEvent: Sendable, Equatable {
        public var eventID: String
        public var appID: String
        public var installID: String
        public var sessionID: String
        public var name: String
        public var timestamp: Int64
        /// The event's JSON as received.
        public var raw: String
    }

    /// Every stored event, in timestamp order. Throws when SQLite cannot answer.
    public func events() throws -> [StoredEvent] {
        let rows = try withDatabase { database throws(SQLiteError) in try database.query("SELECT event_id, app_id, install_id, session_id, name, ts, raw FROM events ORDER BY ts, rowid") }
        return rows.map { row in
            StoredEvent(eventID: row[0].text ?? "", appID: row[1].text ?? "", installID: row[2].text ?? "", sessionID: row[3].text ?? "",
                        name: row[4].text ?? "", timestamp: row[5].integer ?? 0, raw: String(decoding: row[6].blob ?? [], as: UTF8.self))
        }
    }

    /// One screen event, for visit statistics.
    struct ScreenRow {
        var name: String
        var screen: String
        var visitID: String
        var sessionID: String
        var durationMs: Int64?
    }

    func screenRows() throws -> [ScreenRow] {
        let rows = try withDatabase { database throws(SQLiteError) in try database.query(
            "SELECT name, screen, visit_id, session_id, duration_ms FROM events WHERE name IN ('screen_enter', 'screen_exit') AND visit_id IS NOT NULL ORDER BY ts, rowid"
        ) }
        return rows.map { ScreenRow(name: $0[0].text ?? "", screen: $0[1].text ?? "", visitID: $0[2].text ?? "", sessionID: $0[3].text ?? "", durationMs: $0[4].integer) }
    }
}
