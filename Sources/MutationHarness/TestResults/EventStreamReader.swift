import Foundation

/// Reads the Swift Testing event stream (`--event-stream-output-path`), which
/// is written line by line as tests run, so it survives a test process that
/// crashes before the xunit file is written.
enum EventStreamReader {
    struct Summary: Equatable {
        struct Failure: Equatable {
            var id: String
            var message: String?
        }

        /// Tests that recorded a failing issue, with the first message, in order.
        var failures: [Failure]
        /// Tests that started and never ended: running when the process died.
        var unfinished: [String]
    }

    /// What one line of the stream says, of what the harness reads. Test
    /// ids are raw (`Module.Suite/name()/File.swift:5:6`, see `testID`).
    enum Line: Equatable {
        /// A suite's declaration: its own start and end are not a test's.
        case suite(String)
        case started(String)
        case ended(String)
        /// A failing issue (a known issue, or a warning, is none).
        case failure(Summary.Failure)
    }

    /// Lines that can say one of those; the others are skipped unparsed.
    private static let markers = ["\"testStarted\"", "\"testEnded\"", "\"issueRecorded\"", "\"suite\""].map { Data($0.utf8) }

    /// One line decoded: the one parser of the stream, for the reader after
    /// the run and the watcher during it. Nil for anything else.
    static func line(_ line: Data) -> Line? {
        guard markers.contains(where: { line.range(of: $0) != nil }),
              let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let payload = object["payload"] as? [String: Any]
        else { return nil }
        if object["kind"] as? String == "test" {
            guard payload["kind"] as? String == "suite", let id = payload["id"] as? String else { return nil }
            return .suite(id)
        }
        guard object["kind"] as? String == "event", let raw = payload["testID"] as? String else { return nil }
        switch payload["kind"] as? String {
        case "testStarted": return .started(raw)
        case "testEnded": return .ended(raw)
        case "issueRecorded": return failingIssue(payload: payload, testID: raw).map(Line.failure)
        default: return nil
        }
    }

    static func read(_ url: URL) -> Summary? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        var failures: [Summary.Failure] = []
        var running: [String] = []
        var suites: Set<String> = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            switch Self.line(Data(line)) {
            case .suite(let id):
                suites.insert(id)
            case .started(let raw):
                if !suites.contains(raw) { running.append(raw) }
            case .ended(let raw):
                running.removeAll { $0 == raw }
            case .failure(let failure):
                if !failures.contains(where: { $0.id == failure.id }) { failures.append(failure) }
            case nil:
                continue
            }
        }
        return Summary(failures: failures, unfinished: running.map(testID))
    }

    /// For each test, the longest time in the stream that it ran and no test
    /// started or ended, by the events' own clock (`TestProgress.quietWhileRunning`).
    static func quietWhileRunning(_ url: URL) -> [String: Double] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [:] }
        var progress = TestProgress()
        var suites: Set<String> = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let line = Data(line)
            switch Self.line(line) {
            case .suite(let id):
                suites.insert(id)
            case .started(let raw) where !suites.contains(raw):
                if let instant = instant(line) { progress.started(testID(raw), at: instant) }
            case .ended(let raw) where !suites.contains(raw):
                if let instant = instant(line) { progress.ended(testID(raw), at: instant) }
            default:
                continue
            }
        }
        return progress.quietWhileRunning
    }

    /// When an event happened (`payload.instant.since1970`).
    private static func instant(_ line: Data) -> Date? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let instant = (object["payload"] as? [String: Any])?["instant"] as? [String: Any],
              let seconds = instant["since1970"] as? Double
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The failing issue one line of the stream records, if it records one.
    static func failingIssue(in line: Data) -> Summary.Failure? {
        if case .failure(let failure) = Self.line(line) { return failure }
        return nil
    }

    private static func failingIssue(payload: [String: Any], testID rawID: String) -> Summary.Failure? {
        let issue = payload["issue"] as? [String: Any]
        guard issue?["isFailure"] as? Bool ?? true, !(issue?["isKnown"] as? Bool ?? false) else { return nil }
        let message = (payload["messages"] as? [[String: Any]])?.first?["text"] as? String
        return Summary.Failure(id: testID(rawID), message: message)
    }

    /// `Module.Suite/name()/File.swift:5:6` -> `Module.Suite/name()`, the xunit id.
    static func testID(_ raw: String) -> String {
        var parts = raw.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 1, let last = parts.last, last.contains(".swift:") { parts.removeLast() }
        return parts.joined(separator: "/")
    }
}
