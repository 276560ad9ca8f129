import CProcessControl
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a helper command printed and how it ended.
struct CapturedOutput: Equatable, Sendable {
    /// The exit status; 128 + the signal's number when a signal ended the
    /// command (as a shell reports it); -1 when the exit could not be
    /// collected.
    var status: Int32
    /// Standard output.
    var output: Data
    /// Standard error.
    var errors: Data

    /// Standard error as text, trimmed, for an error message.
    var errorText: String {
        String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs the short helper commands whose output the harness reads (git,
/// `swift package describe`, the compiler's syntax-tree dump, version
/// probes) and collects both streams.
///
/// Both streams are read together, so a command that fills one of them
/// while the other is still open cannot block. The command is done when it
/// exits: a process it left running that still holds the streams (a build
/// server, a credential helper) is waited for at most `grace` seconds, and
/// the output is what was printed up to then. (Foundation's `Process` is not
/// used: it learns of the exit only when every process holding the child's
/// descriptors has closed them.) SIGINT and SIGTERM are at their defaults in
/// the command, which stays in the harness's process group, so a Ctrl-C at
/// the terminal reaches it too.
enum CapturedCommand {
    /// How long the loop waits for output before it looks at the command
    /// again, in ms.
    static let pollInterval: Int32 = 50

    /// Runs `arguments` (the first one looked up on `PATH` by `/usr/bin/env`)
    /// in `directory` (the current one when nil), with standard input from
    /// `input` (empty by default) and `environment` (the harness's own when
    /// nil; a toolchain command is given the scratch copy's, so the folder
    /// the driver leaves in `TMPDIR` is not left in the user's). Test seams:
    /// `makePipe` opens each of the two pipes, `shell` starts the command,
    /// `reap` collects its exit (`waitpid` without waiting).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil, input: String = "/dev/null", grace: Double = 1,
                    makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = mutate_pipe_cloexec, shell: String = "/bin/sh",
                    reap: (pid_t, UnsafeMutablePointer<Int32>) -> pid_t = ProcessRunner.poll) throws -> CapturedOutput
    {
        // A sweep by a command that ends meanwhile must not reap this one.
        ProcessRunner.active.withLock { $0 += 1 }
        defer { ProcessRunner.active.withLock { $0 -= 1 } }
        let command = arguments.joined(separator: " ")
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard makePipe(&outputPipe) == 0, makePipe(&errorPipe) == 0 else {
            let reason = String(cString: strerror(errno))
            for fd in outputPipe + errorPipe where fd != -1 { close(fd) }
            throw ProcessRunnerError(command: command, reason: "no pipe for its output: \(reason)")
        }
        var streams = Streams(readEnds: [outputPipe[0], errorPipe[0]])
        defer { streams.closeAll() }
        // In the harness's process group, so a Ctrl-C at the terminal reaches it too.
        let spawned = Spawn.start([shell, "-c", "cd \"$0\" && exec /usr/bin/env \"$@\"", directory?.path ?? "."] + arguments,
                                  environment: environment ?? ProcessInfo.processInfo.environment, input: .open(input, flags: O_RDONLY),
                                  output: .duplicate(outputPipe[1]), errors: .duplicate(errorPipe[1]), ownProcessGroup: false)
        close(outputPipe[1])
        close(errorPipe[1])
        let pid = try spawned.mapError { ProcessRunnerError(command: command, reason: $0.reason) }.get()

        var status: Int32 = -1
        var exitedAt: Date?
        var steps = WaitSteps(longest: pollInterval)
        while streams.areOpen || exitedAt == nil {
            if exitedAt == nil {
                var raw: Int32 = 0
                let reaped = reap(pid, &raw)
                if reaped == pid {
                    status = exitStatus(raw)
                    exitedAt = Date()
                } else if reaped == -1 && errno != EINTR {
                    exitedAt = Date() // another waiter collected it: the status is unknown
                }
            }
            if let exitedAt, Date().timeIntervalSince(exitedAt) >= grace {
                streams.take(waiting: 0) // what the pipes already hold
                break
            }
            // With both streams closed, only the wait for the exit: in short steps, since it is near.
            streams.take(waiting: streams.areOpen ? pollInterval : steps.next())
        }
        return CapturedOutput(status: status, output: streams.collected[0], errors: streams.collected[1])
    }

    /// A wait status as a shell reports it: the exit code, or 128 + the signal.
    static func exitStatus(_ raw: Int32) -> Int32 {
        raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }

    /// The read ends of the two pipes and what came through them.
    private struct Streams {
        /// Standard output's and standard error's; nil once closed.
        var readEnds: [Int32?]
        var collected = [Data(), Data()]

        var areOpen: Bool { readEnds.contains { $0 != nil } }

        /// Reads what the open streams hold, waiting up to `timeout` ms for
        /// the first byte (with no stream open, it only waits); a stream at
        /// its end is closed.
        mutating func take(waiting timeout: Int32) {
            var polled = readEnds.compactMap { $0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), timeout) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            for entry in polled where entry.revents != 0 {
                guard let index = readEnds.firstIndex(of: entry.fd) else { continue }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index].append(contentsOf: buffer[..<count])
                } else {
                    close(entry.fd)
                    readEnds[index] = nil
                }
            }
        }

        mutating func closeAll() {
            for fd in readEnds.compactMap({ $0 }) { close(fd) }
            readEnds = [nil, nil]
        }
    }
}
