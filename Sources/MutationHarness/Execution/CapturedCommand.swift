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
    /// Runs `arguments` (the first one looked up on `PATH` by `/usr/bin/env`)
    /// in `directory` (the current one when nil), with standard input empty
    /// and the harness's environment. `makePipe` opens each of the two pipes
    /// (tests pass one that fails).
    static func run(_ arguments: [String], in directory: URL? = nil, grace: Double = 1,
                    makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = mutate_pipe_cloexec) throws -> CapturedOutput
    {
        let command = arguments.joined(separator: " ")
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard makePipe(&outputPipe) == 0, makePipe(&errorPipe) == 0 else {
            let reason = String(cString: strerror(errno))
            for fd in outputPipe + errorPipe where fd >= 0 { close(fd) }
            throw ProcessRunnerError(command: command, reason: "no pipe for its output: \(reason)")
        }
        var readEnds = [outputPipe[0], errorPipe[0]]
        defer { for fd in readEnds where fd >= 0 { close(fd) } }

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
        posix_spawn_file_actions_adddup2(&fileActions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&fileActions, errorPipe[1], 2)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let shell = "/bin/sh"
        let words: [String] = [shell, "-c", "cd \"$0\" && exec /usr/bin/env \"$@\"", directory?.path ?? "."] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, shell, &fileActions, &attributes, argv, envp)
        close(outputPipe[1])
        close(errorPipe[1])
        guard code == 0 else { throw ProcessRunnerError(command: command, reason: String(cString: strerror(code))) }

        var collected = [Data(), Data()]
        var status: Int32 = 0
        var exitedAt: Date?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while readEnds.contains(where: { $0 >= 0 }) || exitedAt == nil {
            if exitedAt == nil {
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid || (reaped == -1 && errno == ECHILD) {
                    if reaped != pid { status = -1 }
                    exitedAt = Date()
                }
            }
            if let exitedAt, Date().timeIntervalSince(exitedAt) >= grace { break }
            var polled = readEnds.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if polled.isEmpty {
                usleep(10_000)
                continue
            }
            _ = poll(&polled, nfds_t(polled.count), 50)
            for entry in polled where entry.revents != 0 {
                guard let index = readEnds.firstIndex(of: entry.fd) else { continue }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index].append(contentsOf: buffer[..<count])
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    readEnds[index] = -1
                }
            }
        }
        let exitStatus: Int32
        if status == -1 {
            exitStatus = -1
        } else if status & 0x7F == 0 {
            exitStatus = (status >> 8) & 0xFF
        } else {
            exitStatus = 128 + (status & 0x7F)
        }
        return CapturedOutput(status: exitStatus, output: collected[0], errors: collected[1])
    }
}
