import Foundation

/// One mutant: apply, build, test (the covering tests or the suite),
/// restore, classify.
extension Lab {
    /// What one run of a mutant's tests gives: its seconds, how the test
    /// process ended, the tests it reported and the verdict.
    typealias TestsRun = (seconds: Double, termination: ProcessTermination, report: TestRunReport, verdict: Classifier.Verdict)

    /// A mutant run as a patch (a named one outside the schema, a generated
    /// one the schema left out): applied to the copy, built, tested, and the
    /// copy restored byte for byte whatever happens.
    ///
    /// With a schema installed the patch goes on top of it: the files it
    /// changes are the package's own with the patch applied, and every
    /// other file keeps the schema with all its switches off, which the
    /// schema's baseline proved to run as the package does. The build then
    /// compiles the patched files again, not every module the schema touched.
    func runMutant(_ mutant: Mutant) throws -> MutantResult {
        var result = MutantResult(pending: mutant)
        let log = logs.appendingPathComponent("\(mutant.name).log")
        try? FileManager.default.removeItem(at: log)
        if let refusal = schemaRefusals[mutant.name] {
            appendLine("mutate: not in the named mutants' schema, so built on its own: \(refusal)", to: log)
        }

        // Apply in memory first: a stale mutant never touches the copy.
        let changes: [FileChange]
        switch mutant.diff.changes(reading: readOriginal) {
        case .success(let applied):
            changes = applied
        case .failure(let error):
            result.status = .stale
            result.reason = error.description
            // The gate never rebases, but says when `rebase` would carry it.
            if generate == nil, case .rebased = MutantRebaser.rebase(mutant, root: workspace.root, reading: readOriginal) {
                result.reason = (result.reason ?? "") + "; `swift run mutate rebase \(mutant.name)` would carry it onto today's source"
            }
            try? Data("stale: \(error.description)\n".utf8).write(to: log)
            return result
        }
        return try applying(changes) { try buildAndTest(mutant, result, log: log) }
    }

    /// Runs `body` with `changes` written into the copy, and puts the copy
    /// back byte for byte whatever happens.
    func applying(_ changes: [FileChange], _ body: () throws -> MutantResult) throws -> MutantResult {
        let originals = changes.map { FileChange(path: $0.path, content: workspace.read($0.path)) }
        var finished = false
        defer {
            for original in originals.reversed() { try? workspace.write(original.path, original.content) }
            // A build or test cut short can leave the mutant's object files
            // looking newer than the restored source: the next run rebuilds
            // those modules from scratch (`forgetInterruptedBuilds`).
            if !finished { workspace.noteInterrupted(originals.map(\.path)) }
        }
        for change in changes { try workspace.write(change.path, change.content) }
        let outcome = try body()
        // A build killed at its time limit was cut short too.
        finished = !(outcome.status == .unviable && outcome.reason == Self.buildTimedOut)
        return outcome
    }

    static let buildTimedOut = "the build ran past its time limit"

    /// A mutant's build, or the schema's, may take ten times the baseline's
    /// and never less than ten minutes; past that it is unviable (a hung
    /// compiler). The baseline itself has no limit.
    var mutantBuildLimit: Double { max(600, report.baselineBuildSeconds * 10) }

    /// Builds and tests the copy with the mutant applied.
    func buildAndTest(_ mutant: Mutant, _ pending: MutantResult, log: URL) throws -> MutantResult {
        let result = try built(pending, log: log)
        guard result.status != .unviable else { return result }
        return try tested(mutant, result, log: log)
    }

    /// `pending` once the copy is built: `unviable`, with the first
    /// compiler error or the time limit as its reason, when it does not build.
    func built(_ pending: MutantResult, log: URL) throws -> MutantResult {
        var result = pending
        let build = try runBuild(log: log, timeout: mutantBuildLimit)
        result.buildSeconds = build.seconds
        guard build.termination.succeeded else {
            result.status = .unviable
            result.reason = build.termination == .timedOut
                ? Self.buildTimedOut
                : Classifier.firstCompilerError(in: read(log))?.replacingOccurrences(of: workspace.root.path + "/", with: "") ?? "the build failed"
            return result
        }
        return result
    }

