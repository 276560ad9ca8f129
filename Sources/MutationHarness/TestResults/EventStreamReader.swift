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

    static func read(_ url: URL) -> Summary? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        var failures: [Summary.Failure] = []
        var running: [String] = []
        var suites: Set<String> = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let payload = object["payload"] as? [String: Any]
            else { continue }
            if object["kind"] as? String == "test" {
                if payload["kind"] as? String == "suite", let id = payload["id"] as? String { suites.insert(id) }
                continue
            }
            guard let rawID = payload["testID"] as? String else { continue }
            switch payload["kind"] as? String {
            case "testStarted":
                if !suites.contains(rawID) { running.append(rawID) }
            case "testEnded":
                running.removeAll { $0 == rawID }
            case "issueRecorded":
                guard let failure = failingIssue(payload: payload, testID: rawID), !failures.contains(where: { $0.id == failure.id }) else { continue }
                failures.append(failure)
            default:
                continue
            }
        }
        return Summary(failures: failures, unfinished: running.map(testID))
    }

    /// The failing issue one line of the stream records, if it records one
    /// (a known issue, or a warning, is not a failure).
    static func failingIssue(in line: Data) -> Summary.Failure? {
        // Most lines are not issues: skip them without parsing.
        guard line.range(of: Data("issueRecorded".utf8)) != nil,
              let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              object["kind"] as? String == "event",
              let payload = object["payload"] as? [String: Any],
              payload["kind"] as? String == "issueRecorded",
              let rawID = payload["testID"] as? String
        else { return nil }
        return failingIssue(payload: payload, testID: rawID)
    }

    static func failingIssue(payload: [String: Any], testID rawID: String) -> Summary.Failure? {
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
