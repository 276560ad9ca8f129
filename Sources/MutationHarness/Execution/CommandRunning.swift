import Foundation

/// Runs one build or test command for the lab and reports how it ended.
/// The lab's loop (apply, build, test, restore, classify) depends on this
/// seam only, so its tests drive it with a script instead of a toolchain.
protocol CommandRunning {
    func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?) throws -> ProcessResult
}

/// The real one: the command in a process group of its own (`ProcessRunner`).
struct ToolchainRunner: CommandRunning {
    func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?) throws -> ProcessResult {
        try ProcessRunner.run(arguments, in: directory, environment: environment, log: log, timeout: timeout)
    }
}