    /// `result` with the verdict of the mutant's tests (`testMutant`), as
    /// built or by its switch in `extraEnvironment`; after a crash, with the
    /// tests that were to run and never reported (`notRun`).
    func tested(_ mutant: Mutant, _ pending: MutantResult, log: URL, extraEnvironment: [String: String] = [:]) throws -> MutantResult {
        let run = try testMutant(mutant, log: log, extraEnvironment: extraEnvironment)
        if run.verdict.status == .killed, let killer = run.verdict.killedBy.first {
            learnedKillers.note(killer, killedAMutantOf: mutant.diff.files.map(\.path))
        }
        var started = report.tests
        if testBinary != nil, case .tests(let chosen) = reaches[mutant.name] { started = chosen }
        return Self.judged(pending, by: run, started: started)
    }

    /// `pending` with `run`'s verdict: its seconds, status, killing tests
    /// and reason; after a crash, the tests of `started` that never
    /// reported (`notRun`).
    static func judged(_ pending: MutantResult, by run: TestsRun, started: [String]) -> MutantResult {
        var result = pending
        result.testSeconds = run.seconds
        result.status = run.verdict.status
        result.killedBy = run.verdict.killedBy
        result.reason = run.verdict.reason
        if run.verdict.status == .killed, run.report.crashedTest != nil, run.termination != .stoppedEarly {
            let reported = Set(run.report.cases.map(\.id) + run.verdict.killedBy)
            result.notRun = started.filter { !reported.contains($0) }
        }
        return result
    }

    /// Runs the tests for a mutant: first those of the targets that reach
    /// its code, if the run chose some, then, unless they killed it, the
    /// rest of the suite. A survivor has passed the whole suite: the two runs
    /// are judged together. Returns the seconds of both runs.
    func testMutant(_ mutant: Mutant, log: URL, extraEnvironment: [String: String] = [:])
        throws -> TestsRun
    {
        // The test that killed it last time (`--incremental`) runs first, on its own: a failure there is a kill now.
        if let killer = incremental?.previous?.verdicts[mutant.name].flatMap({ $0.result.status == .killed ? $0.result.killedBy.first : nil }),
           let binary = testBinary, baselineLibraries[killer] != nil, reaches[mutant.name] != .noTest
        {
            appendLine("mutate: the test that killed it in the results file runs first: \(killer)", to: log)
            let first = try runChosen([killer], of: binary, name: mutant.name, log: log, extraEnvironment: extraEnvironment)
            if first.verdict.status == .killed { return first }
            appendLine("mutate: it did not kill it now; the mutant's tests run as usual", to: log)
        }
        if let why = switchPlaced[mutant.name] {
            appendLine("mutate: the coverage map cannot place this mutant (\(why)); the tests that ran its switch can (the switch pass)", to: log)
        }
        if let mapped = switchNarrowed[mutant.name] {
            let chosen = if case .tests(let tests) = reaches[mutant.name] { tests.count } else { 0 }
            appendLine("mutate: the switch pass narrowed the coverage map's \(mapped.count) test(s) to the \(chosen) that ran this mutant's switch "
                + "or that it did not run; their time limits are those of the map's", to: log)
        }
        switch reaches[mutant.name] {
        case .noTest:
            let place = "\(mutant.diff.files.first?.path ?? "?")"
            appendLine("mutate: no test runs the code this mutant changes (\(place)): NoCoverage, no test run", to: log)
            return (0, .exited(0), TestRunReport(cases: []),
                    Classifier.Verdict(status: .noCoverage, killedBy: [], reason: "no test runs the code it changes"))
        case .tests(let tests):
            if let binary = testBinary { return try runOwnSuitesFirst(tests, of: mutant, binary: binary, log: log, extraEnvironment: extraEnvironment) }
        case .unknown(let why):
            if let binary = testBinary, let plan = suitePlan(for: mutant) {
                appendLine("mutate: the coverage map cannot place this mutant (\(why)): every test that could run its module runs", to: log)
                return try runSuitePlan(plan, of: binary, name: mutant.name, log: log, extraEnvironment: extraEnvironment)
            }
            appendLine("mutate: the whole suite runs for this mutant: \(why)", to: log)
        case nil:
            break
        }
        guard let targets = testTargets?(mutant), !targets.isEmpty else {
            let (test, tests, stall, _) = try runTests(name: mutant.name, log: log, timeout: suiteLimit, extraEnvironment: extraEnvironment)
            return (test.seconds, test.termination, tests, stalled(Classifier.classify(termination: test.termination, report: tests), stall, log: log))
        }
        let (first, firstTests, firstStall, _) = try runTests(name: mutant.name, log: log, timeout: suiteLimit,
                                                              extraEnvironment: extraEnvironment, targets: targets)
        let verdict = stalled(Classifier.classify(termination: first.termination, report: firstTests), firstStall, log: log)
        if verdict.status == .killed || verdict.status == .timeout { return (first.seconds, first.termination, firstTests, verdict) }
        appendLine("mutate: the tests of \(targets.joined(separator: ", ")) did not kill it; running the rest of the suite", to: log)
        let (rest, restTests, restStall, _) = try runTests(name: mutant.name, log: log, timeout: suiteLimit,
                                                           extraEnvironment: extraEnvironment, skipping: targets)
        var both = restTests
        both.cases = firstTests.cases + restTests.cases
        return (first.seconds + rest.seconds, rest.termination, both,
                stalled(Classifier.classify(termination: rest.termination, report: both), restStall, log: log))
    }

