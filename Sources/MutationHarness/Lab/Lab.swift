import Foundation

/// Runs the baseline, then each mutant in the scratch copy, and rewrites the
/// reports as verdicts come (`writeReportsIfDue`).
public final class Lab {
    public let configuration: LabConfiguration
    let workspace: ScratchWorkspace
    let print: (String) -> Void
    var mutants: [Mutant]
    var report: LabReport
    /// For `mutate explore`: makes the mutants once the copy is built (the
    /// typed syntax tree needs the built modules); returns the mutants to
    /// run and the results of those ignored.
    let generate: ((ScratchWorkspace) throws -> (run: [Mutant], ignored: [MutantResult]))?
    /// For `mutate explore`: builds the mutant schema, leaving out the
    /// mutants named (those that did not type-check in it).
    var schemaBuilder: ((_ excluded: Set<String>) -> Schema)?
    /// For `mutate explore`: the test targets that can reach a mutant's code
    /// (nil: the whole suite). They run first; a mutant they do not kill
    /// runs against the rest of the suite before it is called a survivor, so
    /// the choice saves time and never changes a verdict to `survived`.
    var testTargets: ((Mutant) -> [String]?)?
    /// For `mutate explore`: the folder of the target whose code the mutant
    /// changes (nil: not known). A mutant the coverage map cannot place
    /// runs, after its targets' tests, only the other tests that ran code
    /// under it (`suitePlan`).
    var mutatedModule: ((Mutant) -> String?)?
    /// Which of a mutant's covering tests run first (`OwnSuites`: the
    /// suites named after the files it changes); tests choose others.
    var ownSuites: (_ tests: [String], _ files: [String]) -> [String] = OwnSuites.tests(_:forFiles:)
    /// Mutants that run by switch in the installed schema: name -> number.
    var schemaNumbers: [String: Int] = [:]
    var schemaFiles: [String: String?] = [:]
    /// The schema written into the copy and built, until it is removed.
    var installedSchema: Schema?
    /// Mutants left out of the built schema because its build failed on
    /// their code (or an earlier run's did): they run as patches.
    var schemaMisfits: Set<String> = []
    /// For the gate: makes the named mutants' schema, leaving out the
    /// mutants named; built with the baseline (nil: none).
    var patchSchemaBuilder: ((_ excluded: Set<String>) -> Schema)?
    /// Named mutants left out of their schema, and why (said in their logs).
    var schemaRefusals: [String: String] = [:]
    /// Parses Swift files for the named mutants' schema: paths relative to
    /// the folder -> their outermost function bodies (nil: the compiler
    /// beside `configuration.swift`; tests give their own).
    var parseBodies: (([String], URL) throws -> [String: [FunctionBody]])?
    /// Runs the build and test commands: the toolchain, or a script in tests.
    let runner: any CommandRunning
    /// The baseline's tests and the runner each belongs to.
    var baselineLibraries: [String: TestLibrary] = [:]
    /// The whole suite's time limit for a mutant (the report's, read here by
    /// mutants that run at once while the report is written).
    var suiteLimit: Double = 0
    /// How quiet the baseline's whole suite got while each test ran: the
    /// longest time it ran and no test started or ended
    /// (`TestProgress.quietWhileRunning`). Nil until measured (or for a
    /// suite without Swift Testing's events): then a whole-suite run of a
    /// mutant is never called stalled.
    var suiteQuiet: [String: Double]?
    /// `Schema.digest` of the named mutants' schema the baseline's suite
    /// ran in (nil: none), kept by `--incremental` with the baseline.
    var baselineSchema: String?
    /// Which tests reach which code, from the coverage pass; nil without one.
    var coverage: CoverageMap?
    /// The test executable started directly for the chosen tests.
    var testBinary: TestBinary?
    /// What the coverage map says of each mutant, by name.
    var reaches: [String: CoverageMap.Reach] = [:]
    /// Mutants the map could not place and the switch pass did (`placeBySwitches`),
    /// with the map's reason. Their verdicts keep the key of a mutant run by the
    /// whole suite, and no kill key: a program a test starts and kills writes no
    /// profile, so what their killing test reaches is not all known.
    var switchPlaced: [String: String] = [:]
    /// Mutants the map places whose tests the switch pass narrowed to those
    /// that ran their switch (`placeBySwitches`), with the map's tests: their
    /// runs get the time limits of those, and their verdicts keep the map's
    /// key (a superset of the tests they run).
    var switchNarrowed: [String: [String]] = [:]
    /// How many of the schema's mutants the map must give a test for the
    /// switch pass to run it (`SwitchReach.worthMeasuring`; tests of the
    /// lab give less).
    var switchPassMinimumMutants = SwitchPass.minimumMutants
    /// Tests the coverage pass runs at once: twice `configuration.jobs`.
    /// Many tests wait more than they compute, and load there can only make
    /// the times alone, and so the mutants' limits, longer, never a verdict
    /// wrong. (Tests of the lab give 1 where they read the runs in order.)
    var coverageWorkers: Int
    /// Test processes started beside the passes' and the loop's fixed
    /// workers while a core is idle (`SpareCores`): `configuration.spareJobs`
    /// of them, where the machine's processor time can be read. Many tests
    /// wait more than they compute; a spare worker starts only on a core
    /// they left unused in the last look. Once waiting tests compute again,
    /// up to 4 per core may: the limits' x3 margin covers it (measured).
    /// (A lab's configuration gives none unless its `spareJobs` is set.)
    var spareWorkers: SpareWorkers?
    /// The clock of the coverage and switch passes' progress lines (tests
    /// give a manual one).
    var passClock: @Sendable () -> Date = Date.init
    /// The first wave's seconds alone when a mutant's tests run in waves
    /// (`TestWaves`; tests of the lab give less, their tests take 0.05 s).
    var firstWaveSeconds = TestWaves.firstBudget
    /// Seconds alone the learned killers run first may take together (`LearnedKillers.budget`).
    var learnedKillerSeconds = LearnedKillers.budget
    /// The tests that killed mutants of each file so far in this run: they
    /// run before a mutant's waves, on their own (`runLearnedKillers`).
    let learnedKillers = LearnedKillers()
    /// Named mutants their `Killed-By:` tests killed before the coverage
    /// pass (`runNamedKillers`): their verdicts are in the report, and the
    /// loop passes them over.
    var settledByKillers: Set<String> = []
    /// Named mutants whose `Killed-By:` tests ran: their logs go on.
    var triedKillers: Set<String> = []
    /// `explore --incremental`: the results file and what this run takes from it.
    var incremental: IncrementalRun?
    /// Finds `llvm-profdata` and `llvm-cov` (tests give their own).
    var findLLVM: (String) -> LLVMCoverage? = { swift in Lab.llvmTools(swift: swift, environment: ProcessInfo.processInfo.environment) }

