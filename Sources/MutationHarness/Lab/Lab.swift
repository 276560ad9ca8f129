import Foundation

/// Why a run stopped before the mutants.
public enum LabError: Error, Equatable, Sendable, CustomStringConvertible {
    case workspace(String)
    case baselineBuildFailed(firstError: String?, log: String)
    case baselineTestsFailed(tests: [String], message: String?, log: String)
    case baselineTimedOut(log: String)
    case noTests(log: String)
    /// Another run holds the scratch copy's lock.
    case locked(String)
    /// SIGINT or SIGTERM: the run stopped; mutants without a verdict stay pending.
    case interrupted(signal: Int32)

    public var description: String {
        switch self {
        case .workspace(let reason):
            reason
        case let .baselineBuildFailed(error, log):
            "the unmutated package does not build (\(error ?? "see the log")); fix the build first. Log: \(log)"
        case let .baselineTestsFailed(tests, message, log):
            "the unmutated suite is red; fix these tests first: \(tests.isEmpty ? "(the test process crashed)" : tests.joined(separator: ", "))"
                + (message.map { "\n  first failure: \($0)" } ?? "") + "\n  log: \(log)"
        case .baselineTimedOut(let log):
            "the unmutated suite did not finish in time. Log: \(log)"
        case .noTests(let log):
            "the unmutated suite ran no test: a harness needs tests to kill mutants. Log: \(log)"
        case .locked(let root):
            "another mutate run is using the scratch copy \(root); wait for it to finish, pass --wait to queue behind it, or give this run its own --scratch folder"
        case .interrupted(let signal):
            "interrupted by signal \(signal)"
        }
    }
}