    /// Runs the tests that reach a mutant: for a generated one, first, on
    /// their own, those that killed other mutants of its files in this run
    /// (`LearnedKillers`) and are not in its first wave anyway; then those of the suites named
    /// after its files (`OwnSuites`), then, unless they killed it, the
    /// others; each in two waves, its fastest second of tests alone and
    /// then the rest (`TestWaves`). A survivor has passed every run but the
    /// learned killers' (those ran again in their stage), judged together.
    /// With `--all-tests` (every killing test wanted), one run of every test.
    func runOwnSuitesFirst(_ tests: [String], of mutant: Mutant, binary: TestBinary, log: URL, extraEnvironment: [String: String])
        throws -> TestsRun
    {
        // Narrowed by the switch pass: each run's limits are those the map's tests would have had.
        let mapped = switchNarrowed[mutant.name]
        guard configuration.stopAtFirstFailure else {
            return try runChosen(tests, of: binary, name: mutant.name, log: log, extraEnvironment: extraEnvironment, waveOf: mapped)
        }
        let files = mutant.diff.files.map(\.path)
        let stages = self.stages(of: tests, files: files)
        let limits = mapped.map { self.stages(of: $0, files: files) }
        // The tests whose time gives a run of `run`'s tests its limits when the
        // mutant was narrowed: the stages of the map's tests that hold one of them.
        func limitStage(_ run: [String]) -> [String]? {
            limits.map { Self.stages($0, holding: run) }
        }
        let learned = try runLearnedKillers(tests, stages: stages, files: files, name: mutant.name, binary: binary, log: log,
                                            extraEnvironment: extraEnvironment, limitStage: limitStage)
        if let learned, learned.verdict.status != .survived { return learned }
        var usual: TestsRun
        if stages.count > 1 {
            appendLine("mutate: the \(stages[0].count) test(s) of the suites named after its file(s) run first", to: log)
            usual = try runInWaves(stages[0], of: binary, name: mutant.name, log: log, extraEnvironment: extraEnvironment,
                                   limitsOf: limitStage(stages[0]))
            if usual.verdict.status == .survived {
                appendLine("mutate: they did not kill it; the other \(stages[1].count) test(s) that reach it run", to: log)
                usual = Self.joined(usual, try runInWaves(stages[1], of: binary, name: mutant.name, log: log, extraEnvironment: extraEnvironment,
                                                          limitsOf: limitStage(stages[1])))
            }
        } else {
            usual = try runInWaves(tests, of: binary, name: mutant.name, log: log, extraEnvironment: extraEnvironment, limitsOf: limitStage(tests))
        }
        usual.seconds += learned?.seconds ?? 0
        return usual
    }

    /// For a generated mutant, runs on their own the tests among `tests`
    /// that killed other mutants of `files` in this run and that the first
    /// wave of the first of `stages` (the runs the mutant's tests make) does
    /// not hold, as many as fit in `learnedKillerSeconds` alone (nil when
    /// there are none). Their run has the time limit and stall allowance of one run
    /// of every stage they belong to (of the map's tests, for a mutant the
    /// switch pass narrowed: `limitStage`), so at least those of the stage each
    /// runs in later: a test that fails or hangs here fails or hangs there
    /// too, and the mutant is detected either way; one that passes runs
    /// again in its place.
    private func runLearnedKillers(_ tests: [String], stages: [[String]], files: [String], name: String, binary: TestBinary, log: URL,
                                   extraEnvironment: [String: String], limitStage: ([String]) -> [String]?) throws -> TestsRun?
    {
        // Generated mutants only: many of one function fall to the same test, where named mutants are distinct
        // bugs (on this package's 85, a learned killer killed 3 of the 19 it ran for; on 806 generated, 28 of 44).
        guard generate != nil else { return nil }
        let first = stages.first ?? tests
        let firstWave = Set(waves(of: first).first ?? [])
        let learned = LearnedKillers.withinBudget(learnedKillers.tests(among: tests, for: files).filter { !firstWave.contains($0) },
                                                  seconds: secondsAlone, budget: learnedKillerSeconds)
        guard !learned.isEmpty else { return nil }
        appendLine("mutate: \(learned.count) test(s) that killed other mutants of its file(s) in this run run first, on their own", to: log)
        let run = try runChosen(learned, of: binary, name: name, log: log, extraEnvironment: extraEnvironment,
                                waveOf: limitStage(learned) ?? Self.stages(stages, holding: learned))
        if run.verdict.status == .survived { appendLine("mutate: they did not kill it; its tests run as usual", to: log) }
        return run
    }

