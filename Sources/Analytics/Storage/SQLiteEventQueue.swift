import AnalyticsSupport

/// The persistent queue: one SQLite table, rows in insertion order.
package final class SQLiteEventQueue: EventQueue {
    package static let fileName = "events.sqlite"

    private let database: SQLiteDatabase
    private let capacity: Int
    package private(set) var count: Int

    /// Opens or creates the queue at `path`. Throws for a file that is not a
    /// database, or a directory that cannot be written.
    package init(path: String, capacity: Int, busyTimeout: Duration = SQLiteDatabase.defaultBusyTimeout) throws(SQLiteError) {
        database = try SQLiteDatabase(path: path, busyTimeout: busyTimeout)
        self.capacity = capacity
        try database.execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA mmap_size = 67108864;
            CREATE TABLE IF NOT EXISTS events (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                event_id TEXT NOT NULL,
                ts INTEGER NOT NULL,
                payload BLOB NOT NULL
            );
            """)
        count = Int(try database.query("SELECT COUNT(*) FROM events").first?.first?.integer ?? 0)
    }

    /// The count changes only once the transaction has committed: a COMMIT
    /// that fails (disk full) leaves the queue as it was, and says so.
    package func append(_ events: [QueuedEvent]) throws -> Int {
        let (added, dropped) = try database.transaction { () throws(SQLiteError) -> (Int, Int) in
            var added = 0
            for event in events {
                try database.query(
                    "INSERT INTO events (event_id, ts, payload) VALUES (?, ?, ?)",
                    [.text(event.id), .integer(event.timestamp), .blob(event.payload)]
                )
                added += database.changes
            }
            let overflow = max(0, count + added - capacity)
            guard overflow > 0 else { return (added, 0) }
            try database.query(
                "DELETE FROM events WHERE seq IN (SELECT seq FROM events ORDER BY seq LIMIT ?)",
                [.integer(Int64(overflow))]
            )
            return (added, database.changes)
        }
        count += added - dropped
        return dropped
    }

    package func peek(limit: Int) throws -> [QueuedEvent] {
        try database.query("SELECT event_id, ts, payload, seq FROM events ORDER BY seq LIMIT ?", [.integer(Int64(limit))])
            .map { row in
                QueuedEvent(id: row[0].text ?? "", timestamp: row[1].integer ?? 0, payload: row[2].blob ?? [], sequence: row[3].integer ?? 0)
            }
    }

    /// Deletes by sequence, one statement per contiguous run: a delivered
    /// batch is the oldest run of the queue, so usually one statement.
    package func remove(_ events: [QueuedEvent]) throws {
        let sequences = events.map(\.sequence).sorted()
        guard var runStart = sequences.first else { return }
        var runEnd = runStart
        let removed = try database.transaction { () throws(SQLiteError) -> Int in
            var removed = 0
            for sequence in sequences.dropFirst() + [Int64.max] {
                if sequence == runEnd + 1 {
                    runEnd = sequence
                    continue
                }
                try database.query("DELETE FROM events WHERE seq BETWEEN ? AND ?", [.integer(runStart), .integer(runEnd)])
                removed += database.changes
                runStart = sequence
                runEnd = sequence
            }
            return removed
        }
        count -= removed
    }

    package func removeAll() throws {
        try database.execute("DELETE FROM events")
        count = 0
    }

    /// For tests of a full disk: caps the database at its current size, so
    /// no write that needs a new page can commit (SQLite answers
    /// `SQLITE_FULL`, as on a full volume); `false` lifts the cap.
    package func limitPages(toCurrent limited: Bool) throws {
        if limited {
            let pages = try database.query("PRAGMA page_count").first?.first?.integer ?? 1
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE; PRAGMA max_page_count = \(pages)")
        } else {
            try database.execute("PRAGMA max_page_count = 1073741823; PRAGMA journal_mode = WAL")
        }
    }

    /// The highest sequence ever given out (0 for a new queue).
    package func lastSequence() throws -> Int64 {
        try database.query("SELECT COALESCE(MAX(seq), 0) FROM events").first?.first?.integer ?? 0
    }

    package func oldestTimestamp() throws -> Int64? {
        try database.query("SELECT ts FROM events ORDER BY seq LIMIT 1").first?.first?.integer
    }
}
