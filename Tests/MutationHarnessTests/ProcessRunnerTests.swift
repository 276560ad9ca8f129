import Foundation
import Testing
@testable import MutationHarness

@Suite(.ownThread)
struct ProcessRunnerTests {
    /// A command is looked up on `PATH` the way a shell does: a file that is
    /// not executable (a stray `swift` text file early on the path) is
    /// passed over for the executable one after it.
    @Test func aCommandOnThePathIsTheFirstExecutableOne() throws {
        try withScratch { scratch in
            try scratch.write("first/tool", "not a program\n")
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("second"), withIntermediateDirectories: true)
            try writeExecutable("#!/bin/sh\necho from-second\n", to: scratch.url.appendingPathComponent("second/tool"))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.url.appendingPathComponent("first/tool").path)
            let log = scratch.url.appendingPathComponent("tool.log")
            let path = "\(scratch.url.path)/first:\(scratch.url.path)/second:/usr/bin:/bin"
            let result = try ProcessRunner.run(["tool"], in: scratch.url, environment: ["PATH": path], log: log, timeout: 30)
            #expect(result.termination == .exited(0))
            #expect(try String(contentsOf: log, encoding: .utf8) == "from-second\n")
        }
    }

    /// The interrupt handler kills the command in `running`: it holds the
    /// command's pid while it runs and nothing once it has ended, so a later
    /// Ctrl-C cannot reach a process that took over the old pid.
    @Test func theRunningCommandIsKnownWhileItRunsAndForgottenAfter() throws {
        try withScratch { scratch in
            let running = RunningProcess()
            let seen = Locked<Set<pid_t>>([])
            let result = try ProcessRunner.run(["/bin/sh", "-c", "echo $$ > pid; sleep 0.3"], in: scratch.url, environment: ["PATH": "/usr/bin:/bin"],
                                               log: scratch.url.appendingPathComponent("run.log"), timeout: 30,
                                               stopWhen: { seen.withLock { _ = $0.insert(running.current) }; return nil }, running: running)
            #expect(result.termination == .exited(0))
            let pid = try #require(readPID(scratch.url.appendingPathComponent("pid")))
            #expect(seen.value == [pid], "while it ran, the command's own pid and nothing else")
            #expect(running.current == 0, "forgotten once it ended")
        }
    }

    /// A command that cannot be started (here its log cannot be opened) is an
    /// error naming it, not a result.
    @Test func aCommandThatCannotStartThrows() throws {
        try withScratch { scratch in
            let error = #expect(throws: ProcessRunnerError.self) {
                try ProcessRunner.run(["/bin/true"], in: scratch.url, environment: [:],
                                      log: scratch.url.appendingPathComponent("missing/run.log"), timeout: 30)
            }
            #expect(error?.command == "/bin/true", "the message names the command")
            let active = Locked(0)
            #expect(throws: ProcessRunnerError.self) {
                try ProcessRunner.run(["/bin/true"], in: scratch.url, environment: [:], log: scratch.url.appendingPathComponent("missing/run.log"),
                                      timeout: 30, active: active, sweep: {})
            }
            #expect(active.value == 0, "a command that never started is not counted as running")
        }
    }

    /// Only the last of commands running at once sweeps the harness's
    /// leftover processes: a sweep while another runs would kill it.
    @Test func onlyTheLastOfCommandsRunningAtOnceSweeps() throws {
        try withScratch { scratch in
            let active = Locked(0), sweeps = Locked(0), done = Locked(false)
            let sweep: @Sendable () -> Void = { sweeps.withLock { $0 += 1 } }
            let go = scratch.url.appendingPathComponent("go")
            Thread {
                // Runs until the test says so: it outlasts the short command whatever the load.
                _ = try? ProcessRunner.run(["/bin/sh", "-c", #"while [ ! -f "$0" ]; do sleep 0.05; done"#, go.path], in: scratch.url,
                                           environment: ["PATH": "/usr/bin:/bin"], log: scratch.url.appendingPathComponent("long.log"), timeout: 30,
                                           active: active, sweep: sweep)
                done.set(true)
            }.start()
            #expect(waitUntil(5) { active.value == 1 })
            _ = try ProcessRunner.run(["/bin/true"], in: scratch.url, environment: ["PATH": "/usr/bin:/bin"],
                                      log: scratch.url.appendingPathComponent("short.log"), timeout: 30, active: active, sweep: sweep)
            #expect(sweeps.value == 0, "another command still runs: no sweep")
            try Data().write(to: go)
            #expect(waitUntil(10) { done.value })
            #expect(sweeps.value == 1 && active.value == 0)
        }
    }

    /// A command without a time limit runs to its end, and the log holds both
    /// of its streams.
    @Test func aCommandWithoutATimeLimitRunsToItsEndWithBothStreamsLogged() throws {
        try withScratch { scratch in
            let log = scratch.url.appendingPathComponent("both.log")
            let result = try ProcessRunner.run(["/bin/sh", "-c", "echo out; sleep 0.2; echo err >&2; exit 3"], in: scratch.url,
                                               environment: ["PATH": "/usr/bin:/bin"], log: log, timeout: nil)
            #expect(result.termination == .exited(3))
            #expect(try String(contentsOf: log, encoding: .utf8) == "out\nerr\n")
        }
    }

    /// A grandchild in a session of its own (out of reach of a group kill)
    /// below a parent that is still running ends with the run: the descendant
    /// walk finds it.
    @Test func aTimedOutCommandTakesItsGrandchildInAnotherSessionWithIt() throws {
        try withScratch { scratch in
            let log = scratch.url.appendingPathComponent("session.log")
            let pidFile = scratch.url.appendingPathComponent("grandchild.pid")
            // command -> a child shell -> a process in a session of its own, two levels down.
            try scratch.write("child.sh", "setsid sh -c 'echo $$ > \"$0\"; exec sleep 60' \"$1\" &\nsleep 60\n")
            let script = "sh \"$0\" \"$1\" & sleep 60"
            let result = try ProcessRunner.run(["/bin/sh", "-c", script, scratch.url.appendingPathComponent("child.sh").path, pidFile.path], in: scratch.url,
                                               environment: ["PATH": "/usr/bin:/bin"], log: log, timeout: 1)
            #expect(result.termination == .timedOut)
            let grandchild = try #require(readPID(pidFile))
            #expect(!ProcessTree.isAlive(grandchild), "the grandchild \(grandchild) outlived the run")
        }
    }

    /// A helper that a finished command leaves running in the background
    /// ends with the run, even where mutate does not own every descendant
    /// (as here, in-process, where no sweep runs): it would otherwise hold
    /// files of the scratch copy or keep the machine busy.
    @Test func aHelperLeftBehindByAFinishedCommandEndsWithTheRun() throws {
        try withScratch { scratch in
            let pidFile = scratch.url.appendingPathComponent("helper.pid")
            let result = try ProcessRunner.run(["/bin/sh", "-c", "sleep 30 & echo $! > \"$0\"", pidFile.path], in: scratch.url,
                                               environment: ["PATH": "/usr/bin:/bin"], log: scratch.url.appendingPathComponent("helper.log"), timeout: 20)
            #expect(result.termination == .exited(0))
            let helper = try #require(readPID(pidFile))
            #expect(waitUntil(5) { !ProcessTree.isAlive(helper) }, "the helper \(helper) outlived the run")
        }
    }

    /// A run appends to its log: what earlier commands wrote stays.
    @Test func aRunAppendsToItsLog() throws {
        try withScratch { scratch in
            let log = scratch.url.appendingPathComponent("both.log")
            try "the build said this\n".write(to: log, atomically: true, encoding: .utf8)
            _ = try ProcessRunner.run(["/bin/sh", "-c", "echo the tests said that"], in: scratch.url, environment: ["PATH": "/usr/bin:/bin"], log: log, timeout: 20)
            #expect(try String(contentsOf: log, encoding: .utf8) == "the build said this\nthe tests said that\n")
        }
    }

    /// A command killed at its time limit is collected before the run
    /// returns: no zombie is left behind for every timed-out mutant.
    @Test func aCommandKilledAtItsLimitIsCollected() throws {
        try withScratch { scratch in
            let started = Locked<pid_t>(0)
            let result = try ProcessRunner.run(["/bin/sh", "-c", "exec sleep 30"], in: scratch.url, environment: ["PATH": "/usr/bin:/bin"],
                                               log: scratch.url.appendingPathComponent("slow.log"), timeout: 0.3, poll: { pid, status in
                started.set(pid)
                return waitpid(pid, status, WNOHANG)
            })
            #expect(result.termination == .timedOut)
            var status: Int32 = 0
            errno = 0
            #expect(waitpid(started.value, &status, WNOHANG) == -1 && errno == ECHILD, "the killed command was already collected")
        }
    }

    /// A command whose exit another waiter collected first (`waitpid` then
    /// fails with ECHILD) ends the wait at once; the runner must not poll
    /// until the time limit and call it a timeout.
    @Test func aCommandReapedElsewhereEndsTheWaitAtOnce() throws {
        try withScratch { scratch in
            // The other waiter: it collects the exit as soon as there is one,
            // so the runner only ever sees ECHILD from then on.
            let stolen = Locked(false)
            let result = try ProcessRunner.run(["/bin/sh", "-c", "sleep 0.2"], in: scratch.url, environment: ["PATH": "/usr/bin:/bin"],
                                               log: scratch.url.appendingPathComponent("reaped.log"), timeout: 4, poll: { pid, status in
                if !stolen.value, waitpid(pid, status, WNOHANG) == pid { stolen.set(true) }
                if stolen.value {
                    errno = ECHILD
                    return -1
                }
                return 0
            })
            #expect(stolen.value)
            #expect(result.termination != .timedOut)
            #expect(result.seconds < 3, "ended with the exit, not at the 4 s limit")
        }
    }

    /// The toolchain's version line: the first line of a command that
    /// succeeds, nothing from one that fails.
    @Test func theFirstLineOfACommandThatSucceedsOnly() {
        #expect(Lab.firstLine(of: ["sh", "-c", "echo 'Swift version 6'; echo more"]) == "Swift version 6")
        #expect(Lab.firstLine(of: ["sh", "-c", "echo 'half a version'; exit 3"]) == nil)
        #expect(Lab.firstLine(of: ["no-such-command-anywhere"]) == nil)
    }

    /// With no command running the recorded pid is 0; killing "its" tree
    /// must not signal this process's own group (`kill(0)`), which would end
    /// the test runner.
    /// Roots 0 (no command running) and 1 (init) send nothing: as a group,
    /// `kill(0)` and `kill(-1)` would reach this process's group or every
    /// process the user owns. The signals are recorded, never sent.
    @Test(arguments: [0, 1] as [pid_t])
    func killingTheTreeOfNoCommandOrOfInitSendsNothing(root: pid_t) {
        let sent = Locked<[pid_t]>([])
        ProcessTree.kill(root: root) { pid, _ in sent.withLock { $0.append(pid) }; return 0 }
        #expect(sent.value.isEmpty, "\(sent.value.prefix(4))")
    }

    /// A command named with a slash is a path from the working directory,
    /// never looked up on PATH, even where PATH holds one of that name.
    @Test func aCommandWithASlashIsNotLookedUpOnThePath() throws {
        try withScratch { scratch in
            for (folder, word) in [("work/sub", "from-work"), ("bin/sub", "from-path")] {
                try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
                try writeExecutable("#!/bin/sh\necho \(word)\n", to: scratch.url.appendingPathComponent("\(folder)/tool"))
            }
            let log = scratch.url.appendingPathComponent("tool.log")
            let result = try ProcessRunner.run(["sub/tool"], in: scratch.url.appendingPathComponent("work"),
                                               environment: ["PATH": "\(scratch.url.path)/bin:/usr/bin:/bin"], log: log, timeout: 30)
            #expect(result.termination == .exited(0))
            #expect(try String(contentsOf: log, encoding: .utf8) == "from-work\n")
        }
    }
}

