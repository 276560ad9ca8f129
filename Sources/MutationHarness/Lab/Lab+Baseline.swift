import Foundation

/// The baseline (the unmutated build and suite, which set the time
/// limits) and the coverage pass that chooses each mutant's tests.
extension Lab {
    func runBaseline() throws {
        // An unchanged package whose mutants the results file holds needs no build before the schema's.
        if generate != nil, incremental?.canSkipBaseline == true, reuseBaseline() { return }
        let log = logs.appendingPathComponent("baseline.log")
        try? FileManager.default.removeItem(at: log)
        // The named mutants' schema is the baseline's build; with every switch off it is the package.
        var schemaBuild: ProcessResult?
        if let builder = patchSchemaBuilder {
            schemaBuild = try buildSchema(builder, title: "the unmutated package with the named mutants' schema", timeout: nil)
            if schemaBuild == nil {
                print("  the named mutants' schema does not build (\(logs.appendingPathComponent("schema.log").path)): each mutant is built on its own")
                patchSchemaBuilder = nil
            }
        }
        if schemaBuild == nil { print("Building the unmutated package (the first build of a fresh scratch copy takes longest)...") }
        let build = try schemaBuild ?? runBuild(log: log, timeout: nil)
        guard build.termination.succeeded else {
            throw LabError.baselineBuildFailed(firstError: Classifier.firstCompilerError(in: read(log)), log: log.path)
        }
        report.baselineBuildSeconds = build.seconds
        if configuration.buildOnly {
            print(String(format: "  built in %.1fs", build.seconds))
            return
        }
        if reuseBaseline() {
            noteSchemaNumbers()
            return
        }
        print(String(format: "  built in %.1fs; running the tests...", build.seconds))
        // With coverage, the suite's run keeps its profiles: the coverage pass
        // compares them with each test's own (code run only under load).
        func runSuite() throws -> (ProcessResult, TestRunReport, [String: Double]) {
            var profiles: [String: String] = [:]
            if configuration.coverage {
                try? FileManager.default.removeItem(at: suiteProfiles)
                try? FileManager.default.removeItem(at: workspace.root.appendingPathComponent("default.profraw"))
                try? FileManager.default.createDirectory(at: suiteProfiles, withIntermediateDirectories: true)
                profiles["LLVM_PROFILE_FILE"] = suiteProfiles.appendingPathComponent("%p.profraw").path
            }
            let (test, tests, _, quiet) = try runTests(name: "baseline", log: log, timeout: nil, extraEnvironment: profiles, baseline: true)
            return (test, tests, quiet)
        }
        var (test, tests, quiet) = try runSuite()
        if installedSchema != nil, !Self.isGreen(test, tests) {
            // Dropping the schema costs every named mutant a build of its own: a test that fails only under load gets a second run first.
            print("  the suite failed with the named mutants' schema and every switch off (\(Self.failureSummary(test, tests))): "
                + "running it once more (a test may fail only under load)")
            (test, tests, quiet) = try runSuite()
        }
        suiteQuiet = quiet.isEmpty ? nil : quiet
        baselineSchema = installedSchema?.digest
        // A program a test started with an environment of its own wrote here.
        try? FileManager.default.moveItem(at: workspace.root.appendingPathComponent("default.profraw"),
                                          to: suiteProfiles.appendingPathComponent("stray.profraw"))
        report.baselineTestSeconds = test.seconds
        if installedSchema != nil, !Self.isGreen(test, tests) {
            // The schema's fault or the package's: the package alone tells.
            print("  the suite is not green with the named mutants' schema and every switch off (\(log.path)): "
                + "each mutant is built on its own")
            try removeSchema()
            patchSchemaBuilder = nil
            return try runBaseline()
        }
        guard test.termination != .timedOut else { throw LabError.baselineTimedOut(log: log.path) }
        guard tests.failures.isEmpty, test.termination.succeeded else {
            throw LabError.baselineTestsFailed(tests: tests.failures.map(\.id), message: tests.failures.first?.message, log: log.path)
        }
        guard !tests.cases.isEmpty else { throw LabError.noTests(log: log.path) }
        report.tests = tests.cases.map(\.id)
        baselineLibraries = Dictionary(tests.cases.map { ($0.id, $0.library) }) { first, _ in first }
        report.testLocations = TestLocator.locations(ids: report.tests, eventStream: results.appendingPathComponent("baseline.jsonl"),
                                                     packageRoot: workspace.root)
        report.testTimeoutSeconds = configuration.testTimeout(baselineSeconds: test.seconds)
        suiteLimit = report.testTimeoutSeconds
        print(String(format: "  %d tests passed in %.1fs; each mutant's tests get %.0fs", tests.cases.count, test.seconds, report.testTimeoutSeconds))
        noteSchemaNumbers()
    }

    /// The named mutants that run by their switch in the schema built with the baseline.
    private func noteSchemaNumbers() {
        guard let schema = installedSchema else { return }
        schemaNumbers = schema.numbers
        print("  \(schema.numbers.count) named mutants run by switch, \(mutants.count - schema.numbers.count) built on their own")
    }

