import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended.
enum ProcessTermination: Equatable, Sendable {
    case exited(Int32)
    case signalled(Int32)
    /// Killed (with its whole process group) after the time limit.
    case timedOut
    /// Killed (with its whole process group) because the caller had seen
    /// enough: the first failing test of a run that stops there.
    case stoppedEarly

    var succeeded: Bool { self == .exited(0) }
}

/// The result of one run.
struct ProcessResult: Equatable, Sendable {
    var termination: ProcessTermination
    var seconds: Double
}

/// Runs build and test commands in a process group of their own, output
/// appended to a log file, stdin from /dev/null, SIGINT and SIGTERM at their
/// defaults, with a time limit after which the whole tree is killed (a hung
/// test's helpers die with it). When the user interrupts the run, the
/// command is killed the same way and `run` throws `LabError.interrupted`;
/// when `stopWhen` answers (it is asked every 20 ms), the command is killed
/// and its answer is the result: `.stoppedEarly` when the caller has seen
/// enough, `.timedOut` when a test of it has hung. While it runs, the command's
/// pid is in `running` (the interrupt handler's), and only then. Test
/// seams: `poll` collects the exit, `active` counts the commands running
/// at once (every caller's, by default) and `sweep` is what the last of
/// them does when it ends.
enum ProcessRunner {
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
        stopWhen: (() -> ProcessTermination?)? = nil, running: RunningProcess = ProcessRunner.running,
        poll: (pid_t, UnsafeMutablePointer<Int32>) -> pid_t = ProcessRunner.poll,
        active: Locked<Int> = ProcessRunner.active, sweep: () -> Void = ProcessTree.sweep
    ) throws -> ProcessResult {
        if let signal = Interruption.requested { throw LabError.interrupted(signal: signal) }
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        // `sh` changes into the directory and then becomes the command, so the
        // harness's own working directory never changes.
        let executable = "/bin/sh"
        let command = [executable, "-c", "cd \"$0\" && exec \"$@\"", directory.path, resolve(arguments[0], path: environment["PATH"] ?? "/usr/bin:/bin")]
            + arguments.dropFirst()
        let started = Date()
        // Counted before it exists: a sweep must never catch it starting.
        active.withLock { $0 += 1 }
        // Its own process group, so a kill reaches the test's helpers too.
        let pid: pid_t
        switch Spawn.start(command, environment: environment, input: .open("/dev/null", flags: O_RDONLY),
                           output: .open(log.path, flags: O_WRONLY | O_APPEND), errors: .duplicate(1), ownProcessGroup: true)
        {
        case .success(let started): pid = started
        case .failure(let failure):
            active.withLock { $0 -= 1 }
            throw ProcessRunnerError(command: arguments.joined(separator: " "), reason: failure.reason)
        }
        running.set(pid)
        defer { running.set(0) }

        var status: Int32 = 0
        var cutShort: ProcessTermination?
        var steps = WaitSteps(longest: 20)
        while true {
            let result = poll(pid, &status)
            if result == pid { break }
            if result == -1 && errno != EINTR { break }
            if Interruption.requested != nil {
                cutShort = .signalled(SIGKILL)
            } else if timeout.map({ Date().timeIntervalSince(started) > $0 }) ?? false {
                cutShort = .timedOut
            } else if let answer = stopWhen?() {
                cutShort = answer
            }
            if cutShort != nil {
                ProcessTree.kill(root: pid)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(useconds_t(steps.next()) * 1_000)
        }
        let seconds = Date().timeIntervalSince(started)
        ProcessTree.kill(root: pid) // helpers left behind by the finished command
        // The sweep kills and reaps every descendant of the harness: only the
        // last of commands that run at once (the coverage pass's) may do it,
        // and under the lock, so no other command starts (and is killed, or
        // has its exit reaped) while it runs.
        active.withLock { count in
            count -= 1
            if count == 0 { sweep() }
        }
        if let signal = Interruption.requested { throw LabError.interrupted(signal: signal) }
        if let cutShort { return ProcessResult(termination: cutShort, seconds: seconds) }
        let termination: ProcessTermination = (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        return ProcessResult(termination: termination, seconds: seconds)
    }

    /// Commands (and helper commands) running now on any thread.
    static let active = Locked(0)

    /// Collects `pid`'s exit if it has ended (`waitpid` without waiting).
    /// Tests pass one that lets another waiter collect it first.
    static func poll(_ pid: pid_t, _ status: UnsafeMutablePointer<Int32>) -> pid_t {
        waitpid(pid, status, WNOHANG)
    }

    /// The command running now (0: none), for the interrupt handler.
    static let running = RunningProcess()

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
struct ProcessRunnerError: Error, CustomStringConvertible {
    var command: String
    var reason: String
    var description: String { "cannot run '\(command)': \(reason)" }
}

/// The pid of the command running now, shared with the signal handler.
final class RunningProcess: Sendable {
    private let pid = Locked<pid_t>(0)

    func set(_ value: pid_t) { pid.set(value) }

    var current: pid_t { pid.value }
}