    /// Runs `tests` in waves, fastest first (`TestWaves`): each wave one
    /// `runChosen`, the next only when the mutant survived the last. Every
    /// wave gets the time limit and the stall allowance one run of all of
    /// `tests` would have: a test the mutant slows down has as long to end
    /// in its wave as beside the slower tests. With `stage` (the map's
    /// tests of a mutant the switch pass narrowed), every run gets those of
    /// one run of all of `stage` instead, one wave or more.
    func runInWaves(_ tests: [String], of binary: TestBinary, name: String, log: URL, extraEnvironment: [String: String],
                    limitsOf stage: [String]? = nil)
        throws -> TestsRun
    {
        let waves = waves(of: tests)
        guard waves.count > 1 else {
            return try runChosen(tests, of: binary, name: name, log: log, extraEnvironment: extraEnvironment, waveOf: stage)
        }
        var done: TestsRun?
        for (index, wave) in waves.enumerated() {
            let alone = wave.map(secondsAlone).reduce(0, +)
            appendLine(String(format: "mutate: wave %d of %d, fastest first: %d test(s), %.2fs alone", index + 1, waves.count, wave.count, alone), to: log)
            let run = try runChosen(wave, of: binary, name: name, log: log, extraEnvironment: extraEnvironment, waveOf: stage ?? tests)
            let both = done.map { Self.joined($0, run) } ?? run
            guard run.verdict.status == .survived else { return both }
            done = both
        }
        return done!
    }

    /// A mutant's `tests` in the runs they make: those of the suites named
    /// after its `files` (`ownSuites`), then the others; one stage when
    /// either part is empty.
    func stages(of tests: [String], files: [String]) -> [[String]] {
        let own = ownSuites(tests, files)
        guard !own.isEmpty, own.count < tests.count else { return [tests] }
        let owned = Set(own)
        return [own, tests.filter { !owned.contains($0) }]
    }

    /// The tests of those of `stages` that hold one of `run`'s.
    static func stages(_ stages: [[String]], holding run: [String]) -> [String] {
        stages.filter { $0.contains(where: run.contains) }.flatMap { $0 }
    }

    /// `tests` fastest first, in their waves (`TestWaves`).
    func waves(of tests: [String]) -> [[String]] {
        TestWaves.split(coverage?.fastestFirst(tests) ?? tests, seconds: secondsAlone, firstBudget: firstWaveSeconds)
    }

    /// A test's seconds on its own in the coverage pass (0 unknown).
    func secondsAlone(_ test: String) -> Double {
        coverage?.seconds[test] ?? 0
    }

    /// A mutant's second run of tests, made after its first survived, and
    /// that first run as one: the second's verdict (the first passed; a
    /// survivor's reason counts the tests of both), both runs' time and
    /// test cases.
    static func joined(_ first: TestsRun, _ second: TestsRun) -> TestsRun {
        var both = second.report
        both.cases = first.report.cases + second.report.cases
        let verdict = second.verdict.status == .survived ? Classifier.classify(termination: second.termination, report: both) : second.verdict
        return (first.seconds + second.seconds, second.termination, both, verdict)
    }