    /// Whether a run of the suite (or of chosen tests) passed: it exited
    /// well, no test failed, and some test ran.
    static func isGreen(_ run: ProcessResult, _ tests: TestRunReport) -> Bool {
        run.termination.succeeded && tests.failures.isEmpty && !tests.cases.isEmpty
    }

    /// How a run that is not green went, for a line of the run's output:
    /// the failing tests (the first three named), or how the process ended.
    static func failureSummary(_ run: ProcessResult, _ tests: TestRunReport) -> String {
        if !tests.failures.isEmpty { return failingSummary(tests.failures.map(\.id)) }
        switch run.termination {
        case .timedOut: return "past its time limit"
        case .signalled(let signal): return "killed by signal \(signal)"
        case .exited(let code) where code != 0: return "exit code \(code)"
        default: return tests.cases.isEmpty ? "no test ran" : "stopped early"
        }
    }

    /// "failing: " and the tests, the first three named.
    static func failingSummary(_ tests: [String]) -> String {
        "failing: " + ConsoleFormat.firstThree(tests)
    }

    /// Where the baseline's whole-suite run writes its coverage profiles.
    var suiteProfiles: URL { workspace.root.appendingPathComponent(".mutate/suite-profile") }

    /// Runs every test on its own in the instrumented build and keeps which
    /// functions each one runs. Whatever stops the pass (no LLVM tools, a
    /// test that fails alone, an unreadable profile) is said, and every
    /// mutant then gets the whole suite.
    func runCoveragePass() throws {
        defer { try? FileManager.default.removeItem(at: suiteProfiles) }
        if incremental?.reusedBaseline == true { return }
        let log = logs.appendingPathComponent("coverage.log")
        try? FileManager.default.removeItem(at: log)
        guard let binary = TestBinary.find(in: workspace.root) else {
            print("  no test executable to start directly in \(workspace.root.path)/.build/debug: every mutant runs the whole suite")
            return
        }
        guard let llvm = findLLVM(configuration.swift) else {
            print("  llvm-profdata and llvm-cov are neither beside swift nor on PATH: every mutant runs the whole suite")
            return
        }
        let tests = report.tests.map { ($0, baselineLibraries[$0] ?? .xctest) }
        print("Measuring which tests reach which code (\(tests.count) tests, each on its own)...")
        let started = Date()
        let pass = CoveragePass(binary: binary, llvm: llvm, runner: runner, root: workspace.root,
                                folder: workspace.root.appendingPathComponent(".mutate/coverage"), suiteProfiles: suiteProfiles,
                                environment: environment, log: log,
                                timeout: report.testTimeoutSeconds, print: print, workers: coverageWorkers, spare: spareWorkers, now: passClock)
        do {
            // Over the named mutants' schema, read in the original's lines.
            let map = try runPass(pass, tests)
            if let schema = installedSchema { coverage = map.mappingLines { schema.originalLine($1, in: $0) } } else { coverage = map }
            testBinary = binary
        } catch let error as CoverageError {
            print("  coverage pass stopped: \(error.reason)\n  every mutant runs the whole suite")
            return
        }
        report.coverageSeconds = Date().timeIntervalSince(started)
        print(String(format: "  %d tests measured in %.1fs", tests.count, report.coverageSeconds ?? 0))
    }

    /// The pass, measuring again only the tests `--incremental` cannot vouch
    /// for; if the earlier findings do not fit this build (a function renamed
    /// by a change elsewhere), every test is measured.
    private func runPass(_ pass: CoveragePass, _ tests: [(id: String, library: TestLibrary)]) throws -> CoverageMap {
        var pass = pass
        // Over the named mutants' schema every test is measured: the file's
        // lines run only under load are the original's, the pass's the schema's.
        if installedSchema == nil, let known = incremental?.knownCoverage() { pass.earlier = known }
        guard !pass.earlier.tests.isEmpty else { return try pass.run(tests) }
        print("  \(pass.earlier.tests.count) test(s) ran no changed file: what they reach is taken from \(incremental?.file.lastPathComponent ?? "the results file")")
        do {
            return try pass.run(tests)
        } catch let error as CoverageError {
            print("  \(error.reason): every test is measured again")
            pass.earlier = CoveragePass.KnownCoverage()
            return try pass.run(tests)
        }
    }

    /// What the coverage map says of each mutant, from where its patch lands
    /// in the unmutated copy (as the package has it, schema or not).
    func chooseTests() {
        guard let coverage else { return }
        for mutant in mutants {
            guard let touched = mutant.diff.touchedLines(reading: readOriginal) else { continue }
            reaches[mutant.name] = coverage.reach(touched.lines, wholeFiles: touched.wholeFiles)
        }
        let counts = reaches.values.reduce(into: (chosen: 0, none: 0, unknown: 0)) { counts, reach in
            switch reach {
            case .tests: counts.chosen += 1
            case .noTest: counts.none += 1
            case .unknown: counts.unknown += 1
            }
        }
        print("  \(counts.chosen) mutant(s) run only the tests that reach them, \(counts.none) reached by no test (NoCoverage), "
            + "\(counts.unknown) that the map cannot place (each runs every test that could run its code; its log says why)")
    }
}
