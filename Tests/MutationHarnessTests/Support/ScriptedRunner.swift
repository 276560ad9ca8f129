import Foundation
import Testing
@testable import MutationHarness

/// Answers `swift build` and `swift test` from what the scratch copy
/// holds: `BROKEN` does not compile (`SCHEMA-FAILS-AT-LINE n`: at line n), `HANG` times out (`BUILD-HANG`: the build), `CRASH` crashes (`CRASH-THEN-HANG`: and times out),
/// `NO-TESTS` finds no test, `FLAKY-ONCE` fails the first test run only,
/// `a - b` fails the test `T.Suite/adds()`.
// `@unchecked`: every call holds `lock` (the lab may call from several
// threads), and the test reads `calls` after `run()` returned.
final class ScriptedRunner: CommandRunning, @unchecked Sendable {
    private(set) var calls: [(command: String, source: String)] = []
    /// Called at the start of every build and test run (under the runner's lock).
    var onRun: (() -> Void)?
    /// Whether a `FLAKY-ONCE` source has failed its one run.
    private var flakyFailed = false
    /// What `swift --version` says (nil: it could not be asked).
    var toolchain: String? = "Swift version 9.9 (scripted)"
    /// `MUTATE_SCHEMA_ID` of each test run ("" when unset).
    private(set) var schemaIDs: [String] = []
    /// The `--filter` of each test run ("" when none was given).
    private(set) var filters: [String] = []
    /// The `--skip` of each test run ("" when none was given).
    private(set) var skips: [String] = []
    /// How long each build that succeeds says it took.
    var buildSeconds = 0.1
    /// The time limit of each build (nil: none).
    private(set) var buildLimits: [Double?] = []
    /// Whether each test run could be stopped at its first failure.
    private(set) var watched: [Bool] = []
    /// Test runs ended early because the lab had seen a failure.
    private(set) var stoppedEarly = 0
    var interruptAtTest: Int?
    /// The run of the test executable (1-based) that a signal interrupts.
    var interruptAtBinaryRun: Int?
    /// Whether the build leaves a test executable (`.build/debug/PkgPackageTests.xctest`) to start directly.
    var makesTestBinary = false
    /// The tests each run of the test executable ran, in order.
    private(set) var binaryRuns: [[String]] = []
    /// The time limit of each run of the test executable.
    private(set) var binaryLimits: [Double?] = []
    /// The functions each test runs, as its coverage profile names them.
    var reaches: [String: [String]] = ["T.Suite/adds()": ["add"], "T.Suite/other()": [], "Other.Suite/unrelated()": []]
    /// The schema switches each test runs (written where `MUTATE_REACHED` says).
    var switchReaches: [String: [Int]] = [:]
    /// Switches a run of the test executable runs only with several tests at once.
    var switchesUnderLoad: [Int] = []
    /// A test that fails when it runs alone with a record of its switches (the switch pass).
    var failsWithSwitchRecordAlone: String?
    /// A test that fails whenever the test executable runs it alone (it needs another test first).
    var failsAlone: String?
    /// The schema switch (`MUTATE_SCHEMA_ID`) under which a run of the test
    /// executable passes every test, then dies of a signal with nothing in
    /// its log: killed, with no test to name.
    var diesSilentlyUnderSwitch: Int?
    /// What a test does when it runs alone with a profile asked for (the
    /// coverage pass): it fails, its process crashes after it passed, or
    /// the filter runs nothing (a test another test must run first, say).
    enum AloneOutcome { case fails, crashesAfterPassing, doesNotRun, anotherTestRuns }
    var aloneWithProfile: (test: String, outcome: AloneOutcome)?
    /// Functions the whole suite's run (`swift test`) runs besides what its tests run alone.
    var suiteOnlyReaches: [String] = []
    /// Tests that start a program with an environment of its own: wherever
    /// such a test runs with coverage (the suite, or alone), the program writes
    /// what it reaches to `default.profraw` in the copy, as a program
    /// started without `LLVM_PROFILE_FILE` does.
    var strayReaches: [String: [String]] = [:]
    /// A test that writes no profile when it runs alone (its process ends
    /// without the runtime writing one).
    var writesNoProfileAlone: String?
    /// Whether `swift test` writes the profile `LLVM_PROFILE_FILE` asks for.
    var writesSuiteProfile = true
    /// Whether `T.Suite/adds()`, started directly on `a - b`, hangs instead
    /// of failing: it starts (in the event stream) and never ends, and the
    /// run lasts until the lab stops it, or one second (then `.timedOut`: the run's limit).
    var chosenHang = false
    /// Whether `T.Suite/adds()`, started directly on `a - b`, crashes its
    /// process instead of failing: it starts (in the event stream) and never
    /// ends, the runtime's message goes to the log, no xunit file is
    /// written, and the process dies of signal 4 before any other test ran.
    var chosenCrash = false
    /// Seconds a run of one test alone takes (the coverage pass's times), by test; 0.05 otherwise.
    var secondsAlone: [String: Double] = [:]
    /// Whether a run of the whole suite (`swift test`, or the test
    /// executable with every test) on `zero = 1` hangs:
    /// `T.Suite/other()` starts and never ends, and the run lasts until the
    /// lab stops it, or one second (then `.timedOut`). Its stops go to `hungRuns`.
    var suiteHang = false
    /// The silences of the passing runs of `swift test` (the baseline's), by
    /// their events' own clock: `T.Suite/other()` runs this long alone, and
    /// later `T.Suite/adds()` ten times as long.
    var suiteQuiet: Double?
    /// Whether `T.Suite/adds()` no longer catches `a - b`: a test weakened
    /// in a way the harness cannot see (a verdict kept from before is wrong).
    var testsWeakened = false
    /// Tests that are XCTest's: `swift test` reports them in XCTest's xunit
    /// file, and the test executable runs them by name (`PATH A,B`), saying
    /// each on its console (`Test Case 'Suite.name' passed`).
    var xctestTests: Set<String> = []
    /// XCTest tests that fail on `a - b` (`T.Suite/adds()` fails there wherever it runs).
    var xctestFailingOnMinus: Set<String> = []
    /// How the lab stopped each run of the test executable that hung (nil:
    /// it did not, and the run's limit ended it).
    private(set) var hungRuns: [ProcessTermination?] = []

