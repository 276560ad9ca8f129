import Foundation

/// The switch pass: schema mutants the coverage map cannot place are placed
/// by the switches the tests run, and those it places are narrowed to the
/// tests that ran their own switch (`SwitchPass`).
extension Lab {
    /// Where the schema's own baseline records the switches its tests run together.
    var switchesTogether: URL { workspace.root.appendingPathComponent(".mutate/switches-together") }

    /// The environment in which the schema's baseline records the switches its
    /// tests run together, in a record created empty now: without the file,
    /// `placeBySwitches` knows they ran without one.
    func recordingSwitchesTogether() -> [String: String] {
        try? FileManager.default.removeItem(at: switchesTogether)
        try? FileManager.default.createDirectory(at: switchesTogether.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: switchesTogether.path, contents: nil)
        return [Schema.reachedVariable: switchesTogether.path]
    }

    /// Runs, each on its own, the tests that the schema mutants the map
    /// cannot place would run (`suitePlan`), and gives each such mutant the
    /// tests that ran its switch, or `NoCoverage` when none did. With
    /// `configuration.narrowing`, the pass also runs every test that the
    /// map gives at least `switchPassMinimumMutants` of the schema's
    /// mutants, and narrows each placed mutant's tests to those that ran its
    /// switch (`SwitchReach.narrowed`). A test that fails alone, or a schema
    /// baseline that ran without a record (the whole suite through
    /// `swift test`), leaves them as they were: each runs every test that
    /// could run its code.
    func placeBySwitches() throws {
        defer { try? FileManager.default.removeItem(at: switchesTogether) }
        guard let coverage, let binary = testBinary, !schemaNumbers.isEmpty else { return }
        // Each with the map's reason.
        var unplaced = mutants.compactMap { mutant -> (mutant: Mutant, why: String)? in
            guard schemaNumbers[mutant.name] != nil, case .unknown(let why) = reaches[mutant.name] else { return nil }
            return (mutant, why)
        }
        // Each with the map's tests.
        let placed = !configuration.narrowing ? [] : mutants.compactMap { mutant -> (name: String, tests: [String])? in
            guard schemaNumbers[mutant.name] != nil, case .tests(let tests) = reaches[mutant.name] else { return nil }
            return (mutant.name, tests)
        }
        var planned = SwitchReach.worthMeasuring(placed.map(\.tests), minimum: switchPassMinimumMutants)
        let narrows = !planned.isEmpty
        guard !unplaced.isEmpty || narrows else { return }
        // The schema's baseline creates the record before its tests run: without it, they ran without one.
        guard FileManager.default.fileExists(atPath: switchesTogether.path) else {
            print("  the schema's baseline ran without a record of its switches: the \(unplaced.count) mutant(s) the map cannot place "
                + "each run every test that could run their code" + (narrows ? ", the others the map's tests" : ""))
            return
        }
        // Without a plan for each, they run every test that could run their code, as before.
        let plans = unplaced.compactMap { suitePlan(for: $0.mutant) }
        if plans.count < unplaced.count { unplaced = [] } else { planned.formUnion(plans.flatMap { $0.first + $0.rest }) }
        guard !planned.isEmpty else { return }
        let tests = coverage.fastestFirst(planned).map { ($0, baselineLibraries[$0] ?? .xctest) }
        print("Measuring which tests run the switches of the \(unplaced.count) mutant(s) the map cannot place"
            + (narrows ? " and of the \(placed.count) it places" : "") + " (\(tests.count) tests, each on its own)...")
        let started = Date()
        let names = Dictionary(schemaNumbers.map { ($0.value, $0.key) }) { first, _ in first }
        let log = logs.appendingPathComponent("switches.log")
        try? FileManager.default.removeItem(at: log)
        let pass = SwitchPass(alone: TestAlone(binary: binary, runner: runner, root: workspace.root, environment: environment, log: log,
                                               timeout: report.testTimeoutSeconds),
                              folder: workspace.root.appendingPathComponent(".mutate/switches"), names: names,
                              workers: coverageWorkers, spare: spareWorkers, print: print, now: passClock)
        let alone: [String: Set<String>]
        do {
            alone = try pass.run(tests)
        } catch let error as CoverageError {
            print("  switch pass stopped: \(error.reason)\n  every mutant runs every test that could run its code")
            return
        }
        let found = SwitchReach(alone: alone, together: SwitchPass.read(switchesTogether, names: names))
        var counts = (chosen: 0, none: 0, underLoad: 0)
        for (mutant, why) in unplaced {
            guard let reach = found.reach(of: mutant.name, order: coverage.fastestFirst) else {
                counts.underLoad += 1
                continue
            }
            switchPlaced[mutant.name] = why
            reaches[mutant.name] = reach
            if reach == .noTest { counts.none += 1 } else { counts.chosen += 1 }
        }
        var tally = (narrowed: 0, none: 0, before: 0, after: 0)
        for (name, tests) in narrows ? placed : [] {
            let reach = found.narrowed(name, tests: tests, order: coverage.fastestFirst)
            guard reach != .tests(tests) else { continue }
            switchNarrowed[name] = tests
            reaches[name] = reach
            if case .tests(let chosen) = reach {
                tally.narrowed += 1
                tally.before += tests.count
                tally.after += chosen.count
            } else {
                tally.none += 1
            }
        }
        let seconds = Date().timeIntervalSince(started)
        // The report's coverage time is both passes'.
        report.coverageSeconds = (report.coverageSeconds ?? 0) + seconds
        if !unplaced.isEmpty {
            print(String(format: "  %d placed by the tests that ran their switch, %d whose switch no test ran (NoCoverage), "
                + "%d whose switch ran only with the tests together (each runs every test that could run its code)",
                counts.chosen, counts.none, counts.underLoad))
        }
        if narrows {
            print("  \(tally.narrowed) of the \(placed.count) mutant(s) the map places narrowed to the tests that ran their switch "
                + "(\(tally.after) tests in all, where the map gave them \(tally.before)), "
                + "\(tally.none) whose switch no test ran (NoCoverage)")
        }
        print(String(format: "  switch pass: %.1fs", seconds))
    }
}
