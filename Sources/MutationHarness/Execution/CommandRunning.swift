import Foundation

/// Runs one build or test command for the lab and reports how it ended.
/// The lab's loop (apply, build, test, restore, classify) depends on this
/// seam only, so its tests drive it with a script instead of a toolchain.
protocol CommandRunning {
    /// Runs `arguments`; `stopWhen`, if given, is asked while the command
    /// runs and ends it when it answers: its answer (`.stoppedEarly`,
    /// `.timedOut`) is how the command ended.
    func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
             stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult

    /// The first line `swift --version` prints (`swift`: the configured
    /// command), nil when it cannot be had. It is in every incremental
    /// key, so it comes through the seam: a probe that fails under load
    /// must not make a test's results file look stale. `environment`: the
    /// scratch copy's (its `TMPDIR`).
    func toolchainVersion(swift: String, environment: [String: String]) -> String?
}

extension CommandRunning {
    func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?) throws -> ProcessResult {
        try run(arguments, in: directory, environment: environment, log: log, timeout: timeout, stopWhen: nil)
    }
}

/// The real one: the command in a process group of its own (`ProcessRunner`).
struct ToolchainRunner: CommandRunning {
    func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
             stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult
    {
        try ProcessRunner.run(arguments, in: directory, environment: environment, log: log, timeout: timeout, stopWhen: stopWhen)
    }

    func toolchainVersion(swift: String, environment: [String: String]) -> String? {
        Lab.firstLine(of: [swift, "--version"], environment: environment)
    }
}
