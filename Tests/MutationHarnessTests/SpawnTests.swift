import Foundation
import Testing
@testable import MutationHarness

/// What every process the harness starts gets from `Spawn`: no signal
/// blocked (a test under a blocked SIGTERM could not be stopped), and a
/// process group of its own only when asked (the kill walk ends a build's
/// group). The reset of SIGINT and SIGTERM to their defaults is checked on
/// the real executable, which ignores both (`InterruptTests`).
@Suite(.ownThread)
struct SpawnTests {
    /// Starts `script` under `/bin/sh` with SIGUSR2 and SIGTERM blocked on
    /// this thread (which a child inherits unless told otherwise), waits for
    /// it, and returns its pid and its output.
    private func spawn(_ script: String, ownProcessGroup: Bool, in scratch: Scratch) throws -> (pid: pid_t, output: String) {
        let output = scratch.url.appendingPathComponent("output-\(ownProcessGroup)")
        var blocked = sigset_t(), before = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR2)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        let started = Spawn.start(["/bin/sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"], input: .open("/dev/null", flags: O_RDONLY),
                                  output: .open(output.path, flags: O_WRONLY | O_CREAT | O_TRUNC), errors: .duplicate(1),
                                  ownProcessGroup: ownProcessGroup)
        pthread_sigmask(SIG_SETMASK, &before, nil)
        let pid = try started.get()
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return (pid, try String(contentsOf: output, encoding: .utf8))
    }

    #if os(Linux)
    @Test(arguments: [true, false])
    func aChildHasNoSignalBlockedAndItsOwnGroupOnlyWhenAsked(ownGroup: Bool) throws {
        try withScratch { scratch in
            // The fifth field of /proc/PID/stat is the process group.
            let (pid, output) = try spawn("grep SigBlk /proc/self/status; exec cut -d' ' -f5 /proc/self/stat", ownProcessGroup: ownGroup, in: scratch)
            let lines = output.split(separator: "\n").map(String.init)
            #expect(lines.first == "SigBlk:\t0000000000000000", "\(output)")
            #expect(lines.last == String(ownGroup ? pid : getpgrp()), "\(output) (child \(pid), this process's group \(getpgrp()))")
        }
    }

    /// Signals asked to be blocked are the child's whole mask: what a test
    /// needs to start `mutate` as a supervisor that blocks SIGINT would.
    @Test func aChildStartsWithTheSignalsAskedBlockedAndNoOther() throws {
        try withScratch { scratch in
            let output = scratch.url.appendingPathComponent("mask")
            let pid = try Spawn.start(["/bin/sh", "-c", "exec grep SigBlk /proc/self/status"], environment: ["PATH": "/usr/bin:/bin"],
                                      input: .open("/dev/null", flags: O_RDONLY), output: .open(output.path, flags: O_WRONLY | O_CREAT | O_TRUNC),
                                      errors: .duplicate(1), ownProcessGroup: false, blockedSignals: [SIGUSR2]).get()
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            // SIGUSR2 is 12: bit 11.
            #expect(try String(contentsOf: output, encoding: .utf8) == "SigBlk:\t0000000000000800\n")
        }
    }
    #endif

    /// A program that cannot be started is the `errno` of `posix_spawn`, with its reason.
    @Test func aProgramThatCannotStartIsItsErrorNumber() throws {
        try withScratch { scratch in
            let missing = scratch.url.appendingPathComponent("no-such-program").path
            let result = Spawn.start([missing], environment: [:], input: .open("/dev/null", flags: O_RDONLY), output: .open("/dev/null", flags: O_WRONLY),
                                     errors: .duplicate(1), ownProcessGroup: false)
            guard case .failure(let failure) = result else { Issue.record("\(result) started"); return }
            #expect(failure.code == ENOENT)
            #expect(failure.reason == String(cString: strerror(ENOENT)))
        }
    }
}
