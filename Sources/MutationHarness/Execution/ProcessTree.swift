import CProcessControl
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding and killing the processes a build or test command started.
///
/// `swift test` starts its runner in a process group of its own, and children
/// started with Foundation's `Process` block SIGTERM, so neither a group kill
/// nor SIGTERM is enough: every descendant gets SIGKILL. A descendant whose
/// parent died first would be re-parented to init and escape the walk; the
/// `mutate` command therefore makes itself a child subreaper (Linux), so
/// orphans come back to it and `sweep()` finds them.
enum ProcessTree {
    /// Set by the command (not by tests that run the harness in-process):
    /// every descendant of this process belongs to the harness.
    static var ownsAllDescendants: Bool { owns.value }
    private static let owns = Locked(false)

    /// Makes orphans of our commands our children (Linux), so no descendant
    /// can escape a kill by being re-parented to init.
    static func adoptOrphans() {
        _ = mutate_become_child_subreaper()
        owns.set(true)
    }

    /// SIGKILL to `root`'s group and every live descendant, repeated until
    /// none is left (a process may fork while we walk). A root of 0 or 1 (no
    /// command running, or init) is refused: `kill(0)` and `kill(-1)` would
    /// reach this process's own group or every process the user owns.
    /// `send` delivers each signal (tests record them instead).
    static func kill(root: pid_t, send: (pid_t, Int32) -> Int32 = sendSignal) {
        guard root > 1 else { return }
        var known: Set<pid_t> = []
        for _ in 0..<50 {
            let tree = descendants(of: root)
            known.formUnion(tree)
            _ = send(-root, SIGKILL)
            _ = send(root, SIGKILL)
            let alive = known.filter(isAlive)
            if alive.isEmpty { return }
            for pid in alive {
                _ = send(pid, SIGKILL)
                _ = send(-pid, SIGKILL)
            }
            usleep(5_000)
        }
    }

    /// Kills every live descendant of this process (only when the command
    /// owns them all), then reaps the orphans that were re-parented to it.
    static func sweep() {
        guard ownsAllDescendants else { return }
        for _ in 0..<50 {
            let alive = descendants(of: getpid())
            if alive.isEmpty { break }
            for pid in alive { sendSignal(pid, SIGKILL) }
            reapOrphans()
            usleep(5_000)
        }
        reapOrphans()
    }

    /// Collects exited children without waiting (only when the command owns them all).
    static func reapOrphans() {
        guard ownsAllDescendants else { return }
        var status: Int32 = 0
        while waitpid(-1, &status, WNOHANG) > 0 {}
    }

    /// Every live (not zombie) process below `pid`.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for entry in table() where entry.alive { children[entry.parent, default: []].append(entry.pid) }
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

    static func isAlive(_ pid: pid_t) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return false
        }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
        #else
        return sendSignal(pid, 0) == 0
        #endif
    }

    /// (pid, parent pid, not a zombie) of every process: `/proc` on Linux, `ps` elsewhere.
    static func table() -> [(pid: pid_t, parent: pid_t, alive: Bool)] {
        #if os(Linux)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")")
            else { return nil }
            // "pid (command) state ppid ...": the command may hold spaces.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { return nil }
            return (pid, parent, fields[0] != "Z")
        }
        #else
        guard let result = try? CapturedCommand.run(["ps", "-A", "-o", "pid=", "-o", "ppid=", "-o", "stat="]) else { return [] }
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let pid = pid_t(fields[0]), let parent = pid_t(fields[1]) else { return nil }
            return (pid, parent, !fields[2].hasPrefix("Z"))
        }
        #endif
    }
}

/// `kill(2)`, under a name that does not clash with `ProcessTree.kill(root:)`.
@inline(__always)
@discardableResult
func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.kill(pid, signal)
    #else
    Darwin.kill(pid, signal)
    #endif
}
