import Foundation
import Testing
@testable import MutationHarness

/// Ctrl-C and SIGTERM on the real `mutate` executable, with a stand-in
/// `swift` (`MUTATE_SWIFT`) that never builds anything: it starts a
/// grandchild in a session of its own and hangs. Nothing here spawns a
/// toolchain, so unlike `HarnessInterruptTests` these tests also run
/// inside a mutate run, where they guard the signal handler and the kill walk.
@Suite(.serialized, .ownThread)
struct InterruptTests {
    /// A `swift` that answers the version probe (or, `atProbe`, hangs there)
    /// and otherwise hangs with a grandchild a process-group kill would miss.
    /// Both write their pids, so the test can find (and end) whatever the run
    /// leaves behind.
    private func hangingSwift(in folder: URL, atProbe: Bool = false) throws -> URL {
        let script = folder.appendingPathComponent("swift-hanging")
        try writeExecutable("""
            #!/bin/sh
            dir="\(folder.path)"
            if [ "$1" = "--version" ]; then
                \(atProbe ? "echo $$ > \"$dir/child.pid\"; touch \"$dir/held\"; exec sleep 300" : "")
                echo "Swift version 6.3.1 (stand-in)"; exit 0
            fi
            setsid sleep 300 >/dev/null 2>&1 &
            echo $! > "$dir/grandchild.pid"
            echo $$ > "$dir/child.pid"
            touch "$dir/held"
            exec sleep 300

            """, to: script)
        return script
    }

    private struct Ended {
        var status: Int32
        var reason: Process.TerminationReason
        var errors: String
        var output: String
        /// The stand-in's processes still alive when `mutate` had ended.
        var leftovers: [pid_t]
    }

    /// Runs `mutate` (`command`: a named mutant, or explore) on the fixture
    /// until `reached` holds, sends `signal`, and returns how it ended; the
    /// package must come out untouched.
    private func interrupt(in scratch: Scratch, with signal: Int32, environment: [String: String],
                           command: [String] = ["--mutant", "add-subtracts"], hangAtProbe: Bool = false,
                           until reached: (URL) -> Bool) throws -> Ended {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        let package = try copyFixture(to: scratch)
        let before = Scratch.snapshot(of: package)
        let swift = try hangingSwift(in: scratch.url, atProbe: hangAtProbe)
        let logs = scratch.url.appendingPathComponent("run")
        let process = try launch(
            command + ["--package-path", "Tiny", "--scratch", scratch.url.appendingPathComponent("copy").path,
                       "--output", scratch.url.appendingPathComponent("report").path],
            in: scratch.url, environment: environment.merging(["MUTATE_SWIFT": swift.path]) { $1 }, logs: logs
        )
        let read = { (suffix: String) in (try? String(contentsOf: logs.appendingPathExtension(suffix), encoding: .utf8)) ?? "" }
        _ = waitUntil(60) { reached(logs) || hasEnded(process) }
        try #require(reached(logs), "the run reached the phase: \(read("out")) \(read("err"))")
        kill(process.processIdentifier, signal)
        let stopped = waitUntil(45) { hasEnded(process) }
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        // End what the run left behind before waiting: Foundation sees the
        // exit only once no descendant holds the child's descriptors.
        let leftovers = ["child.pid", "grandchild.pid"].compactMap { readPID(scratch.url.appendingPathComponent($0)) }
            .filter(ProcessTree.isAlive)
        leftovers.forEach { kill($0, SIGKILL) }
        process.waitUntilExit()
        #expect(stopped, "mutate ended after the signal")
        #expect(Scratch.snapshot(of: package) == before, "the package is untouched")
        #expect(leftovers.isEmpty, "no process of the run is left: \(leftovers)")
        #expect(survivors(mentioning: [swift.path]).isEmpty, "no process of the run is left")
        return Ended(status: process.terminationStatus, reason: process.terminationReason, errors: read("err"), output: read("out"),
                     leftovers: leftovers)
    }