/// Runs the baseline, then each mutant in the scratch copy, and rewrites the
/// reports after every one.
public final class Lab {
    public let configuration: LabConfiguration
    private let workspace: ScratchWorkspace
    private let print: (String) -> Void
    private var mutants: [Mutant]
    private var report: LabReport
    /// For `mutate explore`: makes the mutants once the copy is built (the
    /// typed syntax tree needs the built modules); returns the mutants to
    /// run and the results of those ignored.
    private let generate: ((ScratchWorkspace) throws -> (run: [Mutant], ignored: [MutantResult]))?
    /// For `mutate explore`: builds the mutant schema, leaving out the
    /// mutants named (those that did not type-check in it).
    var schemaBuilder: ((_ excluded: Set<String>) -> Schema)?
    /// For `mutate explore`: the test targets that can reach a mutant's code
    /// (nil: the whole suite). They run first; a mutant they do not kill
    /// runs against the rest of the suite before it is called a survivor, so
    /// the choice saves time and never changes a verdict to `survived`.
    var testTargets: ((Mutant) -> [String]?)?
    /// Mutants that run by switch in the installed schema: name -> number.
    private var schemaNumbers: [String: Int] = [:]
    private var schemaFiles: [String: String?] = [:]
    /// Runs the build and test commands: the toolchain, or a script in tests.
    private let runner: any CommandRunning
    /// The baseline's tests and the runner each belongs to.
    private var baselineLibraries: [String: TestLibrary] = [:]
    /// The whole suite's time limit for a mutant (the report's, read here by
    /// mutants that run at once while the report is written).
    private var suiteLimit: Double = 0
    /// Which tests reach which code, from the coverage pass; nil without one.
    private var coverage: CoverageMap?
    /// The test executable started directly for the chosen tests.
    private var testBinary: TestBinary?
    /// What the coverage map says of each mutant, by name.
    private var reaches: [String: CoverageMap.Reach] = [:]
    /// Tests the coverage pass runs at once (tests of the lab give 1: their runner is not thread-safe).
    var coverageWorkers = ProcessInfo.processInfo.activeProcessorCount
    /// Finds `llvm-profdata` and `llvm-cov` (tests give their own).
    var findLLVM: (String) -> LLVMCoverage? = { swift in
        LLVMCoverage.find(swift: swift, path: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
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
        report = LabReport(
            packagePath: configuration.packagePath.path, threshold: configuration.threshold, setupSeconds: 0,
            baselineBuildSeconds: 0, baselineTestSeconds: 0, testTimeoutSeconds: 0, tests: [],
            mutants: mutants.map(MutantResult.init(pending:)), shard: configuration.shard
        )
        self.mutants = mutants
    }

    private var logs: URL { configuration.outputPath.appendingPathComponent("logs") }
    private var results: URL { workspace.root.appendingPathComponent(".mutate/results") }

    /// Runs everything; returns the final report. On SIGINT or SIGTERM it
    /// throws `LabError.interrupted` after rewriting the reports, in which
    /// the mutant that was running, and every later one, stay `pending`.
    public func run() throws -> LabReport {
        do {
            return try runAll()
        } catch LabError.interrupted(let signal) {
            try? ReportWriter.write(report, to: configuration.outputPath, packagePath: configuration.packagePath, isCI: configuration.isCI)
            throw LabError.interrupted(signal: signal)
        }
    }

    private func runAll() throws -> LabReport {
        let setupStart = Date()
        report.startedAt = ISO8601DateFormatter().string(from: setupStart)
        report.commit = Self.firstLine(of: ["git", "-C", configuration.packagePath.path, "rev-parse", "--short", "HEAD"])
        report.toolchain = Self.firstLine(of: [configuration.swift, "--version"])
        let lock = try claimScratch()
        defer { withExtendedLifetime(lock) {} }
        do {
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        } catch {
            throw LabError.workspace("cannot create the output folder \(configuration.outputPath.path): \(error.localizedDescription)")
        }
        print("Copying \(configuration.packagePath.path) to \(workspace.root.path)")
        try pause(at: "sync")
        do {
            let written = try workspace.sync(excluding: [configuration.outputPath, configuration.mutantsPath, configuration.scratchPath],
                                             isCancelled: { Interruption.requested != nil })
            print("  \(written) file(s) updated in the scratch copy")
        } catch {
            try checkInterruption()
            throw LabError.workspace(error.description)
        }
        try checkInterruption()
        report.setupSeconds = Date().timeIntervalSince(setupStart)
        let forgotten = workspace.forgetInterruptedBuilds()
        if !forgotten.isEmpty { print("  the last run was cut short mid-mutant: rebuilding \(forgotten.joined(separator: ", ")) from scratch") }
        try runBaseline()
        if !configuration.buildOnly, configuration.coverage { try runCoveragePass() }
        if let generate {
            let made = try generate(workspace)
            mutants = made.run
            report.mutants = made.run.map(MutantResult.init(pending:)) + made.ignored
            if configuration.buildOnly { return report }
        }
        chooseTests()
        if generate != nil, let schemaBuilder, !mutants.isEmpty { try installSchema(schemaBuilder) }
        try writeReports()

        // Schema mutants first (one build for all), then the copy goes back to
        // the original for the ones that run as patches. Schema mutants that
        // run chosen tests (or none) are only a test process each:
        // `configuration.jobs` of them run at once.
        let order = mutants.indices.sorted { (schemaNumbers[mutants[$0].name] == nil ? 1 : 0) < (schemaNumbers[mutants[$1].name] == nil ? 1 : 0) }
        let together = configuration.jobs > 1 && testBinary != nil ? order.filter { index in
            guard schemaNumbers[mutants[index].name] != nil else { return false }
            switch reaches[mutants[index].name] {
            case .tests, .noTest: return true
            case .unknown, nil: return false
            }
        } : []
        loopStart = Date()
        try runTogether(together)
        var schemaRemoved = schemaNumbers.isEmpty
        let ranTogether = Set(together)
        for index in order where !ranTogether.contains(index) {
            let mutant = mutants[index]
            if !schemaRemoved, schemaNumbers[mutant.name] == nil {
                try removeSchema()
                schemaRemoved = true
            }
            announce(index)
            let result = try schemaNumbers[mutant.name].map { try runSchemaMutant(mutant, number: $0) } ?? runMutant(mutant)
            try record(result, at: index)
        }
        if !schemaRemoved { try removeSchema() }
        return report
    }

    // MARK: - The mutants' loop

    /// When the first mutant started.
    private var loopStart = Date()
    /// The mutants finished so far, in the order they finished. Its lock
    /// also guards `report` and the console while mutants run at once.
    private let finished = Locked<[MutantResult]>([])

    private func announce(_ index: Int) {
        let position = String(repeating: " ", count: String(mutants.count).count - String(index + 1).count) + String(index + 1)
        finished.withLock { _ in print("[\(position)/\(mutants.count)] \(mutants[index].name): building and testing...") }
    }

    /// Keeps a mutant's verdict, says it, and rewrites the reports.
    private func record(_ result: MutantResult, at index: Int) throws {
        var result = result
        if case .tests(let tests) = reaches[result.name] { result.coveredBy = tests }
        try finished.withLock { done in
            report.mutants[index] = result
            print(ConsoleFormat.line(for: result, index: index + 1, of: mutants.count))
            done.append(result)
            print(ConsoleFormat.progress(done, of: mutants.count, elapsed: Date().timeIntervalSince(loopStart)))
            try writeReports()
        }
    }

    /// Runs schema mutants `configuration.jobs` at a time. Each is one test
    /// process with its switch in its environment and result files and a
    /// log of its own; they share the report (under `finished`'s lock) and
    /// nothing else. The first error (an interrupt) stops every worker
    /// after its current mutant, which stays pending, and is thrown.
    private func runTogether(_ indices: [Int]) throws {
        guard !indices.isEmpty else { return }
        let next = Locked(0)
        let failure = Locked<(any Error)?>(nil)
        // The workers read the lab's settled state (mutants, schema numbers,
        // the coverage map) and write only through `record`.
        nonisolated(unsafe) let lab = self
        DispatchQueue.concurrentPerform(iterations: min(configuration.jobs, indices.count)) { _ in
            while true {
                let position: Int? = next.withLock { value in
                    guard value < indices.count, failure.value == nil else { return nil }
                    value += 1
                    return value - 1
                }
                guard let position else { return }
                let index = indices[position]
                let mutant = lab.mutants[index]
                do {
                    lab.announce(index)
                    try lab.record(try lab.runSchemaMutant(mutant, number: lab.schemaNumbers[mutant.name] ?? 0), at: index)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        if let error = failure.value { throw error }
    }

    // MARK: - Mutant schemata

    /// Writes the schema into the copy and builds it; a mutant whose code
    /// does not type-check there is left out (it runs as a patch) and the
    /// build tried again, up to five times. An error on a line where no
    /// mutant sits (a `missing return` at a function's closing brace) can only
    /// be blamed on its file: that file's mutants run as patches. With no
    /// working schema the copy is put back and every mutant runs as a patch.
    private func installSchema(_ build: (Set<String>) -> Schema) throws {
        var excluded: Set<String> = []
        let log = logs.appendingPathComponent("schema.log")
        try? FileManager.default.removeItem(at: log)
        for attempt in 1...5 {
            let schema = build(excluded)
            guard !schema.numbers.isEmpty else { break }
            try writeSchema(schema)
            print("Building the mutant schema (\(schema.numbers.count) mutants in one build, attempt \(attempt))...")
            let logged = read(log).utf8.count
            let result = try runBuild(log: log, timeout: mutantBuildLimit)
            if result.termination.succeeded {
                // The schema with no mutant switched on must pass like the original.
                let (test, tests) = try runTests(name: "schema-baseline", log: log, timeout: report.testTimeoutSeconds, baseline: true)
                guard test.termination.succeeded, tests.failures.isEmpty else {
                    print("  the schema's own baseline is not green; every mutant runs as a patch")
                    break
                }
                schemaNumbers = schema.numbers
                print("  \(schema.numbers.count) mutants run by switch, \(mutants.count - schema.numbers.count) as patches")
                return
            }
            // This attempt's errors only: the log keeps the earlier attempts'.
            let failing = Self.errorLines(in: String(decoding: read(log).utf8.dropFirst(logged), as: UTF8.self), root: workspace.root.path)
            let blamed = Self.blamed(schema.points, for: failing)
            guard !blamed.isEmpty else { break }
            excluded.formUnion(blamed.map(\.id))
            // The next attempt is built from the original sources, not from this one's rewrite.
            try removeSchema()
        }
        try removeSchema()
        schemaNumbers = [:]
    }

    /// The schema's points to leave out for compiler errors at `failing`
    /// (`file:line`): the points on an error's line, or, for an error on a
    /// line without one, every point of its file.
    static func blamed(_ points: [MutationPoint], for failing: Set<String>) -> [MutationPoint] {
        let onErrorLines = points.filter { failing.contains("\($0.file):\($0.line)") }
        let explained = Set(onErrorLines.map { "\($0.file):\($0.line)" })
        let files = Set(failing.subtracting(explained).map { String($0[..<($0.lastIndex(of: ":") ?? $0.endIndex)]) })
        return points.filter { explained.contains("\($0.file):\($0.line)") || files.contains($0.file) }
    }

    private func writeSchema(_ schema: Schema) throws {
        for (path, text) in schema.files {
            if schemaFiles[path] == nil { schemaFiles[path] = .some(workspace.read(path)) }
            try workspace.write(path, text)
        }
        for (module, text) in schema.support {
            let path = module + "/" + Schema.supportFileName
            if schemaFiles[path] == nil { schemaFiles[path] = .some(nil) }
            try workspace.write(path, text)
        }
    }

    /// Puts the copy back as the package has it.
    private func removeSchema() throws {
        for (path, original) in schemaFiles { try workspace.write(path, original) }
        schemaFiles = [:]
    }

    /// `file:line` of each compiler error in a build log, relative to the copy.
    static func errorLines(in log: String, root: String) -> Set<String> {
        var lines: Set<String> = []
        for line in log.split(separator: "\n") where line.contains(": error:") {
            let location = line.prefix { $0 != " " }.split(separator: ":")
            guard location.count >= 3 else { continue }
            var file = String(location[0])
            if file.hasPrefix(root + "/") { file.removeFirst(root.count + 1) }
            lines.insert("\(file):\(location[1])")
        }
        return lines
    }

    /// A mutant of the installed schema: switched on by the environment, no build.
    private func runSchemaMutant(_ mutant: Mutant, number: Int) throws -> MutantResult {
        var result = MutantResult(pending: mutant)
        let log = logs.appendingPathComponent("\(mutant.name).log")
        try? FileManager.default.removeItem(at: log)
        let (seconds, _, _, verdict) = try testMutant(mutant, log: log, extraEnvironment: [Schema.variable: String(number)])
        result.testSeconds = seconds
        result.status = verdict.status
        result.killedBy = verdict.killedBy
        result.reason = verdict.reason
        return result
    }

    /// Checks the scratch folder may be used, marks it as the harness's, and
    /// locks it for this run.
    private func claimScratch() throws -> ScratchLock {
        let root = workspace.root
        do {
            try ScratchRules.check(root: root, package: configuration.packagePath, defaultRoot: LabConfiguration.defaultScratch(for: configuration.packagePath))
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let marker = root.appendingPathComponent(ScratchRules.marker)
            if !FileManager.default.fileExists(atPath: marker.path) {
                try Data("A scratch copy made by `mutate`; the harness may delete anything in this folder.\n".utf8).write(to: marker)
            }
        } catch let error as WorkspaceError {
            throw LabError.workspace(error.description)
        } catch {
            throw LabError.workspace("cannot create the scratch folder \(root.path): \(error.localizedDescription)")
        }
        return try ScratchLock(root: root, wait: configuration.waitForLock) {
            print("Another mutate run is using \(root.path); waiting for it to finish (Ctrl-C to give up)...")
        }
    }

    /// The first line a short command prints, or nil when it fails.
    static func firstLine(of arguments: [String]) -> String? {
        guard let result = try? CapturedCommand.run(arguments), result.status == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// Stops here if the user asked the run to stop.
    private func checkInterruption() throws {
        if let signal = Interruption.requested { throw LabError.interrupted(signal: signal) }
    }

    /// A test seam: with `MUTATE_TEST_PAUSE=<phase>` in the environment the
    /// run waits up to 30 s at that phase (`sync`, `reports`), so a test can
    /// interrupt it there. Nothing else reads the variable.
    private func pause(at phase: String) throws {
        if configuration.pausePhase == phase + "-deaf" {
            // A main thread that never looks at the flag: only the interrupt handler's own exit ends the run.
            // (A signal may cut one sleep short, on whichever thread it lands: sleep again until the time is up.)
            print("paused at \(phase), deaf to signals")
            let end = Date().addingTimeInterval(120)
            while Date() < end { usleep(100_000) }
        }
        guard configuration.pausePhase == phase else { return }
        print("paused at \(phase)")
        for _ in 0..<600 where Interruption.requested == nil { usleep(50_000) }
        try checkInterruption()
    }

    private func writeReports() throws {
        try ReportWriter.write(report, to: configuration.outputPath, packagePath: configuration.packagePath, isCI: configuration.isCI)
        try pause(at: "reports")
        try checkInterruption()
    }

    private func runBaseline() throws {
        let log = logs.appendingPathComponent("baseline.log")
        try? FileManager.default.removeItem(at: log)
        print("Building the unmutated package (the first build of a fresh scratch copy takes longest)...")
        let build = try runBuild(log: log, timeout: nil)
        guard build.termination.succeeded else {
            throw LabError.baselineBuildFailed(firstError: Classifier.firstCompilerError(in: read(log)), log: log.path)
        }
        report.baselineBuildSeconds = build.seconds
        if configuration.buildOnly {
            print(String(format: "  built in %.1fs", build.seconds))
            return
        }
        print(String(format: "  built in %.1fs; running the tests...", build.seconds))
        // With coverage, the suite's run keeps its profiles: the coverage pass
        // compares them with each test's own (code run only under load).
        var profiles: [String: String] = [:]
        if configuration.coverage {
            try? FileManager.default.removeItem(at: suiteProfiles)
            try? FileManager.default.removeItem(at: workspace.root.appendingPathComponent("default.profraw"))
            try? FileManager.default.createDirectory(at: suiteProfiles, withIntermediateDirectories: true)
            profiles["LLVM_PROFILE_FILE"] = suiteProfiles.appendingPathComponent("%p.profraw").path
        }
        let (test, tests) = try runTests(name: "baseline", log: log, timeout: nil, extraEnvironment: profiles, baseline: true)
        // A program a test started with an environment of its own wrote here.
        try? FileManager.default.moveItem(at: workspace.root.appendingPathComponent("default.profraw"),
                                          to: suiteProfiles.appendingPathComponent("stray.profraw"))
        report.baselineTestSeconds = test.seconds
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
    }

    // MARK: - Choosing each mutant's tests

    /// Where the baseline's whole-suite run writes its coverage profiles.
    private var suiteProfiles: URL { workspace.root.appendingPathComponent(".mutate/suite-profile") }

    /// Runs every test on its own in the instrumented build and keeps which
    /// functions each one runs. Whatever stops the pass (no LLVM tools, a
    /// test that fails alone, an unreadable profile) is said, and every
    /// mutant then gets the whole suite.
    private func runCoveragePass() throws {
        defer { try? FileManager.default.removeItem(at: suiteProfiles) }
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
                                timeout: report.testTimeoutSeconds, print: print, workers: coverageWorkers)
        do {
            coverage = try pass.run(tests)
            testBinary = binary
        } catch let error as CoverageError {
            print("  coverage pass stopped: \(error.reason)\n  every mutant runs the whole suite")
            return
        }
        report.coverageSeconds = Date().timeIntervalSince(started)
        print(String(format: "  %d tests measured in %.1fs", tests.count, report.coverageSeconds ?? 0))
    }

    /// What the coverage map says of each mutant, from where its patch lands
    /// in the unmutated copy (before any schema is written into it).
    private func chooseTests() {
        guard let coverage else { return }
        for mutant in mutants {
            guard let touched = mutant.diff.touchedLines(reading: workspace.read) else { continue }
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
            + "\(counts.unknown) the whole suite (the map cannot tell who reaches them; each one's log says why)")
    }

    private func runMutant(_ mutant: Mutant) throws -> MutantResult {
        var result = MutantResult(pending: mutant)
        let log = logs.appendingPathComponent("\(mutant.name).log")
        try? FileManager.default.removeItem(at: log)

        // Apply in memory first: a stale mutant never touches the copy.
        let changes: [FileChange]
        switch mutant.diff.changes(reading: workspace.read) {
        case .success(let applied):
            changes = applied
        case .failure(let error):
            result.status = .stale
            result.reason = error.description
            // The gate never rebases, but says when `rebase` would carry it.
            if generate == nil, case .rebased = MutantRebaser.rebase(mutant, root: workspace.root) {
                result.reason = (result.reason ?? "") + "; `swift run mutate rebase \(mutant.name)` would carry it onto today's source"
            }
            try? Data("stale: \(error.description)\n".utf8).write(to: log)
            return result
        }
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
        let outcome = try buildAndTest(mutant, result, log: log)
        // A build killed at its time limit was cut short too.
        finished = !(outcome.status == .unviable && outcome.reason == Self.buildTimedOut)
        return outcome
    }

    static let buildTimedOut = "the build ran past its time limit"

    /// A mutant's build, or the schema's, may take ten times the baseline's
    /// and never less than ten minutes; past that it is unviable (a hung
    /// compiler). The baseline itself has no limit.
    private var mutantBuildLimit: Double { max(600, report.baselineBuildSeconds * 10) }

    /// Builds and tests the copy with the mutant applied.
    private func buildAndTest(_ mutant: Mutant, _ pending: MutantResult, log: URL) throws -> MutantResult {
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
        let (seconds, termination, tests, verdict) = try testMutant(mutant, log: log)
        result.testSeconds = seconds
        result.status = verdict.status
        result.killedBy = verdict.killedBy
        result.reason = verdict.reason
        if verdict.status == .killed, tests.crashedTest != nil, termination != .stoppedEarly {
            let reported = Set(tests.cases.map(\.id) + verdict.killedBy)
            var started = report.tests
            if testBinary != nil, case .tests(let chosen) = reaches[mutant.name] { started = chosen }
            result.notRun = started.filter { !reported.contains($0) }
        }
        return result
    }

    /// Runs the tests for a mutant: first those of the targets that reach
    /// its code, if the run chose some, then, unless they killed it, the
    /// rest of the suite. A survivor has passed the whole suite: the two runs
    /// are judged together. Returns the seconds of both runs.
    private func testMutant(_ mutant: Mutant, log: URL, extraEnvironment: [String: String] = [:])
        throws -> (seconds: Double, termination: ProcessTermination, report: TestRunReport, verdict: Classifier.Verdict)
    {
        switch reaches[mutant.name] {
        case .noTest:
            let place = "\(mutant.diff.files.first?.path ?? "?")"
            appendLine("mutate: no test runs the code this mutant changes (\(place)): NoCoverage, no test run", to: log)
            return (0, .exited(0), TestRunReport(cases: []),
                    Classifier.Verdict(status: .noCoverage, killedBy: [], reason: "no test runs the code it changes"))
        case .tests(let tests):
            if let binary = testBinary { return try runChosen(tests, of: binary, name: mutant.name, log: log, extraEnvironment: extraEnvironment) }
        case .unknown(let why):
            appendLine("mutate: the whole suite runs for this mutant: \(why)", to: log)
        case nil:
            break
        }
        guard let targets = testTargets?(mutant), !targets.isEmpty else {
            let (test, tests) = try runTests(name: mutant.name, log: log, timeout: suiteLimit, extraEnvironment: extraEnvironment)
            return (test.seconds, test.termination, tests, Classifier.classify(termination: test.termination, report: tests))
        }
        let (first, firstTests) = try runTests(name: mutant.name, log: log, timeout: suiteLimit,
                                               extraEnvironment: extraEnvironment, targets: targets)
        let verdict = Classifier.classify(termination: first.termination, report: firstTests)
        if verdict.status == .killed || verdict.status == .timeout { return (first.seconds, first.termination, firstTests, verdict) }
        appendLine("mutate: the tests of \(targets.joined(separator: ", ")) did not kill it; running the rest of the suite", to: log)
        let (rest, restTests) = try runTests(name: mutant.name, log: log, timeout: suiteLimit,
                                             extraEnvironment: extraEnvironment, skipping: targets)
        var both = restTests
        both.cases = firstTests.cases + restTests.cases
        return (first.seconds + rest.seconds, rest.termination, both, Classifier.classify(termination: rest.termination, report: both))
    }

    /// Runs only `tests` (the ones that reach the mutant), by starting the
    /// test executable directly: the Swift Testing ones in one process that
    /// stops at the first failing test, then, unless they killed it, the
    /// XCTest ones. Time limit, crash blame and interrupts as for the suite.
    private func runChosen(_ tests: [String], of binary: TestBinary, name: String, log: URL, extraEnvironment: [String: String])
        throws -> (seconds: Double, termination: ProcessTermination, report: TestRunReport, verdict: Classifier.Verdict)
    {
        appendLine("mutate: running the \(tests.count) test(s) that reach this mutant: \(tests.joined(separator: " "))", to: log)
        // Each run's limit is the suite's formula applied to its tests' time
        // alone in the coverage pass (never more than the whole suite's).
        func limit(_ tests: [String]) -> Double {
            min(suiteLimit, configuration.testTimeout(baselineSeconds: tests.map { coverage?.seconds[$0] ?? 0 }.reduce(0, +)))
        }
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
            let watcher = EventStreamWatcher(events)
            let stall = Locked<TestProgress.Stall?>(nil)
            appendLine(String(format: "mutate: Swift Testing, %d test(s), time limit %.0fs", swiftTesting.count, limit(swiftTesting)), to: log)
            let run = try runner.run(binary.swiftTesting(swiftTesting, xunit: swiftTestingXunit, events: events), in: workspace.root,
                                     environment: environment, log: log, timeout: limit(swiftTesting),
                                     stopWhen: stopRule(poll: watcher.poll, failed: { watcher.sawFailure }, progress: { watcher.progress }, stall: stall))
            seconds += run.seconds
            let read = TestRunReport.read(xunitPath: xunit, eventStream: events, log: self.read(log))
            cases = read.cases
            let verdict = stalled(Classifier.classify(termination: run.termination, report: read), stall.value, log: log)
            last = (run.termination, read, verdict)
            if verdict.status != .survived { return (seconds, run.termination, read, verdict) }
        }
        if !xctest.isEmpty {
            let logged = (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
            let watcher = XCTestFailureWatcher(log, from: logged, requested: xctest)
            let stall = Locked<TestProgress.Stall?>(nil)
            appendLine(String(format: "mutate: XCTest, %d test(s), time limit %.0fs", xctest.count, limit(xctest)), to: log)
            let run = try runner.run(binary.xctest(xctest), in: workspace.root, environment: environment, log: log, timeout: limit(xctest),
                                     stopWhen: stopRule(poll: watcher.poll, failed: { watcher.sawFailure }, progress: { watcher.progress }, stall: stall))
            seconds += run.seconds
            let output = (try? Data(contentsOf: log)).map { String(decoding: $0.dropFirst(logged), as: UTF8.self) } ?? ""
            var read = TestRunReport.read(xunitPath: results.appendingPathComponent("\(name)-xctest-none.xml"), log: output, xctestConsole: xctest)
            read.cases = cases + read.cases
            last = (run.termination, read, stalled(Classifier.classify(termination: run.termination, report: read), stall.value, log: log))
        }
        guard let (termination, read, verdict) = last else {
            return (0, .exited(0), TestRunReport(cases: []), Classifier.classify(termination: .exited(0), report: TestRunReport(cases: [])))
        }
        return (seconds, termination, read, verdict)
    }

    /// When a run of chosen tests stops before its time limit: at its first
    /// failing test (unless `--all-tests`), or when it has stalled (tests
    /// running, none started or ended for longer than the slowest of them
    /// may take: `LabConfiguration.stallAllowance`), which is kept in `stall`.
    private func stopRule(poll: @escaping (Date) -> Void, failed: @escaping () -> Bool, progress: @escaping () -> TestProgress,
                          stall: Locked<TestProgress.Stall?>) -> () -> ProcessTermination?
    {
        let configuration = configuration
        // An explicit `--timeout` is the only limit.
        let alone = configuration.fixedTimeout == nil ? coverage?.seconds : nil
        return {
            let now = Date()
            poll(now)
            if configuration.stopAtFirstFailure, failed() { return .stoppedEarly }
            guard let alone, let found = progress().stall(at: now, allowance: { configuration.stallAllowance(aloneSeconds: alone[$0] ?? 0) })
            else { return nil }
            stall.set(found)
            return .timedOut
        }
    }

    /// A timeout's verdict, with the test that hung when the run stalled.
    private func stalled(_ verdict: Classifier.Verdict, _ stall: TestProgress.Stall?, log: URL) -> Classifier.Verdict {
        guard verdict.status == .timeout, let stall else { return verdict }
        var verdict = verdict
        let alone = coverage?.seconds[stall.test] ?? 0
        verdict.reason = "\(stall.test) hung: "
            + String(format: "no test started or ended for %.1fs (it took %.1fs alone; the limit is %.1fs)", stall.quiet, alone, stall.limit)
        appendLine("mutate: " + (verdict.reason ?? "") + "; the run was stopped as a timeout", to: log)
        return verdict
    }

    private func appendLine(_ line: String, to log: URL) {
        LogFile.append(line + "\n", to: log)
    }

    // MARK: - Commands

    private func runBuild(log: URL, timeout: Double?) throws -> ProcessResult {
        try runner.run(
            [configuration.swift, "build", "--build-tests", "--manifest-cache", "local"] + (configuration.coverage ? ["--enable-code-coverage"] : []),
            in: workspace.root,
            environment: environment, log: log, timeout: timeout
        )
    }

    /// Runs the suite (or the tests of `targets` only, or all but those of
    /// `skipping`), stopping at the first failure when the configuration
    /// asks for it.
    private func runTests(name: String, log: URL, timeout: Double?, extraEnvironment: [String: String] = [:],
                          targets: [String]? = nil, skipping: [String]? = nil, baseline: Bool = false) throws -> (ProcessResult, TestRunReport)
    {
        let xunit = results.appendingPathComponent("\(name).xml")
        let events = results.appendingPathComponent("\(name).jsonl")
        for stale in [xunit.path, results.appendingPathComponent("\(name)-swift-testing.xml").path, events.path] {
            try? FileManager.default.removeItem(atPath: stale)
        }
        // `--parallel` makes XCTest write its xunit file; the event stream
        // names the failing Swift Testing test even if the process crashes.
        var arguments = [configuration.swift, "test", "--skip-build", "--manifest-cache", "local", "--parallel", "--xunit-output", xunit.path,
                         "--event-stream-output-path", events.path]
        // Test ids start with their target's module name: `Target.Suite/test()`.
        func pattern(_ targets: [String]) -> String { "^(" + targets.map(NSRegularExpression.escapedPattern).joined(separator: "|") + ")\\." }
        if let targets { arguments += ["--filter", pattern(targets)] }
        if let skipping { arguments += ["--skip", pattern(skipping)] }
        // A baseline runs to the end, so a red one names every failing test.
        let watcher = configuration.stopAtFirstFailure && !baseline ? EventStreamWatcher(events) : nil
        let result = try runner.run(arguments, in: workspace.root, environment: environment.merging(extraEnvironment) { $1 }, log: log,
                                    timeout: timeout, stopWhen: watcher.map { watcher in { watcher.hasFailure() ? .stoppedEarly : nil } })
        return (result, TestRunReport.read(xunitPath: xunit, eventStream: events, log: read(log)))
    }

    private var environment: [String: String] {
        Self.childEnvironment(inheriting: ProcessInfo.processInfo.environment, temporary: workspace.temporaryDirectory,
                              home: workspace.homeDirectory)
    }

    /// The caller's environment with `TMPDIR` and `HOME` inside the scratch
    /// folder (`CFFIXED_USER_HOME` too: Foundation on Linux answers
    /// `NSHomeDirectory()` from it, not from `HOME`), and `MUTATE_RUNNING`
    /// set so a harness test inside the suite does not start a harness of
    /// its own. A schema switch the caller itself runs under (a harness test
    /// inside a mutate run) is not passed on: only the lab switches mutants.
    static func childEnvironment(inheriting parent: [String: String], temporary: URL, home: URL) -> [String: String] {
        var environment = parent
        environment["TMPDIR"] = temporary.path
        environment["HOME"] = home.path
        environment["CFFIXED_USER_HOME"] = home.path
        // An instrumented build writes a profile at every exit; only the coverage pass keeps one.
        environment["LLVM_PROFILE_FILE"] = "/dev/null"
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        // A crashing mutant's backtrace costs seconds of symbolication (about
        // 2.8 s on this package's test executable, 1.8 s fast): function names
        // (which test crashed) are all the lab reads. The caller's own choice stands.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "symbolicate=fast" }
        environment["MUTATE_RUNNING"] = "1"
        environment["MUTATE_TEST_PAUSE"] = nil
        environment[Schema.variable] = nil
        return environment
    }

    private func read(_ log: URL) -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }
}
