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
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        #if canImport(Darwin)
        var fileActions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var fileActions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
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

    /// SIGTERM, then SIGKILL, to the group and to every descendant, then
    /// reap. Descendants matter: `swift test` starts the test runner in a
    /// process group of its own, which a group kill alone would leave running.
    static func killGroup(_ pid: pid_t) {
        let tree = descendants(of: pid)
        func signalAll(_ signal: Int32) {
            kill(-pid, signal)
            for child in tree {
                kill(child, signal)
                kill(-child, signal)
            }
        }
        signalAll(SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(20_000)
        }
        signalAll(SIGKILL)
        _ = waitpid(pid, &status, 0)
    }

    /// Every process below `pid`: from `/proc` on Linux, from `ps` elsewhere.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for (child, parent) in parentTable() { children[parent, default: []].append(child) }
        var result: [pid_t] = []
        var pending = [pid]
        while let next = pending.popLast() {
            for child in children[next] ?? [] where !result.contains(child) {
                result.append(child)
                pending.append(child)
            }
        }
        return result
    }

    /// (pid, parent pid) of every process.
    static func parentTable() -> [(pid_t, pid_t)] {
        #if os(Linux)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (pid_t, pid_t)? in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")")
            else { return nil }
            // "pid (command) state ppid ...": the command may hold spaces.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { return nil }
            return (pid, parent)
        }
        #else
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/ps")
        process.arguments = ["-A", "-o", "pid=", "-o", "ppid="]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").compactMap { pid_t($0) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
        #endif
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
