import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended.
public enum ProcessTermination: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)
    /// Killed (with its whole process group) after the time limit.
    case timedOut

    public var succeeded: Bool { self == .exited(0) }
}

/// The result of one run.
public struct ProcessResult: Equatable, Sendable {
    public var termination: ProcessTermination
    public var seconds: Double
}

/// Runs build and test commands in a process group of their own, output
/// appended to a log file, stdin from /dev/null, with a time limit after which the whole
/// group is killed (a hung test's helpers die with it).
public enum ProcessRunner {
    /// The process group of the child running now, for the interrupt handler.
    nonisolated(unsafe) static var currentGroup: pid_t = 0

    public static func run(
        _ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?
    ) throws -> ProcessResult {
        if !FileManager.default.fileExists(atPath: log.path) {
            FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        var fileActions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&fileActions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&fileActions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, log.path, O_WRONLY | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&fileActions, 1, 2)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        // `sh` changes into the directory and then becomes the command, so the
        // harness's own working directory never changes.
        let executable = "/bin/sh"
        let command = [executable, "-c", "cd \"$0\" && exec \"$@\"", directory.path, resolve(arguments[0], path: environment["PATH"] ?? "/usr/bin:/bin")]
            + arguments.dropFirst()
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let started = Date()
        let code = posix_spawn(&pid, executable, &fileActions, &attributes, argv, envp)
        guard code == 0 else {
            throw ProcessRunnerError(command: arguments.joined(separator: " "), reason: String(cString: strerror(code)))
        }
        currentGroup = pid
        defer { currentGroup = 0 }

        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result == -1 && errno != EINTR { break }
            if let timeout, Date().timeIntervalSince(started) > timeout {
                killGroup(pid)
                return ProcessResult(termination: .timedOut, seconds: Date().timeIntervalSince(started))
            }
            usleep(20_000)
        }
        let seconds = Date().timeIntervalSince(started)
        kill(-pid, SIGKILL) // helpers left behind by the finished command
        let termination: ProcessTermination = (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        return ProcessResult(termination: termination, seconds: seconds)
    }

    /// SIGTERM to the group, then SIGKILL, then reap.
    static func killGroup(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
    }

    private static func resolve(_ command: String, path: String) -> String {
        guard !command.contains("/") else { return command }
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(command)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return command
    }
}

/// A command that could not be started.
public struct ProcessRunnerError: Error, CustomStringConvertible {
    public var command: String
    public var reason: String
    public var description: String { "cannot run '\(command)': \(reason)" }
}