extension ProcessRunnerTests {
    /// A command is looked up on the PATH it is given (a toolchain first on
    /// it wins over a program of the same name in /usr/bin).
    @Test func aCommandIsLookedUpOnItsOwnPath() throws {
        try withScratch { scratch in
            try scratch.writeExecutable("bin/env", "#!/bin/sh\necho stand-in\n")
            let log = scratch.url.appendingPathComponent("env.log")
            let result = try ProcessRunner.run(["env"], in: scratch.url, environment: ["PATH": "\(scratch.url.path)/bin:/usr/bin:/bin"],
                                               log: log, timeout: 30)
            #expect(result.termination == .exited(0))
            #expect(try String(contentsOf: log, encoding: .utf8) == "stand-in\n")
        }
    }

    /// A command whose exit was collected ends with its own status, and a
    /// wait interrupted by a signal (EINTR) is tried again rather than taken
    /// for the end of a command still running.
    @Test func anEndedCommandEndsWithItsStatusAndAnInterruptedWaitIsTriedAgain() throws {
        try withScratch { scratch in
            var asked = 0
            let ended = try ProcessRunner.run(["/bin/sh", "-c", "exit 3"], in: scratch.url, environment: ["PATH": "/usr/bin:/bin"],
                                              log: scratch.url.appendingPathComponent("ended.log"), timeout: 30,
                                              stopWhen: { asked += 1; return .stoppedEarly },
                                              poll: { pid, status in waitpid(pid, status, 0) })
            #expect(ended.termination == .exited(3) && asked == 0, "\(ended.termination), asked \(asked)")
            var looks = 0
            let interrupted = try ProcessRunner.run(["/bin/sh", "-c", "exit 4"], in: scratch.url, environment: ["PATH": "/usr/bin:/bin"],
                                                    log: scratch.url.appendingPathComponent("eintr.log"), timeout: 30, poll: { pid, status in
                looks += 1
                if looks == 1 {
                    errno = EINTR
                    return -1
                }
                return waitpid(pid, status, 0)
            })
            #expect(interrupted.termination == .exited(4))
        }
    }