    @Test(.timeLimit(.minutes(2)), arguments: [(SIGINT, ["--mutant", "add-subtracts"]), (SIGTERM, ["--mutant", "add-subtracts"]), (SIGINT, ["explore"])])
    func aSignalDuringABuildEndsIn130WithTheBuildAndItsGrandchildKilled(signal: Int32, command: [String]) throws {
        try withScratch { scratch in
        let ended = try interrupt(in: scratch, with: signal, environment: [:], command: command) { _ in
            FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("held").path)
        }
        #expect(ended.reason == .exit && ended.status == HarnessExitCode.interrupted.rawValue, "exit 130, got \(ended.status): \(ended.errors)")
        #expect(ended.errors.contains("interrupted by signal \(signal)"), "\(ended.errors)")
        let grandchild = try #require(readPID(scratch.url.appendingPathComponent("grandchild.pid")))
        #expect(!ended.leftovers.contains(grandchild), "the grandchild in a session of its own is killed")
        if let results = try? ReportWriter.read(from: scratch.url.appendingPathComponent("report")) {
            #expect(results.mutants.allSatisfy { $0.status == .pending }, "no verdict for an interrupted mutant")
        }
        }
    }

    /// `mutate rebase add-subtracts` on the fixture with a comment between
    /// the enum and `add` (the mutant's context no longer matches, and
    /// `rebase` carries it), with `swift` as the toolchain: SIGINT once
    /// `reached` holds of what the run said on standard error. It must end
    /// in 130 having written nothing: the package untouched, the copy put
    /// back as the package has it. Returns what the run said there.
    @discardableResult
    private func interruptRebase(in scratch: Scratch, swift: URL, pause: String? = nil, reached what: String,
                                 until reached: (String) -> Bool) throws -> String {
        let package = try copyFixture(to: scratch)
        let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
        let moved = try String(contentsOf: source, encoding: .utf8)
            .replacingOccurrences(of: "public enum Arithmetic {\n", with: "public enum Arithmetic {\n    // Sums first.\n")
        try Data(moved.utf8).write(to: source)
        let before = Scratch.snapshot(of: package)
        let logs = scratch.url.appendingPathComponent("run")
        let process = try launch(["rebase", "add-subtracts", "--package-path", "Tiny"], in: scratch.url,
                                 environment: ["MUTATE_SWIFT": swift.path].merging(pause.map { ["MUTATE_TEST_PAUSE": $0] } ?? [:]) { $1 }, logs: logs)
        let read = { (suffix: String) in (try? String(contentsOf: logs.appendingPathExtension(suffix), encoding: .utf8)) ?? "" }
        _ = waitUntil(60) { reached(read("err")) || hasEnded(process) }
        try #require(reached(read("err")), "\(what): \(read("out")) \(read("err"))")
        kill(process.processIdentifier, SIGINT)
        let stopped = waitUntil(45) { hasEnded(process) }
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(stopped && process.terminationStatus == HarnessExitCode.interrupted.rawValue, "exit 130: \(read("err"))")
        #expect(read("err").contains("interrupted by signal 2: nothing was written"), "\(read("err"))")
        #expect(Scratch.snapshot(of: package) == before, "no mutant file written, the package untouched")
        let copy = try String(contentsOf: package.appendingPathComponent(".build/mutate/scratch/Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
        #expect(copy == moved, "the copy is put back")
        return read("err")
    }

    /// `rebase` builds each carried mutant before it writes any: a signal
    /// during that build ends in 130, with no mutant file written and the
    /// copy put back as the package has it.
    @Test(.timeLimit(.minutes(2)))
    func aSignalDuringRebasesBuildOfAMutantEndsIn130AndWritesNothing() throws {
        try withScratch { scratch in
            // Builds the package at once, then hangs on the mutant's build.
            let swift = scratch.url.appendingPathComponent("swift-second-build-hangs")
            try writeExecutable("""
                #!/bin/sh
                dir="\(scratch.url.path)"
                if [ "$1" = "--version" ]; then echo "Swift version 6.3.1 (stand-in)"; exit 0; fi
                if [ ! -f "$dir/built" ]; then touch "$dir/built"; exit 0; fi
                echo $$ > "$dir/child.pid"
                touch "$dir/held"
                exec sleep 300

                """, to: swift)
            try interruptRebase(in: scratch, swift: swift, reached: "the mutant's build started") { _ in
                FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("held").path)
            }
            #expect(survivors(mentioning: [swift.path]).isEmpty, "no process of the run is left")
        }
    }

    /// The toolchain's version probe is not a build: the handler itself
    /// must end it, or the run would wait on it.
    @Test(.timeLimit(.minutes(2)))
    func aSignalDuringTheVersionProbeEndsIn130() throws {
        try withScratch { scratch in
        let ended = try interrupt(in: scratch, with: SIGINT, environment: [:], hangAtProbe: true) { _ in
            FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("held").path)
        }
        #expect(ended.reason == .exit && ended.status == HarnessExitCode.interrupted.rawValue, "exit 130, got \(ended.status): \(ended.errors)")
        #expect(!ended.errors.contains("stopped without finishing the reports"), "the handler ended the probe at once, not the grace backstop: \(ended.errors)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aSignalWhileCopyingThePackageEndsIn130() throws {
        try withScratch { scratch in
        var seen: Date?
        let ended = try interrupt(in: scratch, with: SIGINT, environment: ["MUTATE_TEST_PAUSE": "sync"]) { logs in
            // Held there: the signal goes 0.3 s after the pause is seen, and the copy has still not started.
            guard ((try? String(contentsOf: logs.appendingPathExtension("out"), encoding: .utf8)) ?? "").contains("paused at sync") else { return false }
            seen = seen ?? Date()
            return Date().timeIntervalSince(seen!) > 0.3
        }
        #expect(ended.reason == .exit && ended.status == HarnessExitCode.interrupted.rawValue, "exit 130, got \(ended.status): \(ended.errors)")
        #expect(!ended.output.contains("file(s) updated in the scratch copy"), "the run was still paused before the copy: \(ended.output)")
        #expect(ended.errors.contains("interrupted by signal \(SIGINT)"), "\(ended.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("held").path), "no build was started")
        // The report of a run cut short while copying claims no time it did not measure.
        let json = try #require(FileManager.default.contents(atPath: scratch.url.appendingPathComponent("report/report.json").path))
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let performance = try #require(report["performance"] as? [String: Any])
        #expect(performance["setup"] as? Double == 0 && performance["initialRun"] as? Double == 0, "\(performance)")
        let markdown = try String(contentsOf: scratch.url.appendingPathComponent("report/report.md"), encoding: .utf8)
        #expect(markdown.contains("- Baseline: build 0.0s, tests 0.0s (0 tests); test time limit per mutant 0s"), "\(markdown)")
        }
    }

    /// A signal that lands while the package is copied, or right after,
    /// is seen by the run's own checks there: exit 130, not "interrupted
    /// while copying" as a workspace error, and no build started.
    @Test(.timeLimit(.minutes(2)), arguments: ["sync", "synced"])
    func aSignalDuringOrRightAfterTheCopyEndsIn130(pause: String) throws {
        try withScratch { scratch in
            let ended = try interrupt(in: scratch, with: SIGINT, environment: ["MUTATE_TEST_PAUSE": pause]) { logs in
                ((try? String(contentsOf: logs.appendingPathExtension("out"), encoding: .utf8)) ?? "").contains("paused at sync")
            }
            #expect(ended.reason == .exit && ended.status == HarnessExitCode.interrupted.rawValue, "exit 130, got \(ended.status): \(ended.errors)")
            #expect(ended.errors.contains("interrupted by signal \(SIGINT)") && !ended.errors.contains("interrupted while copying"), "\(ended.errors)")
            #expect(!ended.output.contains("Building the unmutated package"), "\(ended.output)")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("held").path), "no build was started")
        }
    }

    /// A `swift` whose builds pass and whose `test` runs one passing test
    /// (its xunit file written): every mutant survives, quickly.
    private func passingSwift(in folder: URL) throws -> URL {
        let script = folder.appendingPathComponent("swift-passing")
        try writeExecutable("""
            #!/bin/sh
            if [ "$1" = "--version" ]; then echo "Swift version 6.3.1 (stand-in)"; exit 0; fi
            if [ "$1" = "test" ]; then
                while [ $# -gt 0 ]; do
                    if [ "$1" = "--xunit-output" ]; then
                        printf '<testsuites><testsuite name="TestResults"><testcase classname="TinyTests.S" name="t()" time="0.01"/></testsuite></testsuites>' > "$2"
                    fi
                    shift
                done
            fi
            exit 0

            """, to: script)
        return script
    }

    /// A signal at the first report write, or right after a verdict, is
    /// seen there: no further mutant is announced (its patch would be
    /// applied and its module rebuilt by the next run).
    @Test(.timeLimit(.minutes(2)), arguments: [("reports", "paused at reports"), ("recorded", "paused at recorded")])
    func aSignalAtAReportOrAfterAVerdictStartsNoOtherMutant(pause: String, line: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            let swift = try passingSwift(in: scratch.url)
            let logs = scratch.url.appendingPathComponent("run")
            let process = try launch(["--mutant", "add-subtracts", "--mutant", "describe-changed", "--no-schema", "--no-coverage",
                                      "--package-path", "Tiny", "--scratch", scratch.url.appendingPathComponent("copy").path,
                                      "--output", scratch.url.appendingPathComponent("report").path],
                                     in: scratch.url, environment: ["MUTATE_TEST_PAUSE": pause, "MUTATE_SWIFT": swift.path], logs: logs)
            let read = { (suffix: String) in (try? String(contentsOf: logs.appendingPathExtension(suffix), encoding: .utf8)) ?? "" }
            _ = waitUntil(60) { read("out").contains(line) || hasEnded(process) }
            try #require(read("out").contains(line), "the run reached the pause: \(read("out")) \(read("err"))")
            kill(process.processIdentifier, SIGINT)
            let stopped = waitUntil(45) { hasEnded(process) }
            if !stopped { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(process.terminationStatus == HarnessExitCode.interrupted.rawValue, "exit 130: \(read("out")) \(read("err"))")
            let announced = read("out").components(separatedBy: "building and testing").count - 1
            #expect(announced == (pause == "reports" ? 0 : 1), "no mutant announced after the signal: \(read("out"))")
            #expect(try String(contentsOf: package.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                == (try String(contentsOf: fixturePackage.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)))
        }
    }

    /// A parent that starts `mutate` with SIGINT and SIGTERM blocked (as
    /// some process supervisors do) cannot keep it from hearing Ctrl-C: a
    /// signal during the pause before the copy ends the run at once (exit
    /// 130), not once the pause is over. (The executable unblocks both first
    /// thing; Dispatch's signal sources would hear them blocked anyway.)
    @Test(.timeLimit(.minutes(1)), arguments: [SIGINT, SIGTERM])
    func aRunStartedWithTheSignalsBlockedStillHearsThem(signal: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            let out = scratch.url.appendingPathComponent("run.out"), err = scratch.url.appendingPathComponent("run.err")
            // As a supervisor that blocks both would (Foundation's `Process` cannot: it resets the mask); paths absolute: no working folder.
            let pid = try Spawn.start([mutateExecutable.path, "--mutant", "add-subtracts", "--package-path", package.path,
                                       "--scratch", scratch.url.appendingPathComponent("copy").path, "--output", scratch.url.appendingPathComponent("report").path],
                                      environment: ProcessInfo.processInfo.environment.merging(["MUTATE_TEST_PAUSE": "sync", "MUTATE_SWIFT": "/bin/false"]) { $1 },
                                      input: .open("/dev/null", flags: O_RDONLY), output: .open(out.path, flags: O_WRONLY | O_CREAT | O_TRUNC),
                                      errors: .open(err.path, flags: O_WRONLY | O_CREAT | O_TRUNC), ownProcessGroup: false, blockedSignals: [SIGINT, SIGTERM]).get()
            let read = { (file: URL) in (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
            var status: Int32 = 0
            let ended = { waitpid(pid, &status, WNOHANG) == pid }
            _ = waitUntil(30) { read(out).contains("paused at sync") }
            #expect(read(out).contains("paused at sync"), "the run reached the pause: \(read(out)) \(read(err))")
            kill(pid, signal)
            // The pause lasts 30 s: a signal left blocked would be heard only after it.
            let stopped = waitUntil(10, ended)
            if !stopped {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
            }
            #expect(stopped && status >> 8 == HarnessExitCode.interrupted.rawValue && status & 0x7f == 0, "exit 130 at once (\(status)): \(read(err))")
        }
    }

    /// A descriptor `mutate` inherited without close-on-exec (a shell's
    /// `exec 3<file`, a CI runner's pipe) is not passed on to the commands
    /// it starts, the toolchain included: number 3, the first after the
    /// standard streams, as much as any other.
    @Test(.timeLimit(.minutes(1)))
    func anInheritedDescriptorThreeReachesNoCommand() throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let swift = scratch.url.appendingPathComponent("swift-fd3")
            try writeExecutable("""
                #!/bin/sh
                dir="\(scratch.url.path)"
                echo "$1" >> "$dir/calls"
                if [ -e /proc/self/fd/3 ]; then echo "$1" >> "$dir/fd3"; fi
                if [ "$1" = "--version" ]; then echo "Swift version 6.3.1 (stand-in)"; exit 0; fi
                exit 1

                """, to: swift)
            let logs = scratch.url.appendingPathComponent("run")
            let process = try launch(["-c", "exec 3</dev/null; exec \"$0\" \"$@\"", mutateExecutable.path,
                                      "--mutant", "add-subtracts", "--package-path", "Tiny",
                                      "--scratch", scratch.url.appendingPathComponent("copy").path, "--output", scratch.url.appendingPathComponent("report").path],
                                     in: scratch.url, environment: ["MUTATE_SWIFT": swift.path], logs: logs, executable: URL(fileURLWithPath: "/bin/sh"))
            process.waitUntilExit()
            let calls = (try? String(contentsOf: scratch.url.appendingPathComponent("calls"), encoding: .utf8)) ?? ""
            #expect(calls.contains("--version") && calls.contains("build"), "the toolchain was started: \(calls)")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("fd3").path),
                    "descriptor 3 reached: \((try? String(contentsOf: scratch.url.appendingPathComponent("fd3"), encoding: .utf8)) ?? "")")
        }
    }

    /// `rebase` builds the package, then each carried mutant on its own. A
    /// signal that lands between two of those builds is seen before the next
    /// mutant is touched: exit 130, that mutant is not announced, nothing of
    /// it is applied to the copy, so the next run has no module to rebuild
    /// from scratch.
    @Test(.timeLimit(.minutes(2)))
    func aSignalBetweenRebasesBuildsStopsBeforeTheNextMutantIsApplied() throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            // Every build passes at once; each command is noted.
            let swift = scratch.url.appendingPathComponent("swift-builds")
            try writeExecutable("""
                #!/bin/sh
                if [ "$1" = "--version" ]; then echo "Swift version 6.3.1 (stand-in)"; exit 0; fi
                echo "$1" >> "\(scratch.url.path)/calls"
                exit 0

                """, to: swift)
            let said = try interruptRebase(in: scratch, swift: swift, pause: "building",
                                           reached: "the package was built and the run paused before the mutant") { $0.contains("paused at building") }
            #expect(!said.contains("add-subtracts: building..."), "no mutant announced after the signal: \(said)")
            #expect((try? String(contentsOf: scratch.url.appendingPathComponent("calls"), encoding: .utf8)) == "build\n", "the package's build only")

            // Nothing was applied, so nothing was cut short: the next run rebuilds no module from scratch.
            let againLogs = scratch.url.appendingPathComponent("again")
            let again = try launch(["rebase", "add-subtracts", "--dry-run", "--package-path", "Tiny"], in: scratch.url,
                                   environment: ["MUTATE_SWIFT": swift.path], logs: againLogs)
            let ended = waitUntil(60) { hasEnded(again) }
            if !ended { kill(again.processIdentifier, SIGKILL) }
            again.waitUntilExit()
            let saidAgain = (try? String(contentsOf: againLogs.appendingPathExtension("err"), encoding: .utf8)) ?? ""
            #expect(ended && again.terminationStatus == HarnessExitCode.passed.rawValue, "\(saidAgain)")
            #expect(!saidAgain.contains("cut short mid-mutant"), "\(saidAgain)")
        }
    }

    /// A run whose main thread never notices the interrupt (stuck somewhere)
    /// is ended by the handler itself once its grace time is over: exit 130,
    /// with a message saying the reports were not finished.
    @Test(.timeLimit(.minutes(1)))
    func aStuckRunIsEndedByTheHandlerAfterItsGrace() throws {
        try withScratch { scratch in
        let ended = try interrupt(in: scratch, with: SIGINT, environment: ["MUTATE_TEST_PAUSE": "sync-deaf", "MUTATE_TEST_GRACE": "1"]) { logs in
            ((try? String(contentsOf: logs.appendingPathExtension("out"), encoding: .utf8)) ?? "").contains("paused at sync, deaf to signals")
        }
        #expect(ended.reason == .exit && ended.status == HarnessExitCode.interrupted.rawValue, "exit 130, got \(ended.status): \(ended.errors)")
        #expect(ended.errors.contains("mutate: interrupted; stopped without finishing the reports"), "\(ended.errors)")
        }
    }

    /// A daemon a build leaves behind (in a session of its own, descriptors
    /// closed) is ended as soon as the build is over, before the tests run:
    /// a helper of one command never lives on into the next.
    @Test(.timeLimit(.minutes(1)))
    func aDaemonABuildLeavesIsEndedBeforeTheTestsRun() throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let dir = scratch.url.path
            let swift = scratch.url.appendingPathComponent("swift-leaving")
            try writeExecutable("""
                #!/bin/sh
                dir="\(dir)"
                if [ "$1" = "--version" ]; then echo "Swift version 6.3.1 (stand-in)"; exit 0; fi
                if [ "$1" = "build" ]; then
                    setsid /bin/bash -c 'for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; echo $$ > "$0/daemon.pid"; exec sleep 296' "$dir" \\
                        </dev/null >/dev/null 2>&1 &
                    while [ ! -s "$dir/daemon.pid" ]; do sleep 0.05; done
                    exit 0
                fi
                pid=$(cat "$dir/daemon.pid")
                if [ -e /proc/$pid ] && [ "$(cut -d' ' -f3 /proc/$pid/stat)" != Z ]; then echo alive > "$dir/seen"; else echo dead > "$dir/seen"; fi
                exit 1

                """, to: swift)
            let logs = scratch.url.appendingPathComponent("leaving")
            let process = try launch(["--package-path", "Tiny", "--scratch", scratch.url.appendingPathComponent("copy").path,
                                      "--output", scratch.url.appendingPathComponent("report").path],
                                     in: scratch.url, environment: ["MUTATE_SWIFT": swift.path], logs: logs)
            let ended = waitUntil(30) { hasEnded(process) }
            if let daemon = readPID(scratch.url.appendingPathComponent("daemon.pid")), ProcessTree.isAlive(daemon) { kill(daemon, SIGKILL) }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = (try? String(contentsOf: logs.appendingPathExtension("err"), encoding: .utf8)) ?? ""
            #expect(ended, "\(errors)")
            #expect((try? String(contentsOf: scratch.url.appendingPathComponent("seen"), encoding: .utf8)) == "dead\n", "\(errors)")
        }
    }

    /// The first signal is the one recorded; a second (Ctrl-C pressed again,
    /// or SIGTERM after it) changes nothing and does not run the handler's
    /// work again. A request of the test's own, never the process's.
    @Test func theFirstSignalIsTheOneRecorded() {
        let request = InterruptRequest()
        #expect(request.signal == nil)
        #expect(request.request(SIGINT))
        #expect(!request.request(SIGTERM), "a second request is not a first")
        #expect(request.signal == SIGINT)
    }

    /// Without a signal the executable ends with the command's own code.
    @Test(.timeLimit(.minutes(1)), arguments: [(["--version"], HarnessExitCode.passed), (["--bogus"], HarnessExitCode.usage)])
    func aRunThatIsNotInterruptedEndsWithItsOwnCode(arguments: [String], code: HarnessExitCode) throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            let process = try launch(arguments, in: scratch.url, environment: [:], logs: scratch.url.appendingPathComponent("plain"))
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == code.rawValue, "got \(process.terminationStatus)")
        }
    }

    /// A daemon that a command leaves running in a session of its own (a
    /// helper git starts, say), with every descriptor it inherited closed as
    /// daemons do, is ended when `mutate` ends, even when no later build or
    /// test would have swept it.
    @Test(.timeLimit(.minutes(1)))
    func aDaemonLeftByGitEndsWithTheRun() throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            for step in [["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "fixture"]] { try git(step, in: package) }
            let bin = scratch.url.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            // A marker no other process has: the sleep's own duration.
            let marker = "sleep 297.\(getpid())"
            try writeExecutable("""
                #!/bin/sh
                setsid /bin/bash -c 'for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec \(marker)' \
                    </dev/null >/dev/null 2>&1 &
                exec /usr/bin/git "$@"

                """, to: bin.appendingPathComponent("git"))
            let logs = scratch.url.appendingPathComponent("record")
            let process = try launch(["record", "nothing", "--description", "d"], in: package,
                                     environment: ["PATH": "\(bin.path):/usr/bin:/bin"], logs: logs)
            let ended = waitUntil(30) { hasEnded(process) }
            let left = processes(mentioning: [marker])
            left.forEach { kill($0.pid, SIGKILL) }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = (try? String(contentsOf: logs.appendingPathExtension("err"), encoding: .utf8)) ?? ""
            #expect(ended && process.terminationStatus == HarnessExitCode.usage.rawValue, "record refused the empty change: \(errors)")
            #expect(errors.contains("no uncommitted change"), "git ran: \(errors)")
            #expect(left.isEmpty, "no helper of the run is left: \(left.map(\.command))")
        }
    }

    /// Started with its standard input closed (descriptor 0 free for the
    /// next file opened) or reading a file, a run still locks its copy and
    /// gets to its build, and the build reads nothing of mutate's input: its
    /// standard input is /dev/null. Nor does it inherit mutate's ignored signals.
    @Test(.timeLimit(.minutes(1)), arguments: ["<&-", "< \"$0\""])
    func aRunWhateverItsStandardInputTakesTheLockAndGivesTheBuildNone(input: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let failing = scratch.url.appendingPathComponent("swift-failing")
            let stdin = scratch.url.appendingPathComponent("stdin")
            let ignored = scratch.url.appendingPathComponent("ignored")
            try writeExecutable("""
                #!/bin/sh
                if [ "$1" = "--version" ]; then echo 'Swift version 6.3.1 (stand-in)'; exit 0; fi
                readlink /proc/self/fd/0 > "\(stdin.path)"
                grep SigIgn /proc/self/status > "\(ignored.path)"
                echo 'error: stand-in build fails' >&2
                exit 1

                """, to: failing)
            let logs = scratch.url.appendingPathComponent("input")
            let process = try launch(
                ["-c", "exec \"$0\" \"$@\" \(input)", mutateExecutable.path, "--package-path", "Tiny",
                 "--scratch", scratch.url.appendingPathComponent("copy").path, "--output", scratch.url.appendingPathComponent("report").path],
                in: scratch.url, environment: ["MUTATE_SWIFT": failing.path], logs: logs, executable: URL(fileURLWithPath: "/bin/sh"))
            process.waitUntilExit()
            let errors = (try? String(contentsOf: logs.appendingPathExtension("err"), encoding: .utf8)) ?? ""
            #expect(!errors.contains("cannot open the lock file"), "\(errors)")
            #expect(process.terminationStatus == HarnessExitCode.baselineFailed.rawValue, "the run got as far as its build: \(errors)")
            #expect(try String(contentsOf: stdin, encoding: .utf8) == "/dev/null\n", "the build's standard input")
            // mutate ignores SIGINT and SIGTERM (a dispatch source handles them); the build must not inherit that.
            let said = try String(contentsOf: ignored, encoding: .utf8)
            let mask = try #require(UInt64(said.split(separator: "\t").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", radix: 16), "\(said)")
            #expect(mask & (1 << UInt64(SIGINT - 1) | 1 << UInt64(SIGTERM - 1)) == 0, "the build ignores neither SIGINT nor SIGTERM: \(said)")
        }
    }
}

