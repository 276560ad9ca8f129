import Foundation

/// Why a run stopped before the mutants.
public enum LabError: Error, Equatable, Sendable, CustomStringConvertible {
    case workspace(String)
    case baselineBuildFailed(firstError: String?, log: String)
    case baselineTestsFailed(tests: [String], message: String?, log: String)
    case baselineTimedOut(log: String)
    case noTests(log: String)
    /// Another run holds the scratch copy's lock.
    case locked(String)
    /// SIGINT or SIGTERM: the run stopped; mutants without a verdict stay pending.
    case interrupted(signal: Int32)

    public var description: String {
        switch self {
        case .workspace(let reason):
            reason
        case let .baselineBuildFailed(error, log):
            "the unmutated package does not build (\(error ?? "see the log")); fix the build first. Log: \(log)"
        case let .baselineTestsFailed(tests, message, log):
            "the unmutated suite is red; fix these tests first: \(tests.isEmpty ? "(the test process crashed)" : tests.joined(separator: ", "))"
                + (message.map { "\n  first failure: \($0)" } ?? "") + "\n  log: \(log)"
        case .baselineTimedOut(let log):
            "the unmutated suite did not finish in time. Log: \(log)"
        case .noTests(let log):
            "the unmutated suite ran no test: a harness needs tests to kill mutants. Log: \(log)"
        case .locked(let root):
            "another mutate run is using the scratch copy \(root); wait for it to finish, pass --wait to queue behind it, or give this run its own --scratch folder"
        case .interrupted(let signal):
            "interrupted by signal \(signal)"
        }
    }
}