    /// A tree gone after the first round of the kill walk is not signalled
    /// again (its numbers may already be another process's).
    @Test func aTreeGoneAfterTheFirstRoundIsLeftAlone() throws {
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let sent = Locked<[pid_t]>([])
        ProcessTree.kill(root: ended.processIdentifier) { pid, _ in sent.withLock { $0.append(pid) }; return 0 }
        #expect(sent.value == [-ended.processIdentifier, ended.processIdentifier], "one round: its group, then itself")
    }
}

/// Refusals of `mutate explore` that happen before any build, so they run
/// in-process even inside a mutate run (the end-to-end explore tests skip
/// themselves there).
struct ExploreCommandRefusalTests {
    @Test func aPathThatDoesNotExistIsNamedAndNothingRuns() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\n")
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            let output = OutputBox()
            let code = Harness(workingDirectory: scratch.url, print: { output.append($0) })
                .main(["explore", "Sources/Nope", "--package-path", "pkg"])
            #expect(code == .usage)
            #expect(output.text.contains("error: Sources/Nope does not exist in \(scratch.url.appendingPathComponent("pkg").standardizedFileURL.path)"),
                    "\(output.text)")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("pkg/.build").path), "no copy, no build")
        }
    }

    @Test func promoteIntoAMutantsPathThatIsAFileIsRefusedBeforeAnyBuild() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\n")
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            try scratch.write("pkg/notes.txt", "the user's notes\n")
            let output = OutputBox()
            let code = Harness(workingDirectory: scratch.url, print: { output.append($0) })
                .main(["promote", "0123abcd", "a-name", "--description", "d", "--package-path", "pkg", "--mutants", "pkg/notes.txt"])
            let package = scratch.url.appendingPathComponent("pkg").standardizedFileURL.path
            #expect(code == .usage)
            #expect(output.text.contains("error: cannot write \(package)/notes.txt/a-name.patch: \(package)/notes.txt is a file, not a folder"),
                    "\(output.text)")
            #expect(try String(contentsOf: scratch.url.appendingPathComponent("pkg/notes.txt"), encoding: .utf8) == "the user's notes\n")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("pkg/.build").path), "no copy, no build")
        }
    }
}