    /// For a mutant the coverage map cannot place, when the test executable
    /// can be started directly: the tests of the test targets that link its
    /// module first, then the other tests that ran any code of that module
    /// (themselves or in a process they started). Any other test can run
    /// none of the mutated code: its target does not link it and it started
    /// no process that ran it. Nil without a map (`swift test` runs the
    /// whole suite then).
    func suitePlan(for mutant: Mutant) -> (first: [String], rest: [String])? {
        guard let coverage, !report.tests.isEmpty else { return nil }
        guard let targets = testTargets?(mutant), !targets.isEmpty else { return (coverage.fastestFirst(report.tests), []) }
        let inTargets = report.tests.filter { test in targets.contains { test.hasPrefix($0 + ".") } }
        let chosen = Set(inTargets)
        var rest = report.tests.filter { !chosen.contains($0) }
        if let folder = mutatedModule?(mutant), let reaching = coverage.tests(reachingFilesUnder: folder) {
            rest = rest.filter(reaching.contains)
        }
        guard !inTargets.isEmpty || !rest.isEmpty else { return nil }
        return (coverage.fastestFirst(inTargets), coverage.fastestFirst(rest))
    }

    /// Runs a `suitePlan` by the test executable: its first tests, then,
    /// unless they killed the mutant, the rest; a survivor has passed both.
    private func runSuitePlan(_ plan: (first: [String], rest: [String]), of binary: TestBinary, name: String, log: URL,
                              extraEnvironment: [String: String])
        throws -> TestsRun
    {
        // Runs of many tests at once: each test may be as quiet as in the baseline's whole suite (`stopRule`).
        func run(_ tests: [String]) throws -> TestsRun {
            try runChosen(tests, of: binary, name: name, log: log, extraEnvironment: extraEnvironment, wholeSuite: true)
        }
        guard !plan.first.isEmpty else { return try run(plan.rest) }
        let first = try run(plan.first)
        guard first.verdict.status == .survived, !plan.rest.isEmpty else {
            if first.verdict.status == .survived { appendLine("mutate: no other test ran code of the mutated module", to: log) }
            return first
        }
        appendLine("mutate: the tests of the targets that link its module did not kill it; "
            + "running the \(plan.rest.count) other test(s) that ran code of that module", to: log)
        return Self.joined(first, try run(plan.rest))
    }

