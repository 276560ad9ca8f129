import Foundation

/// Watches a Swift Testing event stream while the tests still run, so a
/// run can stop at its first failing test (`mutate explore` needs one
/// failure to call a mutant killed, not all of them). Reads only the bytes
/// written since the last look.
final class EventStreamWatcher {
    private let url: URL
    private var handle: FileHandle?
    private var pending: [UInt8] = []
    private(set) var sawFailure = false

    init(_ url: URL) {
        self.url = url
    }

    deinit { try? handle?.close() }

    /// Whether a test has recorded a failing issue so far.
    func hasFailure() -> Bool {
        guard !sawFailure else { return true }
        if handle == nil { handle = FileHandle(forReadingAtPath: url.path) }
        guard let handle, let data = try? handle.readToEnd(), !data.isEmpty else { return false }
        pending += data
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Data(pending[..<newline])
            pending.removeSubrange(...newline)
            if EventStreamReader.failingIssue(in: line) != nil {
                sawFailure = true
                return true
            }
        }
        return false
    }
}

/// Watches the log a directly started XCTest run writes to, for its first
/// `Test Case '...' failed` line: XCTest has no event stream, so this is how
/// its run stops at the first failing test. Reads only what was written
/// after `offset` (what the log held before the run).
final class XCTestFailureWatcher {
    private let url: URL
    private var offset: UInt64
    private var pending: [UInt8] = []
    private(set) var sawFailure = false

    init(_ url: URL, from offset: Int) {
        self.url = url
        self.offset = UInt64(offset)
    }

    func hasFailure() -> Bool {
        guard !sawFailure else { return true }
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return false }
        offset += UInt64(data.count)
        pending += data
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            if line.hasPrefix("Test Case '"), line.contains("' failed (") {
                sawFailure = true
                return true
            }
        }
        return false
    }
}