extension InterruptTests {
    /// A signal that ends a helper command (here `swift package describe`,
    /// which explore runs before any mutant) ends the run in 130, even though
    /// the run then stops on that command's failure with a code of its own.
    @Test(.timeLimit(.minutes(1)))
    func aSignalThatEndsAHelperCommandStillEndsIn130() throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let dir = scratch.url.path
            let bin = scratch.url.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            // Builds pass at once; `swift package describe` (found on PATH) hangs until the run kills it.
            let swift = bin.appendingPathComponent("swift")
            try writeExecutable("""
                #!/bin/sh
                dir="\(dir)"
                if [ "$1" = "--version" ]; then echo "Swift version 6.3.1 (stand-in)"; exit 0; fi
                if [ "$1" = "package" ]; then echo $$ > "$dir/child.pid"; touch "$dir/held"; exec sleep 300; fi
                exit 0

                """, to: swift)
            let logs = scratch.url.appendingPathComponent("run")
            let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let process = try launch(["explore", "--list", "--package-path", "Tiny", "--scratch", scratch.url.appendingPathComponent("copy").path,
                                      "--output", scratch.url.appendingPathComponent("report").path],
                                     in: scratch.url, environment: ["MUTATE_SWIFT": swift.path, "PATH": path], logs: logs)
            let held = scratch.url.appendingPathComponent("held")
            let read = { (suffix: String) in (try? String(contentsOf: logs.appendingPathExtension(suffix), encoding: .utf8)) ?? "" }
            let reached = waitUntil(30) { FileManager.default.fileExists(atPath: held.path) || hasEnded(process) }
            if reached, FileManager.default.fileExists(atPath: held.path) { kill(process.processIdentifier, SIGINT) }
            let ended = waitUntil(20) { hasEnded(process) }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            if let child = readPID(scratch.url.appendingPathComponent("child.pid")), ProcessTree.isAlive(child) { kill(child, SIGKILL) }
            process.waitUntilExit()
            try #require(FileManager.default.fileExists(atPath: held.path), "explore asked for the package's description: \(read("err"))")
            #expect(ended && process.terminationReason == .exit && process.terminationStatus == HarnessExitCode.interrupted.rawValue,
                    "exit 130, got \(process.terminationStatus): \(read("err"))")
        }
    }
}