    /// The default `findLLVM`: the tools beside `swift`, else on `environment`'s
    /// `PATH` (`/usr/bin:/bin` when it has none).
    static func llvmTools(swift: String, environment: [String: String]) -> LLVMCoverage? {
        LLVMCoverage.find(swift: swift, path: environment["PATH"] ?? "/usr/bin:/bin")
    }

    public convenience init(configuration: LabConfiguration, mutants: [Mutant], print: @escaping (String) -> Void) {
        self.init(configuration: configuration, mutants: mutants, runner: ToolchainRunner(), print: print)
    }

    /// A lab whose commands `runner` runs (tests drive the loop without a
    /// toolchain); with `generate`, its mutants are made by it after the
    /// baseline build.
    init(configuration: LabConfiguration, mutants: [Mutant], runner: any CommandRunning, print: @escaping (String) -> Void,
         generate: ((ScratchWorkspace) throws -> (run: [Mutant], ignored: [MutantResult]))? = nil)
    {
        self.runner = runner
        self.configuration = configuration
        self.print = print
        self.generate = generate
        workspace = ScratchWorkspace(package: configuration.packagePath, root: configuration.scratchPath)
        coverageWorkers = 2 * max(1, configuration.jobs)
        spareWorkers = SpareWorkers.whileCoresIdle(count: configuration.spareJobs, times: ProcStat())
        report = LabReport(
            packagePath: configuration.packagePath.path, threshold: configuration.threshold, setupSeconds: 0,
            baselineBuildSeconds: 0, baselineTestSeconds: 0, testTimeoutSeconds: 0, tests: [],
            mutants: mutants.map(MutantResult.init(pending:)), shard: configuration.shard
        )
        self.mutants = mutants
    }