    /// Runs of the test executable, or of `swift test`, under a schema switch at once, at most.
    private(set) var mostSwitchedAtOnce = 0
    /// Whether the first switched run waits (up to a second) for a second
    /// one to start, so that runs the lab starts at once meet however
    /// loaded the machine (the jobs test); off, nothing waits.
    var meetsASecondSwitchedRun = false
    private var switchedNow = 0
    private var waited = false
    /// The run under a schema switch (counted from 1) at which an interrupt is thrown.
    var interruptAtSwitchedRun: Int?
    private var switchedRuns = 0
    /// Held through each call: the lab may call from several threads (its
    /// schema mutants, `jobs` at a time).
    private let lock = NSRecursiveLock()

    func toolchainVersion(swift: String, environment: [String: String]) -> String? { toolchain }

    func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
             stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult
    {
        if arguments[0].hasSuffix(".xctest") || arguments[1] == "test", environment[Schema.variable] != nil {
            let (waits, interrupted) = lock.withLock {
                switchedNow += 1
                switchedRuns += 1
                mostSwitchedAtOnce = max(mostSwitchedAtOnce, switchedNow)
                defer { waited = true }
                return (meetsASecondSwitchedRun && !waited, switchedRuns == interruptAtSwitchedRun)
            }
            if interrupted {
                lock.withLock { switchedNow -= 1 }
                throw LabError.interrupted(signal: SIGINT)
            }
            // The first switched run waits (outside the lock, up to a second)
            // for a second one: runs the lab starts at once meet here, however
            // loaded the machine; runs one after another do not.
            let deadline = Date().addingTimeInterval(1)
            while waits, lock.withLock({ mostSwitchedAtOnce < 2 }), Date() < deadline { usleep(2_000) }
            lock.withLock { switchedNow -= 1 }
        }
        lock.lock()
        defer { lock.unlock() }
        let source = (try? String(contentsOf: directory.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)) ?? ""
        calls.append((arguments[1], source))
        onRun?()
        if arguments[0].hasSuffix(".xctest") {
            binaryLimits.append(timeout)
            if let index = interruptAtBinaryRun, binaryLimits.count == index { throw LabError.interrupted(signal: SIGINT) }
            LogFile.append("the scripted test executable ran\n", to: log)
            if arguments.count == 2, !arguments[1].hasPrefix("-") { return try runXCTest(arguments[1], in: directory, source: source, environment: environment, log: log) }
            return try runBinary(arguments, in: directory, source: source, environment: environment, log: log, stopWhen: stopWhen)
        }
        #expect(environment["MUTATE_RUNNING"] == "1")
        #expect(environment["HOME"]?.hasPrefix(directory.path) == true, "HOME is inside the scratch copy")
        func append(_ text: String) {
            if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
            let handle = try? FileHandle(forWritingTo: log)
            handle?.seekToEndOfFile()
            handle?.write(Data(text.utf8))
            try? handle?.close()
        }
        if arguments[1] == "test" {
            schemaIDs.append(environment["MUTATE_SCHEMA_ID"] ?? "")
            filters.append(arguments.firstIndex(of: "--filter").map { arguments[$0 + 1] } ?? "")
            skips.append(arguments.firstIndex(of: "--skip").map { arguments[$0 + 1] } ?? "")
            watched.append(stopWhen != nil)
            append("ran swift test" + (arguments.firstIndex(of: "--filter").map { " --filter " + arguments[$0 + 1] } ?? "")
                   + (arguments.firstIndex(of: "--skip").map { " --skip " + arguments[$0 + 1] } ?? "") + "\n")
        }
        if arguments[1] == "build" {
            buildLimits.append(timeout)
            if source.contains("BUILD-HANG") { return ProcessResult(termination: .timedOut, seconds: 5) }
            if let marker = source.range(of: "SCHEMA-FAILS-AT-LINE "), let line = Int(source[marker.upperBound...].prefix(while: \.isNumber)) {
                append("\(directory.path)/Sources/Tiny/Arithmetic.swift:\(line):1: error: the schema does not type-check here\n")
                return ProcessResult(termination: .exited(1), seconds: 0.1)
            }
            if source.contains("SCHEMA-ELSEWHERE") {
                append("\(directory.path)/Sources/Tiny/Other.swift:1:1: error: expected declaration\n")
                return ProcessResult(termination: .exited(1), seconds: 0.1)
            }
            if source.contains("SCHEMA-BROKEN") {
                append("\(directory.path)/Sources/Tiny/Arithmetic.swift:2:5: error: no '^~^<' candidates produce the expected type\n")
                return ProcessResult(termination: .exited(1), seconds: 0.1)
            }
            if source.contains("BROKEN") {
                append("\(directory.path)/Sources/Tiny/Arithmetic.swift:4:9: error: cannot find 'BROKEN' in scope\n")
                return ProcessResult(termination: .exited(1), seconds: 0.1)
            }
            if makesTestBinary {
                let binary = directory.appendingPathComponent(".build/debug/PkgPackageTests.xctest")
                try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
                try writeExecutable("#!/bin/sh\n", to: binary)
            }
            return ProcessResult(termination: .exited(0), seconds: buildSeconds)
        }
        if let index = interruptAtTest, calls.filter({ $0.command == "test" }).count == index {
            throw LabError.interrupted(signal: SIGINT)
        }
        if source.contains("CRASH-THEN-HANG") {
            append("Tiny/Arithmetic.swift:4: Fatal error: boom\nerror: Process 'x.xctest T.Legacy/testAdds' exited with unexpected signal code 4\n")
            return ProcessResult(termination: .timedOut, seconds: 5)
        }
        if source.contains("HANG") { return ProcessResult(termination: .timedOut, seconds: 5) }
        if source.contains("NO-TESTS") {
            // A runner that finds no test: exit 0 and an empty report.
            let xunit = URL(fileURLWithPath: arguments[arguments.firstIndex(of: "--xunit-output")! + 1])
            try Data("<testsuites></testsuites>".utf8).write(to: xunit)
            return ProcessResult(termination: .exited(0), seconds: 0.1)
        }
        if source.contains("CRASH") {
            append("Tiny/Arithmetic.swift:4: Fatal error: boom\nerror: Process 'x.xctest T.Legacy/testAdds' exited with unexpected signal code 4\n")
            return ProcessResult(termination: .exited(1), seconds: 0.2)
        }
        let xunit = URL(fileURLWithPath: arguments[arguments.firstIndex(of: "--xunit-output")! + 1])
        // The tests are in target `T`, and one in target `Other` (which cannot reach the code).
        let filter = arguments.firstIndex(of: "--filter").map { arguments[$0 + 1] }
        let skip = arguments.firstIndex(of: "--skip").map { arguments[$0 + 1] }
        func runs(_ test: String) -> Bool {
            (filter.map { try! Regex($0).firstMatch(in: test) != nil } ?? true) && (skip.map { try! Regex($0).firstMatch(in: test) == nil } ?? true)
        }
        let runsT = runs("T.Suite/adds()")
        let runsOther = runs("Other.Suite/unrelated()")
        if writesSuiteProfile, let profile = environment["LLVM_PROFILE_FILE"], profile != "/dev/null" {
            let ran = (runsT ? ["T.Suite/adds()", "T.Suite/other()"] : []) + (runsOther ? ["Other.Suite/unrelated()"] : [])
            try writeProfile(ran.flatMap { reaches[$0] ?? [] } + suiteOnlyReaches, to: profile)
            try writeStray(for: ran, in: directory)
        }
        // Under a schema, switch 1 is the subtraction; a real schema (with
        // `__mutate` switches in the source) is red only by its switch.
        let schemaSwitch = environment["MUTATE_SCHEMA_ID"] == "1"
        // `FLAKY-ONCE`: the first run of such a source fails, as a test that fails only under load would.
        let flaky = runsT && source.contains("FLAKY-ONCE") && !flakyFailed
        if flaky { flakyFailed = true }
        let failing = flaky || runsT && !testsWeakened && (Self.namedSchemaFails(source, environment)
            ?? (source.contains("__mutate") ? schemaSwitch : source.contains("a - b") || schemaSwitch))
        if suiteHang, source.contains("zero = 1"), let index = arguments.firstIndex(of: "--event-stream-output-path") {
            return try hang("T.Suite/other()/Arithmetic.swift:9:6", events: arguments[index + 1], stopWhen: stopWhen)
        }
        if let suiteQuiet, !failing, let index = arguments.firstIndex(of: "--event-stream-output-path") {
            func event(_ kind: String, _ test: String, at seconds: Double) -> String {
                #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":"# + "\(seconds)"
                    + #"},"kind":""# + kind + #"","testID":""# + test + #"/Arithmetic.swift:3:6"}}"#
            }
            let events = [event("testStarted", "T.Suite/other()", at: 1_000), event("testEnded", "T.Suite/other()", at: 1_000 + suiteQuiet),
                          event("testStarted", "T.Suite/adds()", at: 2_000), event("testEnded", "T.Suite/adds()", at: 2_000 + 10 * suiteQuiet)]
            try Data(events.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: arguments[index + 1]))
        }
        if failing, let stopWhen, let index = arguments.firstIndex(of: "--event-stream-output-path") {
            // Swift Testing writes the issue to its event stream as it happens; the lab may stop the run there,
            // with another test still running (started, never ended).
            let started = #"{"kind":"event","payload":{"kind":"testStarted","testID":"T.Suite/other()/Arithmetic.swift:9:6"}}"#
            let issue = #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"T.Suite/adds()/Arithmetic.swift:3:6","# +
                #""issue":{"isFailure":true,"isKnown":false},"messages":[{"text":"Expectation failed: 2 + 3 → -1"}]}}"#
            try Data((started + "\n" + issue + "\n").utf8).write(to: URL(fileURLWithPath: arguments[index + 1]))
            if let answer = stopWhen() {
                if answer == .stoppedEarly { stoppedEarly += 1 }
                return ProcessResult(termination: answer, seconds: 0.1)
            }
        }
        let cases = (runsT ? """
            <testcase classname="T.Suite" name="adds()" time="0.01">\(failing ? "<failure message=\"Expectation failed: 2 + 3 → -1\"/>" : "")</testcase>
            <testcase classname="T.Suite" name="other()" time="0.01"/>
            """ : "") + (runsOther && !xctestTests.contains("Other.Suite/unrelated()") ? #"<testcase classname="Other.Suite" name="unrelated()" time="0.01"/>"# : "")
        try Data("<testsuites><testsuite name=\"TestResults\">\(cases)</testsuite></testsuites>".utf8)
            .write(to: URL(fileURLWithPath: xunit.deletingPathExtension().path + "-swift-testing.xml"))
        // XCTest's tests in XCTest's file (the scripted ones pass in the suite; they are judged in their own runs).
        let xctestCases = ["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"].filter { xctestTests.contains($0) && runs($0) }
        if !xctestCases.isEmpty { try writeCases(xctestCases, arguments: arguments) { _ in nil } }
        // `EXIT-ZERO`: a runner that reports the failure but exits 0 anyway.
        return ProcessResult(termination: .exited(failing && !source.contains("EXIT-ZERO") ? 1 : 0), seconds: 0.3)
    }

