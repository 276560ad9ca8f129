@testable import MutationHarness

/// What a lab printed, line by line, from whichever thread printed it.
final class OutputBox: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var text: String { lines.value.joined(separator: "\n") }
}