/// What `explore` uses to spend less time per mutant: the tests that can
/// reach the code, and a run that stops at the first failure.
struct TestChoiceTests {
    private func target(_ name: String, _ type: String, _ dependencies: [String], path: String? = nil) -> PackageTargets.Target {
        PackageTargets.Target(name: name, c99name: name, type: type, moduleType: "SwiftTarget",
                              path: path ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)"), sources: [], dependencies: dependencies)
    }

    /// This package's own shape: the SDK's tests and the collector's reach
    /// the support module, only the harness's tests reach the harness.
    @Test func theTestTargetsThatLinkAFilesTargetDirectlyOrThroughOthers() {
        let targets = [
            target("Support", "library", []),
            target("SDK", "library", ["Support"]),
            target("Testing", "library", ["SDK"]),
            target("Harness", "library", []),
            target("SDKTests", "test", ["Testing"]),
            target("SupportTests", "test", ["Support"]),
            target("HarnessTests", "test", ["Harness"]),
        ]
        #expect(PackageTargets.testTargets(reaching: "Sources/Harness/Lab.swift", in: targets) == ["HarnessTests"])
        #expect(PackageTargets.testTargets(reaching: "Sources/SDK/Queue/Queue.swift", in: targets) == ["SDKTests"], "through Testing")
        #expect(PackageTargets.testTargets(reaching: "Sources/Support/JSON.swift", in: targets) == ["SDKTests", "SupportTests"])
        // A file of no target, or a folder whose name only starts like one: no choice, the whole suite.
        #expect(PackageTargets.testTargets(reaching: "Sources/Other/A.swift", in: targets) == nil)
        #expect(PackageTargets.testTargets(reaching: "Sources/SDKExtras/A.swift", in: targets) == nil)
        // Every test target reaches it: choosing would only add a second run for survivors.
        let shared = targets + [target("Base", "library", []), target("All", "library", ["Base"])]
        let allReach = shared.map { $0.type == "test" ? target($0.name, "test", $0.dependencies + ["All"]) : $0 }
        #expect(PackageTargets.testTargets(reaching: "Sources/Base/A.swift", in: allReach) == nil)
        // A dependency that is no target of the package (another package's product) reaches nothing,
        // and a cycle of names ends.
        let external = targets + [target("ToolTests", "test", ["ArgumentParser"]), target("Loop", "library", ["Loop"]),
                                  target("LoopTests", "test", ["Loop"])]
        #expect(PackageTargets.testTargets(reaching: "Sources/Harness/Lab.swift", in: external) == ["HarnessTests"])
    }