    /// A run in which `test` starts (in the event stream at `events`) and
    /// never ends: it lasts until the lab stops it, or one second (then
    /// `.timedOut`: the run's limit); how it ended goes to `hungRuns`.
    private func hang(_ test: String, events: String, stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult {
        let started = #"{"kind":"event","payload":{"kind":"testStarted","testID":""# + test + #""}}"#
        try Data((started + "\n").utf8).write(to: URL(fileURLWithPath: events))
        var answer: ProcessTermination?
        for _ in 0..<50 where answer == nil {
            answer = stopWhen?()
            usleep(20_000)
        }
        hungRuns.append(answer)
        return ProcessResult(termination: answer ?? .timedOut, seconds: 1)
    }

    /// In a schema of named mutants (`PatchSchema`'s wrappers in the
    /// source): whether `adds()` fails, that is whether the code the switch
    /// turns on has `a - b`, or the source says `SWITCHED-OFF-FAILS`; nil
    /// for any other source.
    static func namedSchemaFails(_ source: String, _ environment: [String: String]) -> Bool? {
        guard source.contains("{ if !__mutateActive(") || source.contains("{ if !(__mutateActive(") else { return nil }
        if source.contains("SWITCHED-OFF-FAILS") { return true }
        guard let number = Int(environment[Schema.variable] ?? ""), number > 0,
              let first = source.range(of: "__mutateActive(\(number))") else { return false }
        // A variant but the last follows `else if __mutateActive(N) {`; the last, the first `} else {` after its switch.
        let start = source.range(of: "else if __mutateActive(\(number)) {")?.upperBound
            ?? source.range(of: "} else {", range: first.upperBound..<source.endIndex)?.upperBound
        guard let start else { return false }
        let end = source.range(of: "} else", range: start..<source.endIndex)?.lowerBound ?? source.range(of: "} }", range: start..<source.endIndex)?.lowerBound
        return source[start..<(end ?? source.endIndex)].contains("a - b")
    }

    /// What the programs `tests` start (`strayReaches`) ran, in the copy's `default.profraw`.
    private func writeStray(for tests: [String], in directory: URL) throws {
        let stray = tests.flatMap { strayReaches[$0] ?? [] }
        if !stray.isEmpty { try writeProfile(stray, to: directory.appendingPathComponent("default.profraw").path) }
    }

    /// What a run of the test executable with `tests` reached, where
    /// `LLVM_PROFILE_FILE` asks for a profile, and what the programs they start reached.
    private func writeReach(of tests: [String], environment: [String: String], in directory: URL) throws {
        guard let profile = environment["LLVM_PROFILE_FILE"], profile != "/dev/null" else { return }
        try writeProfile(tests.flatMap { reaches[$0] ?? [] }, to: profile)
        try writeStray(for: tests, in: directory)
    }

    /// A profile (in `llvm-profdata merge -text` form) that shows `functions` as run.
    private func writeProfile(_ functions: [String], to profile: String) throws {
        let text = functions.map { "\($0)\n# Func Hash:\n0\n# Num Counters:\n1\n# Counter Values:\n1\n" }.joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: profile.replacingOccurrences(of: "%p", with: "1")))
    }

    /// The test executable started directly: runs the tests its `--filter`s
    /// match, writes what they reach to `LLVM_PROFILE_FILE` (in
    /// `llvm-profdata merge -text` form), and fails `T.Suite/adds()` on `a - b`.
    private func runBinary(_ arguments: [String], in directory: URL, source: String, environment: [String: String], log: URL,
                           stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult
    {
        let all = ["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"]
        let filters = arguments.indices.filter { arguments[$0] == "--filter" }.map { arguments[$0 + 1] }
        let chosen = all.filter { id in filters.contains { try! Regex($0).firstMatch(in: id) != nil } }
        binaryRuns.append(chosen)
        watched.append(stopWhen != nil)
        if writesNoProfileAlone.map({ chosen != [$0] }) ?? true { try writeReach(of: chosen, environment: environment, in: directory) }
        if let record = environment[Schema.reachedVariable] {
            let numbers = chosen.flatMap { switchReaches[$0] ?? [] } + (chosen.count > 1 ? switchesUnderLoad : [])
            if !numbers.isEmpty {
                if !FileManager.default.fileExists(atPath: record) { _ = FileManager.default.createFile(atPath: record, contents: nil) }
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: record))
                handle.seekToEndOfFile()
                handle.write(Data(numbers.map { "\($0)\n" }.joined().utf8))
                try handle.close()
            }
        }
        if let (test, outcome) = aloneWithProfile, chosen == [test], let profile = environment["LLVM_PROFILE_FILE"], profile != "/dev/null" {
            try writeCases(outcome == .doesNotRun ? [] : outcome == .anotherTestRuns ? ["T.Suite/adds()"] : [test], arguments: arguments) { _ in
                outcome == .fails ? "Expectation failed: needs another test first" : nil
            }
            let termination: ProcessTermination = switch outcome {
            case .fails: .exited(1)
            case .crashesAfterPassing: .signalled(SIGABRT)
            case .doesNotRun, .anotherTestRuns: .exited(0)
            }
            return ProcessResult(termination: termination, seconds: 0.05)
        }
        if let quiet = diesSilentlyUnderSwitch, environment[Schema.variable] == String(quiet) {
            try writeCases(chosen, arguments: arguments) { _ in nil }
            return ProcessResult(termination: .signalled(SIGABRT), seconds: 0.05)
        }
        // Under a schema, the odd switches break `adds()`.
        let switched = Int(environment[Schema.variable] ?? "").map { $0 % 2 == 1 } ?? false
        let failsAlone = (environment[Schema.reachedVariable] != nil && chosen.count == 1 && chosen.first == failsWithSwitchRecordAlone)
            || (chosen.count == 1 && chosen.first == self.failsAlone)
        let failing = failsAlone
            || chosen.contains("T.Suite/adds()") && (Self.namedSchemaFails(source, environment) ?? (source.contains("a - b") || switched))
        if failing, chosenCrash, let index = arguments.firstIndex(of: "--event-stream-output-path") {
            let started = #"{"kind":"event","payload":{"kind":"testStarted","testID":"T.Suite/adds()/Arithmetic.swift:3:6"}}"#
            try Data((started + "\n").utf8).write(to: URL(fileURLWithPath: arguments[index + 1]))
            LogFile.append("Tiny/Arithmetic.swift:4: Fatal error: boom\n", to: log)
            return ProcessResult(termination: .signalled(SIGILL), seconds: 0.05)
        }
        if failing, chosenHang, let index = arguments.firstIndex(of: "--event-stream-output-path") {
            return try hang("T.Suite/adds()/Arithmetic.swift:3:6", events: arguments[index + 1], stopWhen: stopWhen)
        }
        if suiteHang, source.contains("zero = 1"), chosen == all, let index = arguments.firstIndex(of: "--event-stream-output-path") {
            return try hang("T.Suite/other()/Arithmetic.swift:9:6", events: arguments[index + 1], stopWhen: stopWhen)
        }
        if failing, let stopWhen, let index = arguments.firstIndex(of: "--event-stream-output-path") {
            // The failure reaches the event stream first: the lab may stop the run there.
            let issue = #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"T.Suite/adds()/Arithmetic.swift:3:6","# +
                #""issue":{"isFailure":true,"isKnown":false},"messages":[{"text":"Expectation failed: 2 + 3 → -1"}]}}"#
            try Data((issue + "\n").utf8).write(to: URL(fileURLWithPath: arguments[index + 1]))
            if let answer = stopWhen() {
                if answer == .stoppedEarly { stoppedEarly += 1 }
                return ProcessResult(termination: answer, seconds: 0.05)
            }
        }
        try writeCases(chosen, arguments: arguments) { id in
            failing && (id == "T.Suite/adds()" || failsAlone) ? "Expectation failed: 2 + 3 → -1" : nil
        }
        return ProcessResult(termination: .exited(failing ? 1 : 0), seconds: chosen.count == 1 ? secondsAlone[chosen[0]] ?? 0.05 : 0.05)
    }

    /// Writes the xunit file a directly started Swift Testing run asks for
    /// (`--xunit-output`): one case for each of `tests`, failed with the
    /// message `failure` gives it (nil: passed).
    private func writeCases(_ tests: [String], arguments: [String], failure: (String) -> String?) throws {
        let cases = tests.map { id in
            let parts = id.split(separator: "/")
            return "<testcase classname=\"\(parts[0])\" name=\"\(parts[1])\" time=\"0.01\">"
                + (failure(id).map { "<failure message=\"\($0)\"/>" } ?? "") + "</testcase>"
        }.joined()
        let xunit = URL(fileURLWithPath: arguments[arguments.firstIndex(of: "--xunit-output")! + 1])
        try Data("<testsuites><testsuite name=\"TestResults\">\(cases)</testsuite></testsuites>".utf8).write(to: xunit)
    }

    /// The test executable asked for XCTest tests by name (`ids`,
    /// comma-separated): each says on the console that it started and
    /// passed or failed (`T.Suite/adds()` and `xctestFailingOnMinus` fail on
    /// `a - b`); what they reach goes to `LLVM_PROFILE_FILE`.
    private func runXCTest(_ ids: String, in directory: URL, source: String, environment: [String: String], log: URL) throws -> ProcessResult {
        let chosen = ids.split(separator: ",").map(String.init)
        binaryRuns.append(chosen)
        try writeReach(of: chosen, environment: environment, in: directory)
        var failed = false
        for id in chosen {
            let name = id.split(separator: "/").map(String.init)
            let console = (name[0].split(separator: ".").last.map(String.init) ?? name[0]) + "." + name[1]
            let fails = source.contains("a - b") && (id == "T.Suite/adds()" || xctestFailingOnMinus.contains(id))
            failed = failed || fails
            LogFile.append("Test Case '\(console)' started\nTest Case '\(console)' \(fails ? "failed" : "passed") (0.001 seconds)\n", to: log)
        }
        return ProcessResult(termination: .exited(failed ? 1 : 0), seconds: 0.05)
    }
}
