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