    /// Module maps for the compiler: the built one, else the target's own, else the one in include/.
    @Test func eachTargetGivesItsFirstModuleMap() throws {
        try withScratch { scratch in
            try scratch.write(".build/debug/CZlib.build/module.modulemap", "module CZlib {}\n")
            try scratch.write("Sources/CZlib/module.modulemap", "module CZlib {}\n")
            try scratch.write("Sources/CSQLite/module.modulemap", "module CSQLite {}\n")
            try scratch.write("Sources/CFast/include/module.modulemap", "module CFast {}\n")
            let targets = ["CZlib", "CSQLite", "CFast", "Swifty"].map {
                PackageTargets.Target(name: $0, c99name: $0, type: "library", moduleType: "ClangTarget", path: "Sources/\($0)", sources: [])
            }
            let root = scratch.url.path
            #expect(PackageTargets.moduleMaps(in: scratch.url, targets: targets) == [
                "\(root)/.build/debug/CZlib.build/module.modulemap", "\(root)/Sources/CSQLite/module.modulemap",
                "\(root)/Sources/CFast/include/module.modulemap",
            ])
        }
    }

    @Test func theWatcherSeesAFailingIssueOnceItsLineIsComplete() throws {
        try withScratch { scratch in
            let stream = scratch.url.appendingPathComponent("events.jsonl")
            let watcher = EventStreamWatcher(stream)
            #expect(!watcher.hasFailure(), "no file yet")
            try Data().write(to: stream)
            let handle = try FileHandle(forWritingTo: stream)
            defer { try? handle.close() }
            func write(_ text: String) throws { try handle.write(contentsOf: Data(text.utf8)) }
            func issue(failure: Bool, known: Bool) -> String {
                #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S/t()/F.swift:1:1","issue":{"isFailure":\#(failure),"isKnown":\#(known)}}}"#
            }
            try write(#"{"kind":"test","payload":{"kind":"function","id":"M.S/t()/F.swift:1:1"}}"# + "\n")
            try write(#"{"kind":"event","payload":{"kind":"testStarted","testID":"M.S/t()/F.swift:1:1"}}"# + "\n")
            #expect(!watcher.hasFailure())
            try write(issue(failure: true, known: true) + "\n" + issue(failure: false, known: false) + "\n")
            #expect(!watcher.hasFailure(), "a known issue or a warning is not a failure")
            let failing = issue(failure: true, known: false)
            try write(String(failing.prefix(40)))
            #expect(!watcher.hasFailure(), "half a line is not read yet")
            try write(String(failing.dropFirst(40)) + "\n")
            #expect(watcher.hasFailure())
            #expect(watcher.hasFailure(), "and it stays seen")
        }
    }

    @Test func aCommandStoppedByItsCallerEndsAtOnceWithItsWholeGroup() throws {
        try withScratch { scratch in
            let log = scratch.url.appendingPathComponent("stop.log")
            let marker = scratch.url.appendingPathComponent("started")
            // The child and a grandchild both sleep; the stop must end them both.
            let started = Date()
            var asked = 0
            let result = try ProcessRunner.run(["/bin/sh", "-c", "touch \"$0\"; sleep 30 & sleep 30", marker.path], in: scratch.url,
                                               environment: ["PATH": "/usr/bin:/bin"], log: log, timeout: 60) {
                asked += 1
                return FileManager.default.fileExists(atPath: marker.path) ? .stoppedEarly : nil
            }
            #expect(result.termination == .stoppedEarly)
            #expect(asked >= 1)
            #expect(Date().timeIntervalSince(started) < 20, "stopped, not waited for")
        }
    }

    /// Only the `mutate` command owns every process below it; a harness run
    /// inside another program (these tests, an IDE) must never sweep that
    /// program's other children.
    @Test func aSweepInAProcessThatDoesNotOwnItsChildrenLeavesThemAlone() throws {
        #expect(!ProcessTree.ownsAllDescendants, "tests run the harness in-process")
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/bin/sleep")
        other.arguments = ["30"]
        try other.run()
        defer { if other.isRunning { other.terminate() } }
        ProcessTree.sweep()
        ProcessTree.reapOrphans()
        #expect(other.isRunning, "another part of the program started it: not the harness's to kill")
    }
}

struct WaitStepsTests {
    /// A command that ends at once is seen within a millisecond or two; a
    /// long one costs one wake-up per longest step.
    @Test func stepsStartAtOneMillisecondAndDoubleUpToTheLongest() {
        var steps = WaitSteps(longest: 20)
        #expect((0..<7).map { _ in steps.next() } == [1, 2, 4, 8, 16, 20, 20])
        var none = WaitSteps(longest: 0)
        #expect((0..<3).map { _ in none.next() } == [1, 1, 1], "never a busy loop, and never past a longest of 1")
    }
}

struct WorkersTests {
    /// The first error stops the workers taking more items, and it is the
    /// one thrown, not a later one.
    @Test func theFirstErrorStopsTheWorkersAndIsTheOneThrown() {
        struct Numbered: Error { var item: Int }
        let ran = Locked([Int]())
        let stopped = #expect(throws: Numbered.self) {
            try Workers.run(items: 5, workers: 1) { item, _ in
                ran.withLock { $0.append(item) }
                if item == 1 { throw Numbered(item: 1) }
            }
        }
        #expect(ran.value == [0, 1] && stopped?.item == 1)
        // Item 0 throws once item 1's worker has ended, so after item 1's error was recorded.
        struct Worker: @unchecked Sendable { let thread: Thread }   // read only by `isFinished`
        let thrower = Locked<Worker?>(nil)
        let first = #expect(throws: Numbered.self) {
            try Workers.run(items: 2, workers: 2) { item, _ in
                if item == 1 {
                    thrower.set(Worker(thread: Thread.current))
                    throw Numbered(item: 1)
                }
                while thrower.value?.thread.isFinished != true { usleep(1_000) }
                throw Numbered(item: 0)
            }
        }
        #expect(first?.item == 1)
    }

    /// `--jobs 1` means one at a time: each item, in order, on one thread;
    /// with more workers than items, each item still runs once.
    @Test func oneWorkerRunsOneItemAtATimeAndEveryItemRunsOnce() throws {
        let state = Locked((running: 0, most: 0, done: [Int]()))
        try Workers.run(items: 5, workers: 1) { item, worker in
            state.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
            usleep(2_000)
            state.withLock { $0.running -= 1; $0.done.append(item * 10 + worker) }
        }
        #expect(state.value.most == 1 && state.value.done == [0, 10, 20, 30, 40])
        let many = Locked([Int]())
        try Workers.run(items: 2, workers: 8) { item, _ in many.withLock { $0.append(item) } }
        #expect(many.value.sorted() == [0, 1])
    }
}

extension ProcessRunnerTests {
    /// A tree with a descendant, killed: once every process the walk found
    /// is gone it stops, rather than signal their numbers (maybe already
    /// another process's) round after round.
    @Test func theKillWalkStopsOnceTheTreeItFoundIsGone() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "sleep 30 & wait"]
        try shell.run()
        let root = shell.processIdentifier
        defer {
            if shell.isRunning { sendSignal(root, SIGKILL) }
            shell.waitUntilExit()
        }
        try #require(waitUntil(10) { !ProcessTree.descendants(of: root).isEmpty }, "the shell started its sleep")
        let sent = Locked<[pid_t]>([])
        // Each number is really signalled once (so the tree dies); a repeat is only recorded.
        ProcessTree.kill(root: root) { pid, signal in
            let first = sent.withLock { list -> Bool in
                let new = !list.contains(pid)
                list.append(pid)
                return new
            }
            return first ? sendSignal(pid, signal) : 0
        }
        let rounds = sent.value.filter { $0 == root }.count
        #expect(rounds < 20, "\(rounds) rounds of the walk for a tree gone after the first")
    }
}
