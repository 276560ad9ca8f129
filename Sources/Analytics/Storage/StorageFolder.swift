import AnalyticsSupport
import Foundation

/// The app's storage folder and what the SDK keeps in it: the queue
/// database and the opt-out flag (the install id has its own store).
struct StorageFolder {
    static let optOutFileName = "opted-out"

    let url: URL
    private let files: any StorageFiles
    private let report: @Sendable (AnalyticsDiagnostic) -> Void

    /// Creates the folder if missing; nil (reported) when it cannot be had,
    /// and the SDK then keeps events in memory only.
    init?(_ directory: URL?, files: any StorageFiles, report: @escaping @Sendable (AnalyticsDiagnostic) -> Void) {
        guard let directory else { return nil }
        do {
            try files.createDirectory(at: directory)
        } catch {
            report(.storageUnavailable(reason: "cannot create \(directory.path): \(error.localizedDescription)"))
            return nil
        }
        url = directory
        self.files = files
        self.report = report
    }

    // MARK: - Queue

    /// The queue database, or nil (reported) when none can be had. A file
    /// that is not a database (or a damaged one) is moved aside, kept for
    /// inspection, and a fresh queue started: it would fail every launch.
    func openQueueDatabase(capacity: Int, now: Date, busyTimeout: Duration) -> SQLiteEventQueue? {
        let file = url.appendingPathComponent(SQLiteEventQueue.fileName)
        do {
            return try SQLiteEventQueue(path: file.path, capacity: capacity, busyTimeout: busyTimeout)
        } catch where SQLiteDatabase.isCorruption(error) {
            let aside = url.appendingPathComponent("\(SQLiteEventQueue.fileName).unreadable-\(EpochMilliseconds.of(now))")
            do {
                try files.moveItem(at: file, to: aside)
                for suffix in ["-wal", "-shm"] {
                    let companion = file.path + suffix
                    // The journal of the damaged file must not be replayed
                    // into the fresh one.
                    if files.fileExists(atPath: companion) { try files.removeItem(atPath: companion) }
                }
                let fresh = try SQLiteEventQueue(path: file.path, capacity: capacity, busyTimeout: busyTimeout)
                report(.storageRepaired(movedTo: aside.path))
                return fresh
            } catch {
                report(.storageUnavailable(reason: "\(file.path) cannot be read and cannot be moved aside: \(error)"))
                return nil
            }
        } catch {
            report(.storageUnavailable(reason: "\(error)"))
            return nil
        }
    }

    // MARK: - Opt-out

    /// Whether an earlier run opted out.
    var isOptedOut: Bool {
        files.fileExists(atPath: url.appendingPathComponent(Self.optOutFileName).path)
    }

    /// Keeps the choice for the next launches; reports when it cannot.
    func persistOptOut(_ optOut: Bool) {
        let file = url.appendingPathComponent(Self.optOutFileName)
        if optOut {
            if !files.createEmptyFile(atPath: file.path) {
                report(.storageUnavailable(reason: "cannot write \(file.path): the opt-out holds for this run only"))
            }
        } else if files.fileExists(atPath: file.path) {
            do {
                try files.removeItem(atPath: file.path)
            } catch {
                report(.storageUnavailable(reason: "cannot delete \(file.path): the opt-in holds for this run only; the next launch starts opted out"))
            }
        }
    }
}