    var logs: URL { configuration.outputPath.appendingPathComponent("logs") }
    var results: URL { workspace.root.appendingPathComponent(".mutate/results") }

    /// Runs everything; returns the final report. On SIGINT or SIGTERM it
    /// throws `LabError.interrupted` after rewriting the reports, in which
    /// the mutant that was running, and every later one, stay `pending`.
    /// Whatever stops it, a schema in the copy is taken out.
    public func run() throws -> LabReport {
        do {
            return try runAll()
        } catch LabError.interrupted(let signal) {
            // A run stopped while it waited for the scratch copy's lock has
            // nothing of its own to write, and the reports and results file
            // may be the ones the run holding the lock is writing.
            guard holdsScratch else { throw LabError.interrupted(signal: signal) }
            try? removeSchema()
            // The verdicts reached so far are kept for the next run.
            try? saveIncremental()
            try? writeReportFiles()
            throw LabError.interrupted(signal: signal)
        } catch {
            try? removeSchema()
            // Reports already begun hold every verdict reached, as if written after each mutant.
            if reportsWritten != .distantPast { try? writeReportFiles() }
            throw error
        }
    }

    /// The stages, in order: the copy, the named mutants' schema (planned
    /// here, built with the baseline), the baseline, the coverage pass, the
    /// mutants (made now for `explore`), the generated mutants' schema, the
    /// mutants' loop.
    func runAll() throws -> LabReport {
        let lock = try prepareCopy()
        defer { withExtendedLifetime(lock) {} }
        // The suite's profiles live until the coverage pass reads them, or until the run ends
        // without one (every named mutant settled, an interrupt or error before it); the lock still held.
        defer { try? FileManager.default.removeItem(at: suiteProfiles) }
        try fingerprintCopy()
        if generate == nil, configuration.schema, !configuration.buildOnly, !mutants.isEmpty { try planPatchSchema() }
        try runBaseline()
        if settlesByNamedKillers { try runNamedKillers() }
        if !configuration.buildOnly, configuration.coverage {
            if !mutants.isEmpty, settledByKillers.count == mutants.count {
                print("  every named mutant was killed by the tests its file names: no coverage pass")
            } else {
                try runCoveragePass()
            }
        }
        if let generate {
            let made = try generate(workspace)
            mutants = made.run
            report.mutants = made.run.map(MutantResult.init(pending:)) + made.ignored
            if configuration.buildOnly { return report }
        }
        chooseTests()
        applyIncremental()
        let skipped = incremental?.reused ?? []
        if generate != nil, let schemaBuilder, mutants.contains(where: { !skipped.contains($0.name) }) {
            try installSchema { excluded in schemaBuilder(excluded.union(skipped)) }
        }
        try writeReports()
        try runMutants()
        adviseOnKillers()
        try finishIncremental()
        try writeReports()
        return report
    }

    /// The mutants this run tests: all but those whose verdict `--incremental` reused.
    var mutantsToRun: Int { mutants.count - (incremental?.reused.count ?? 0) }

    /// When the first mutant started.
    var loopStart = Date()
    /// The mutants finished so far, in the order they finished. Its lock
    /// also guards `report` and the console while mutants run at once.
    let finished = Locked<[MutantResult]>([])
    /// How often, in seconds, the reports are rewritten while mutants run
    /// (`writeReportsIfDue`); tests set 0 to have them after every mutant.
    var reportInterval: TimeInterval = 15
    /// When the reports were last written.
    var reportsWritten = Date.distantPast
    /// Whether this run has taken the scratch copy's lock (`prepareCopy`).
    var holdsScratch = false
}
