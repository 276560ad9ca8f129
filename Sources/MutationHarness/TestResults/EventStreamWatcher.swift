import Foundation

/// What the harness reads of a test run while it goes: which tests have
/// started and ended, and whether one has failed. Each look reads only what
/// was written since the last.
protocol TestRunWatcher: AnyObject {
    /// Reads what was written since the last look, stamping tests started
    /// and ended with `now` (when the harness saw them).
    func poll(at now: Date)
    /// Whether a test has failed so far.
    var sawFailure: Bool { get }
    /// The tests started and ended so far.
    var progress: TestProgress { get }
}

extension TestRunWatcher {
    /// Looks now, and says whether a test has failed so far.
    func hasFailure() -> Bool {
        poll(at: Date())
        return sawFailure
    }
}

/// Watches a Swift Testing event stream while the tests still run, so a
/// run can stop at its first failing test (`mutate explore` needs one
/// failure to call a mutant killed, not all of them) and see which tests
/// are running (`progress`: a hung one stops the run). Reads only the
/// bytes written since the last look.
final class EventStreamWatcher: TestRunWatcher {
    private let url: URL
    private var handle: FileHandle?
    private var pending: [UInt8] = []
    private var suites: Set<String> = []
    private(set) var sawFailure = false
    private(set) var progress = TestProgress()

    init(_ url: URL) {
        self.url = url
    }

    deinit { try? handle?.close() }

    func poll(at now: Date) {
        if handle == nil { handle = FileHandle(forReadingAtPath: url.path) }
        guard let handle, let data = try? handle.readToEnd(), !data.isEmpty else { return }
        pending += data
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Data(pending[..<newline])
            pending.removeSubrange(...newline)
            read(line, at: now)
        }
    }

    private func read(_ line: Data, at now: Date) {
        switch EventStreamReader.line(line) {
        case .suite(let id):
            suites.insert(id)
        case .started(let raw) where !suites.contains(raw):
            progress.started(EventStreamReader.testID(raw), at: now)
        case .ended(let raw) where !suites.contains(raw):
            progress.ended(EventStreamReader.testID(raw), at: now)
        case .failure:
            sawFailure = true
        default:
            break
        }
    }
}

/// Watches the log a directly started XCTest run writes to, for its first
/// `Test Case '...' failed` line (XCTest has no event stream, so this is how
/// its run stops at the first failing test) and for the tests it starts and
/// ends (`progress`). Reads only what was written after `offset` (what the
/// log held before the run).
final class XCTestFailureWatcher: TestRunWatcher {
    private let url: URL
    private var offset: UInt64
    private var pending: [UInt8] = []
    /// Console names (`Class.test` on Linux) of the requested tests, to their ids.
    private let ids: [String: String]
    private(set) var sawFailure = false
    private(set) var progress = TestProgress()

    /// `requested`: the ids (`Module.Class/test`) the run was asked for.
    init(_ url: URL, from offset: Int, requested: [String] = []) {
        self.url = url
        self.offset = UInt64(offset)
        ids = XCTestConsole.consoleNames(of: requested)
    }

    func poll(at now: Date) {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return }
        offset += UInt64(data.count)
        pending += data
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            guard line.hasPrefix("Test Case '") else { continue }
            let rest = line.dropFirst("Test Case '".count)
            guard let quote = rest.firstIndex(of: "'") else { continue }
            let name = String(rest[..<quote])
            let outcome = rest[rest.index(after: quote)...]
            if outcome.hasPrefix(" started") {
                progress.started(ids[name] ?? name, at: now)
            } else if outcome.hasPrefix(" passed") || outcome.hasPrefix(" failed") || outcome.hasPrefix(" skipped") {
                progress.ended(ids[name] ?? name, at: now)
                if outcome.hasPrefix(" failed (") { sawFailure = true }
            }
        }
    }
}
