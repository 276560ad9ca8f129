import Foundation
import Testing
@testable import MutationHarness

/// The helper commands whose output the harness reads (git, `swift package
/// describe`, the syntax-tree dump): both streams in full, the exit status,
/// and no wait on a process the command leaves behind.
struct CapturedCommandTests {
    /// A command that writes a lot to standard error before it writes to
    /// standard output: read one stream to its end before the other and the
    /// command blocks on the full pipe forever.
    @Test func bothStreamsAreReadInFullWhicheverFillsFirst() throws {
        let script = "head -c 200000 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o; echo tail >&2"
        let result = try CapturedCommand.run(["sh", "-c", script])
        #expect(result.status == 0)
        #expect(result.output == Data(repeating: UInt8(ascii: "o"), count: 300_000))
        #expect(result.errors == Data(repeating: UInt8(ascii: "e"), count: 200_000) + Data("tail\n".utf8))
    }

    /// The status, standard error and the folder the command runs in; a
    /// command killed by a signal reports the signal's number; standard input
    /// is empty, so a command that reads it does not wait for a terminal.
    @Test func theStatusTheErrorsAndTheFolder() throws {
        try withScratch { scratch in
            let failed = try CapturedCommand.run(["sh", "-c", "pwd; echo '  oops ' >&2; exit 3"], in: scratch.url)
            #expect(failed.status == 3)
            #expect(String(decoding: failed.output, as: UTF8.self) == scratch.url.resolvingSymlinksInPath().path + "\n"
                || String(decoding: failed.output, as: UTF8.self) == scratch.url.path + "\n")
            #expect(failed.errorText == "oops")
        }
        #expect(try CapturedCommand.run(["sh", "-c", "kill -9 $$"]).status == 128 + 9, "as a shell reports it")
        #expect(try CapturedCommand.run(["sh", "-c", "cat; echo end"]).output == Data("end\n".utf8))
        let missing = try CapturedCommand.run(["no-such-command-here"])
        #expect(missing.status == 127 && missing.errorText.contains("no-such-command-here"))
    }

    /// A command that leaves a process running with its streams open (a
    /// build server, a credential helper) is done when it exits: what it
    /// printed is returned without waiting for the process it left.
    @Test func aProcessLeftRunningDoesNotHoldTheResult() throws {
        let started = Date()
        let result = try CapturedCommand.run(["sh", "-c", "sleep 30 & echo $!; echo started >&2"])
        let elapsed = Date().timeIntervalSince(started)
        let pid = try #require(pid_t(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { sendSignal(pid, SIGKILL) }
        #expect(result.status == 0 && result.errorText == "started")
        #expect(elapsed < 20, "returned after \(elapsed) s: it waited for the process left running (30 s)")
    }
}
