import Foundation

/// The mutants' loop: schema mutants with chosen tests `jobs` at a time (and
/// spare ones), then the rest one by one, each verdict kept as it comes.
extension Lab {
    /// Schema mutants first (one build for all), then the ones that run as
    /// patches, each on top of the schema (`runMutant`). Schema mutants that
    /// run chosen tests (or none) are only a test process each:
    /// `configuration.jobs` of them run at once, and spare workers beside
    /// them while a core is idle (`spareWorkers`).
    func runMutants() throws {
        let skipped = (incremental?.reused ?? []).union(settledByKillers)
        let order = mutants.indices.filter { !skipped.contains(mutants[$0].name) }.sorted { (schemaNumbers[mutants[$0].name] == nil ? 1 : 0) < (schemaNumbers[mutants[$1].name] == nil ? 1 : 0) }
        let together = (configuration.jobs > 1 || spareWorkers != nil) && testBinary != nil ? order.filter { index in
            guard schemaNumbers[mutants[index].name] != nil else { return false }
            switch reaches[mutants[index].name] {
            case .tests, .noTest: return true
            // By the test executable too (`suitePlan`), unless there is no map to plan with.
            case .unknown: return suitePlan(for: mutants[index]) != nil
            case nil: return false
            }
        } : []
        // Verdicts the named killers reached count in the progress from when they began.
        if settledByKillers.isEmpty { loopStart = Date() }
        try runTogether(together)
        let ranTogether = Set(together)
        for index in order where !ranTogether.contains(index) {
            let mutant = mutants[index]
            announce(index)
            let result = try schemaNumbers[mutant.name].map { try runSchemaMutant(mutant, number: $0) } ?? runMutant(mutant)
            try record(result, at: index)
        }
        try removeSchema()
    }

    func announce(_ index: Int) {
        let position = String(repeating: " ", count: String(mutants.count).count - String(index + 1).count) + String(index + 1)
        finished.withLock { _ in print("[\(position)/\(mutants.count)] \(mutants[index].name): building and testing...") }
    }

    /// Keeps a mutant's verdict, says it, and rewrites the reports when due.
    func record(_ result: MutantResult, at index: Int) throws {
        var result = result
        if case .tests(let tests) = reaches[result.name] { result.coveredBy = tests }
        try finished.withLock { done in
            report.mutants[index] = result
            print(ConsoleFormat.line(for: result, index: index + 1, of: mutants.count))
            done.append(result)
            print(ConsoleFormat.progress(done, of: mutantsToRun, elapsed: Date().timeIntervalSince(loopStart)))
            try writeReportsIfDue()
            // Verdicts are kept as they come, so a run killed outright loses at most a minute of them.
            if let incremental, Date().timeIntervalSince(incremental.lastSave) > incremental.saveInterval { try saveIncremental() }
        }
    }

    /// Runs schema mutants `configuration.jobs` at a time. Each is one test
    /// process with its switch in its environment and result files and a
    /// log of its own; they share the report (under `finished`'s lock) and
    /// the learned killers (under their own), nothing else. The first error
    /// (an interrupt) stops every worker after its current mutant, which
    /// stays pending, and is thrown.
    func runTogether(_ indices: [Int]) throws {
        guard !indices.isEmpty else { return }
        if let spareWorkers, indices.count > configuration.jobs {
            print("  \(configuration.jobs) mutant(s) tested at a time, up to \(configuration.jobs + spareWorkers.count) while a core is idle")
        }
        // The workers read the lab's settled state (mutants, schema numbers,
        // the coverage map) and write only through `record` and `learnedKillers`.
        nonisolated(unsafe) let lab = self
        try Workers.run(items: indices.count, workers: configuration.jobs, spare: spareWorkers) { position, _ in
            let index = indices[position]
            let mutant = lab.mutants[index]
            lab.announce(index)
            try lab.record(try lab.runSchemaMutant(mutant, number: lab.schemaNumbers[mutant.name] ?? 0), at: index)
        }
    }
}
