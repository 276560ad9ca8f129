import Foundation

/// The gate's first step after the baseline: each named mutant whose file
/// names the tests that kill it (`Killed-By:`) runs those tests alone, by
/// its switch. When they fail (or hang past the whole suite's limit), the
/// same run with every switch off is the control: it must pass, or the
/// failure is not the mutant's doing (a test that fails alone, or hangs).
/// A test that fails on the mutant and not without it fails in any run
/// that holds it, the whole suite's included, so the verdict is the one
/// every other choice of tests gives; a mutant they do not kill goes on as
/// if they had not run. When every named mutant is settled so, the
/// coverage pass (a process per test) is not needed at all.
extension Lab {
    /// Whether this run settles named mutants by their `Killed-By:` tests
    /// first: the gate, stopping at the first failure (`--all-tests` wants
    /// every killing test), with a coverage pass to save. With a results
    /// file, not when it gave the baseline (the package is as it saw it:
    /// its verdicts are reused); a verdict settled so is kept under the key
    /// of a mutant run by the whole suite when no pass ran.
    var settlesByNamedKillers: Bool {
        generate == nil && incremental?.reusedBaseline != true && configuration.stopAtFirstFailure && configuration.coverage
            && !configuration.buildOnly && mutants.contains { !$0.killers.isEmpty }
    }

    /// Runs the named killers of every mutant that runs by its switch,
    /// `configuration.jobs` at a time, and keeps the verdicts of those they
    /// kill in `settledByKillers`. A test the baseline did not run is said,
    /// and its mutant left to the usual tests.
    func runNamedKillers() throws {
        guard let binary = TestBinary.find(in: workspace.root) else { return }
        var chosen: [(index: Int, number: Int, tests: [String])] = []
        for (index, mutant) in mutants.enumerated() where !mutant.killers.isEmpty {
            let unknown = mutant.killers.filter { baselineLibraries[$0] == nil }
            if !unknown.isEmpty {
                print("  \(mutant.filePath): Killed-By names \(ConsoleFormat.firstThree(unknown)), which the suite does not have "
                    + "(the report lists the suite's tests by id): the tests the coverage pass chooses run instead")
                continue
            }
            guard let number = schemaNumbers[mutant.name] else { continue }
            chosen.append((index, number, mutant.killers))
        }
        guard !chosen.isEmpty else { return }
        let runs = chosen
        print("Running the tests that \(chosen.count) named mutant file(s) say kill them (Killed-By), each mutant by its switch...")
        loopStart = Date()
        nonisolated(unsafe) let lab = self
        let settled = Locked<Set<String>>([])
        let tried = Locked<Set<String>>([])
        // Each set of named tests' control run, once: whether they pass with every switch off.
        let controls = Locked<[[String]: Bool]>([:])
        defer { (settledByKillers, triedKillers) = (settled.value, tried.value) }
        try Workers.run(items: runs.count, workers: configuration.jobs, spare: spareWorkers) { position, _ in
            let (index, number, tests) = runs[position]
            let mutant = lab.mutants[index]
            let log = lab.logs.appendingPathComponent("\(mutant.name).log")
            try? FileManager.default.removeItem(at: log)
            tried.withLock { _ = $0.insert(mutant.name) }
            lab.appendLine("mutate: switched on in the mutant schema (\(Schema.variable)=\(number)), no build of its own", to: log)
            lab.appendLine("mutate: the test(s) its file names (Killed-By) run first, on their own, with the whole suite's time limit", to: log)
            let run = try lab.runChosen(tests, of: binary, name: mutant.name, log: log, extraEnvironment: [Schema.variable: String(number)],
                                        limit: lab.suiteLimit)
            guard run.verdict.status == .killed || run.verdict.status == .timeout else {
                lab.appendLine("mutate: they did not kill it (\(run.verdict.status.rawValue)); the tests the coverage pass chooses run", to: log)
                return
            }
            let passWithoutIt: Bool
            if let known = controls.withLock({ $0[tests] }) {
                passWithoutIt = known
                lab.appendLine("mutate: the same tests passed alone with every switch off (checked for another mutant): \(known)", to: log)
            } else {
                lab.appendLine("mutate: the control: the same tests, alone, with every switch off", to: log)
                let control = try lab.runChosen(tests, of: binary, name: "\(mutant.name).switches-off", log: log, extraEnvironment: [:],
                                                limit: lab.suiteLimit)
                passWithoutIt = control.verdict.status == .survived
                controls.withLock { $0[tests] = passWithoutIt }
                if !passWithoutIt {
                    lab.print("  \(ConsoleFormat.firstThree(tests)) (Killed-By of \(mutant.filePath)) do(es) not pass alone with every switch off "
                        + "(\(control.verdict.status.rawValue)): it settles nothing, and the mutant runs the tests the coverage pass chooses")
                }
            }
            guard passWithoutIt else {
                lab.appendLine("mutate: they fail or hang without the mutant too: not its doing; the tests the coverage pass chooses run", to: log)
                return
            }
            var result = Self.judged(MutantResult(pending: mutant), by: run, started: tests)
            // The tests run for it, and the only ones (the report's "tests run").
            result.coveredBy = tests
            try lab.record(result, at: index)
            settled.withLock { _ = $0.insert(mutant.name) }
        }
    }

    /// After the gate's mutants: which files could name a test that kills
    /// them (each killed mutant whose file names none, or names tests that
    /// did not kill it), so that a later run needs no coverage pass.
    func adviseOnKillers() {
        // Only where a pass ran by the test executable: without one, no test can run alone.
        guard generate == nil, configuration.stopAtFirstFailure, testBinary != nil, !schemaNumbers.isEmpty else { return }
        let byName = Dictionary(mutants.map { ($0.name, $0) }) { first, _ in first }
        let reused = incremental?.reused ?? []
        let killed = report.mutants.filter { $0.status == .killed && !settledByKillers.contains($0.name) && !$0.killedBy.isEmpty }
        for result in killed where triedKillers.contains(result.name) {
            print("  \(byName[result.name]?.filePath ?? result.name): the tests its Killed-By names did not kill it; \(result.killedBy[0]) did")
        }
        let unnamed = killed.filter { byName[$0.name]?.killers.isEmpty == true && !reused.contains($0.name) }
        if let first = unnamed.first {
            print("  \(unnamed.count) named mutant file(s) name no test that kills them (such as \(byName[first.name]?.filePath ?? first.name): "
                + "\(first.killedBy[0])): with a `Killed-By:` line in each, the gate runs those tests first and needs no coverage pass")
        }
    }
}
