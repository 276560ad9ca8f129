import CProcessControl
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one `posix_spawn` set-up for every process the harness starts
/// (`ProcessRunner`'s builds and tests, `CapturedCommand`'s helpers): the
/// three standard streams as the caller wires them, SIGINT and SIGTERM back
/// at their defaults with an empty signal mask unless told otherwise (the harness ignores both,
/// since a dispatch source handles them, and a child would inherit that),
/// and, when asked, a process group of its own.
enum Spawn {
    /// Where a standard stream of the child comes from.
    enum Stream {
        /// The file at `path`, opened with `flags` (created with `mode`).
        case open(String, flags: Int32, mode: mode_t = 0o644)
        /// A copy of a descriptor: one of the harness's, or a standard
        /// stream of the child wired before it (stderr into stdout).
        case duplicate(Int32)
    }

    /// Starts `arguments[0]` (a path: nothing is looked up) with `arguments`
    /// as its `argv` and exactly `environment`; the pid, or the `errno`
    /// that `posix_spawn` returned. `blockedSignals`: those the child starts
    /// with blocked (none for the harness's commands; a test starts `mutate`
    /// as a supervisor that blocks SIGINT and SIGTERM would).
    static func start(_ arguments: [String], environment: [String: String], input: Stream, output: Stream, errors: Stream,
                      ownProcessGroup: Bool, blockedSignals: [Int32] = []) -> Result<pid_t, SpawnFailure>
    {
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
        for (target, stream) in [(Int32(0), input), (1, output), (2, errors)] {
            switch stream {
            case let .open(path, flags, mode): posix_spawn_file_actions_addopen(&fileActions, target, path, flags, mode)
            case .duplicate(let source): posix_spawn_file_actions_adddup2(&fileActions, source, target)
            }
        }
        // Nothing but the three streams: a descriptor this process opened
        // without close-on-exec (a library's socket or pipe) would stay open
        // in the command and anything it leaves running.
        #if canImport(Darwin)
        let closeTheRest = POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
        _ = mutate_spawn_close_from(&fileActions, 3)
        let closeTheRest: Int32 = 0
        #endif
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blockedSignals { sigaddset(&mask, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | Int32(closeTheRest)
        if ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let code = posix_spawn(&pid, arguments[0], &fileActions, &attributes, argv, envp)
        return code == 0 ? .success(pid) : .failure(SpawnFailure(code: code))
    }
}

/// `posix_spawn` refused: its error number.
struct SpawnFailure: Error {
    var code: Int32
    var reason: String { String(cString: strerror(code)) }
}
