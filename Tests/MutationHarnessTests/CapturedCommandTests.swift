import Foundation
import Testing
import CProcessControl
@testable import MutationHarness

/// The helper commands whose output the harness reads (git, `swift package
/// describe`, the syntax-tree dump): both streams in full, the exit status,
/// and no wait on a process the command leaves behind.
@Suite(.ownThread)
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

    /// A helper command stays in the harness's process group, so a Ctrl-C
    /// at the terminal reaches it as it reaches the harness (a group of its
    /// own would leave a `git` or a syntax-tree dump running after it).
    /// A command inherits the three streams and nothing else: a descriptor
    /// this process opened without close-on-exec (another library's file
    /// or socket; in the tests' process, another test's) is not open in it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "reads descriptors from /proc"))
    func aCommandInheritsOnlyTheThreeStreams() throws {
        try withScratch { scratch in
            try scratch.write("ours", "")
            let ours = scratch.url.appendingPathComponent("ours").path
            let descriptor = open(ours, O_RDONLY) // no O_CLOEXEC
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let result = try CapturedCommand.run(["sh", "-c", #"for fd in /proc/$$/fd/*; do readlink "$fd"; done; true"#])
            let open = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(result.status == 0 && !open.isEmpty)
            #expect(!open.contains(ours), "the command holds \(ours), opened by the harness's process: \(open)")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "reads the process group from /proc"))
    func aHelperCommandIsInTheHarnesssProcessGroup() throws {
        let result = try CapturedCommand.run(["sh", "-c", "cut -d' ' -f5 /proc/$$/stat"])
        #expect(String(decoding: result.output, as: UTF8.self) == "\(getpgrp())\n")
    }

    /// A finished command leaves no descriptor of its pipes open (a leak of
    /// two per command ends a coverage pass in "Too many open files").
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "reads descriptors from /proc"))
    func aFinishedCommandLeavesNoDescriptorOfItsPipesOpen() throws {
        var ours: [Int32] = []
        let makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = { ends in
            let code = mutate_pipe_cloexec(ends)
            ours.append(fcntl(ends[0], F_DUPFD_CLOEXEC, 0)) // the test's own handle, to find the pipe by afterwards
            return code
        }
        _ = try CapturedCommand.run(["sh", "-c", "echo out; echo err >&2"], makePipe: makePipe)
        defer { ours.forEach { close($0) } }
        let manager = FileManager.default
        let open = try manager.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
        #expect(ours.count == 2)
        for descriptor in ours {
            let pipe = try manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
            #expect(open.filter { $0 == pipe }.count == 1, "only the test's own handle on \(pipe) is left")
        }
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

    /// Once the result is in, nothing reads the streams any more: a process
    /// left running that writes later is refused (the harness keeps no
    /// descriptor open for it), rather than filling a pipe nobody reads.
    @Test func aProcessLeftRunningCannotWriteAfterTheResult() throws {
        try withScratch { scratch in
            let script = #"(trap '' PIPE; sleep 1; echo late 2>/dev/null; echo $? > "$0/after") & echo started"#
            let result = try CapturedCommand.run(["sh", "-c", script, scratch.url.path], grace: 0.2)
            #expect(result.output == Data("started\n".utf8))
            let after = scratch.url.appendingPathComponent("after")
            for _ in 0..<200 where !FileManager.default.fileExists(atPath: after.path) { usleep(50_000) }
            usleep(50_000)
            let status = try String(contentsOf: after, encoding: .utf8)
            #expect(status != "0\n" && !status.isEmpty, "the late write went into a stream the harness still held open")
        }
    }

    /// No pipe for the output (the process is out of descriptors): the
    /// command is not started, the error says why, and the pipe already made
    /// is closed, both of its ends.
    @Test func noPipeIsAClearErrorAndLeavesNothingOpen() throws {
        for end in 0...1 {
            var kept: Int32 = -1
            var calls = 0
            let makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = { ends in
                calls += 1
                guard calls == 1 else {
                    errno = EMFILE
                    return -1
                }
                let made = mutate_pipe_cloexec(ends)
                kept = dup(ends[end])
                return made
            }
            #expect {
                _ = try CapturedCommand.run(["sh", "-c", "echo never"], makePipe: makePipe)
            } throws: { error in
                "\(error)" == "cannot run 'sh -c echo never': no pipe for its output: \(String(cString: strerror(EMFILE)))"
            }
            defer { close(kept) }
            try #require(kept >= 0)
            var entry = pollfd(fd: kept, events: Int16(end == 0 ? POLLIN : POLLOUT), revents: 0)
            let ready = poll(&entry, 1, 1_000)
            #expect(ready == 1, "the kept end of the pipe made first is still waiting: the other end was left open")
            if ready != 1 {
                continue
            } else if end == 0 {
                var byte: UInt8 = 0
                #expect(read(kept, &byte, 1) == 0, "end of stream: the write end was closed")
            } else {
                #expect(entry.revents & Int16(POLLERR) != 0, "no reader left: the read end was closed")
            }
        }
    }

    /// A single byte is output like any other; standard input is /dev/null
    /// unless a file is given.
    @Test func aSingleByteAndAnEmptyStandardInput() throws {
        let bytes = try CapturedCommand.run(["sh", "-c", "printf x; printf y >&2"])
        #expect(bytes.output == Data("x".utf8) && bytes.errors == Data("y".utf8))
        #if os(Linux)
        #expect(try CapturedCommand.run(["readlink", "/proc/self/fd/0"]).output == Data("/dev/null\n".utf8))
        #endif
        try withScratch { scratch in
            try scratch.write("input", "from a file\n")
            let path = scratch.url.appendingPathComponent("input").path
            #expect(try CapturedCommand.run(["cat"], input: path).output == Data("from a file\n".utf8), "the command's own standard input")
        }
    }

    /// What a process left running prints within the grace period is kept;
    /// with no grace, what the pipes already hold when the command exits is
    /// still read.
    @Test func outputWithinTheGraceAndWhatThePipesHoldAtExit() throws {
        let later = try CapturedCommand.run(["sh", "-c", "(sleep 0.3; echo later) & echo now"], grace: 10)
        #expect(later.output == Data("now\nlater\n".utf8))
        // The first look at the command finds it gone, its output unread in the pipes.
        let held = try CapturedCommand.run(["sh", "-c", "echo held; echo too >&2"], grace: 0, reap: { waitpid($0, $1, 0) })
        #expect(held == CapturedOutput(status: 0, output: Data("held\n".utf8), errors: Data("too\n".utf8)))
    }

    /// A command that cannot be started is an error that names it; an exit
    /// another waiter collected first gives status -1 and the output in full.
    @Test func aCommandThatCannotStartAndAnExitCollectedElsewhere() throws {
        #expect {
            _ = try CapturedCommand.run(["true"], shell: "/no/such/shell")
        } throws: { error in
            "\(error)" == "cannot run 'true': \(String(cString: strerror(ENOENT)))"
        }
        let collectedElsewhere = try CapturedCommand.run(["sh", "-c", "echo hi"], reap: { pid, status in
            _ = waitpid(pid, status, 0)
            errno = ECHILD
            return -1
        })
        #expect(collectedElsewhere == CapturedOutput(status: -1, output: Data("hi\n".utf8), errors: Data()))
        // A wait interrupted by a signal (EINTR) is tried again: the status is the command's, not unknown.
        var looks = 0
        let retried = try CapturedCommand.run(["sh", "-c", "echo hi; exit 5"], reap: { pid, status in
            looks += 1
            if looks == 1 {
                errno = EINTR
                return -1
            }
            return waitpid(pid, status, 0)
        })
        #expect(retried == CapturedOutput(status: 5, output: Data("hi\n".utf8), errors: Data()))
    }
}