    /// Runs only `tests` (the ones that reach the mutant), by starting the
    /// test executable directly: the Swift Testing ones in one process that
    /// stops at the first failing test, then, unless they killed it, the
    /// XCTest ones. Time limit, crash blame and interrupts as for the suite.
    func runChosen(_ tests: [String], of binary: TestBinary, name: String, log: URL, extraEnvironment: [String: String],
                   wholeSuite: Bool = false, waveOf stage: [String]? = nil, limit fixed: Double? = nil)
        throws -> TestsRun
    {
        appendLine("mutate: running the \(tests.count) test(s) that reach this mutant: \(tests.joined(separator: " "))", to: log)
        // Each run's limit is the suite's formula applied to its tests' time
        // alone in the coverage pass (never more than the whole suite's); a
        // wave's (`waveOf`), to all the tests of its waves, and its stall
        // allowance is at least the slowest of them's. Without those times, `fixed`.
        func limit(_ tests: [String]) -> Double {
            fixed ?? min(suiteLimit, configuration.testTimeout(baselineSeconds: (stage ?? tests).map(secondsAlone).reduce(0, +)))
        }
        let slowest = stage.map { $0.map(secondsAlone).max() ?? 0 } ?? 0
        let xunit = results.appendingPathComponent("\(name).xml")
        let swiftTestingXunit = results.appendingPathComponent("\(name)-swift-testing.xml")
        let events = results.appendingPathComponent("\(name).jsonl")
        for stale in [xunit, swiftTestingXunit, events] { try? FileManager.default.removeItem(at: stale) }
        let environment = environment.merging(extraEnvironment) { $1 }
        let swiftTesting = tests.filter { baselineLibraries[$0] == .swiftTesting }
        let xctest = tests.filter { baselineLibraries[$0] != .swiftTesting }
        var seconds = 0.0
        var cases: [TestCaseResult] = []
        var last: (ProcessTermination, TestRunReport, Classifier.Verdict)?
        if !swiftTesting.isEmpty {
            let (run, verdict, read) = try runWatched(binary.swiftTesting(swiftTesting, xunit: swiftTestingXunit, events: events),
                                                      "Swift Testing", swiftTesting, limit: limit(swiftTesting), watcher: EventStreamWatcher(events),
                                                      environment: environment, log: log, wholeSuite: wholeSuite, slowest: slowest) {
                TestRunReport.read(xunitPath: xunit, eventStream: events, log: self.read(log))
            }
            seconds += run.seconds
            cases = read.cases
            last = (run.termination, read, verdict)
            if verdict.status != .survived { return (seconds, run.termination, read, verdict) }
        }
        if !xctest.isEmpty {
            let logged = (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
            let (run, verdict, read) = try runWatched(binary.xctest(xctest), "XCTest", xctest, limit: limit(xctest),
                                                      watcher: XCTestFailureWatcher(log, from: logged, requested: xctest),
                                                      environment: environment, log: log, wholeSuite: wholeSuite, slowest: slowest) {
                let output = (try? Data(contentsOf: log)).map { String(decoding: $0.dropFirst(logged), as: UTF8.self) } ?? ""
                var read = TestRunReport.read(xunitPath: self.results.appendingPathComponent("\(name)-xctest-none.xml"), log: output, xctestConsole: xctest)
                read.cases = cases + read.cases
                return read
            }
            seconds += run.seconds
            last = (run.termination, read, verdict)
        }
        guard let (termination, read, verdict) = last else {
            return (0, .exited(0), TestRunReport(cases: []), Classifier.classify(termination: .exited(0), report: TestRunReport(cases: [])))
        }
        return (seconds, termination, read, verdict)
    }

    /// One run of the test executable for chosen tests of one library,
    /// watched (`stopRule`) while it goes; its report (`read`) and verdict,
    /// with the test that hung when it stalled.
    private func runWatched(_ arguments: [String], _ library: String, _ tests: [String], limit: Double, watcher: any TestRunWatcher,
                            environment: [String: String], log: URL, wholeSuite: Bool, slowest: Double, read: () -> TestRunReport)
        throws -> (ProcessResult, Classifier.Verdict, TestRunReport)
    {
        let stall = Locked<TestProgress.Stall?>(nil)
        appendLine(String(format: "mutate: %@, %d test(s), time limit %.0fs", library, tests.count, limit), to: log)
        let run = try runner.run(arguments, in: workspace.root, environment: environment, log: log, timeout: limit,
                                 stopWhen: stopRule(watcher, stall: stall, wholeSuite: wholeSuite, slowest: slowest))
        let report = read()
        return (run, stalled(Classifier.classify(termination: run.termination, report: report), stall.value, log: log), report)
    }

    /// When a run of tests stops before its time limit: at its first
    /// failing test (unless `--all-tests`), or when it has stalled (tests
    /// running, none started or ended for longer than the slowest of them
    /// may take: `LabConfiguration.stallAllowance`), which is kept in `stall`.
    /// In a run of the whole suite or a `suitePlan` (`wholeSuite`) each test may also be as
    /// quiet as the baseline's whole suite got while it ran (`suiteQuiet`),
    /// x the multiplier + 10 s; without those figures no stall is called.
    /// In a wave (`runInWaves`) each test may be as quiet as the `slowest`
    /// of all its waves' tests, as it could beside it in one run.
    func stopRule(_ watcher: any TestRunWatcher, stall: Locked<TestProgress.Stall?>, wholeSuite: Bool = false, slowest: Double = 0)
        -> () -> ProcessTermination?
    {
        let configuration = configuration
        // An explicit `--timeout` is the only limit.
        let alone = configuration.fixedTimeout == nil && (!wholeSuite || suiteQuiet != nil) ? coverage?.seconds : nil
        let quiet = wholeSuite ? suiteQuiet ?? [:] : [:]
        return {
            let now = Date()
            watcher.poll(at: now)
            if configuration.stopAtFirstFailure, watcher.sawFailure { return .stoppedEarly }
            guard let alone,
                  let found = watcher.progress.stall(at: now, allowance: { configuration.stallAllowance(aloneSeconds: max(quiet[$0] ?? 0, alone[$0] ?? 0, slowest)) })
            else { return nil }
            stall.set(found)
            return .timedOut
        }
    }

    /// A timeout's verdict, with the test that hung when the run stalled.
    func stalled(_ verdict: Classifier.Verdict, _ stall: TestProgress.Stall?, log: URL) -> Classifier.Verdict {
        guard verdict.status == .timeout, let stall else { return verdict }
        var verdict = verdict
        let alone = secondsAlone(stall.test)
        verdict.reason = "\(stall.test) hung: "
            + String(format: "no test started or ended for %.1fs (it took %.1fs alone; the limit is %.1fs)", stall.quiet, alone, stall.limit)
        appendLine("mutate: " + (verdict.reason ?? "") + "; the run was stopped as a timeout", to: log)
        return verdict
    }

    func appendLine(_ line: String, to log: URL) {
        LogFile.append(line + "\n", to: log)
    }
}
