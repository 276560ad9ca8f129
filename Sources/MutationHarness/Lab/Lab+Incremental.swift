import Foundation

/// `--incremental FILE` (explore's or the gate's): verdicts reused while their key holds, a
/// sample of them re-run to check the file, and the file rewritten with
/// what this run knows.
extension Lab {
    /// After the sync: the package's digests, and whether it is the one the
    /// file was written of.
    func fingerprintCopy() throws {
        guard let incremental else { return }
        do {
            let targets = incremental.previous?.explored?.targets ?? []
            let digests = try workspace.fileDigests()
            // The gate reads no target list: a folder beside Sources/ and Tests/ that holds source code may be a target's.
            let targetPaths = incremental.named ? IncrementalRun.sourceFolders(Array(digests.keys)) : targets.map(\.path)
            incremental.rawFiles = digests.filter { IncrementalRun.counts($0.key, targetPaths: targetPaths) }
            incremental.files = codeDigests(targets)
        } catch {
            throw LabError.workspace(error.description)
        }
        incremental.tree = VerdictKeys.tree(incremental.files)
        incremental.bytesTree = VerdictKeys.tree(incremental.rawFiles)
        incremental.common = VerdictKeys.common(toolchain: report.toolchain, harness: HelpText.version, configuration: configuration)
        let file = incremental.file.path
        if incremental.previous == nil {
            print("  no results in \(file) yet: every mutant runs, and the verdicts are kept there")
        } else if incremental.named, incremental.unchanged {
            print("  the package is as \(file) last saw it (\(incremental.previous?.commit ?? "no commit")): "
                + "its baseline and coverage map are reused if the named mutants' schema is the same build")
        } else if incremental.unchanged, incremental.previous?.bytesTree == incremental.bytesTree {
            print("  the package is as \(file) last saw it (\(incremental.previous?.commit ?? "no commit")): "
                + "its baseline, coverage map and mutants are reused")
        } else if incremental.unchanged {
            print("  the package's code is as \(file) last saw it (\(incremental.previous?.commit ?? "no commit")), comments aside: "
                + "its baseline and coverage map are reused; the mutants are found again (their places are bytes)")
        } else {
            print("  \(incremental.whatChanged(toolchain: report.toolchain)) since \(file) was written: the baseline and coverage pass run again, "
                + "and a verdict is reused only where its key is unchanged")
        }
    }

    /// The counted files' digests, the compiled Swift files of `targets` by
    /// their code: as the package has them, whether or not a schema has
    /// rewritten the copy (the file is saved while the schema's mutants run).
    func codeDigests(_ targets: [PackageTargets.Target]) -> [String: String] {
        guard let incremental else { return [:] }
        return IncrementalRun.digests(raw: incremental.rawFiles, compiled: IncrementalRun.compiledSwiftFiles(targets), read: originalBytes)
    }

    /// For an unchanged package: the baseline's tests, time limits and
    /// coverage map as the file has them. False when it must run: also when
    /// the named mutants' schema is not the one the file's suite ran in (a
    /// mutant added or edited rewrites the build).
    func reuseBaseline() -> Bool {
        // A map the last run could not make (no tools, a test that fails alone) is not made now either.
        guard let incremental, incremental.unchanged, let previous = incremental.previous, let baseline = previous.baseline else { return false }
        guard baseline.schema == installedSchema?.digest else {
            print("  the named mutants' schema is not the build the file's suite ran in (a mutant added, removed or edited): the suite runs again")
            return false
        }
        baselineSchema = baseline.schema
        report.tests = baseline.tests
        baselineLibraries = baseline.libraries
        report.testLocations = baseline.testLocations
        report.testTimeoutSeconds = baseline.testTimeoutSeconds
        report.baselineTestSeconds = 0
        suiteLimit = baseline.testTimeoutSeconds
        suiteQuiet = baseline.quietWhileRunning
        if configuration.coverage {
            coverage = previous.coverage
            testBinary = TestBinary.find(in: workspace.root)
        }
        incremental.reusedBaseline = true
        print("  the suite (\(baseline.tests.count) tests) and the coverage map are taken from \(incremental.file.lastPathComponent); "
            + String(format: "each mutant's tests get %.0fs", baseline.testTimeoutSeconds))
        return true
    }

    /// Once each mutant's tests are chosen: its key; the verdicts the file
    /// holds under the same key are reported without running, but for
    /// `verifyCount` of them, drawn at random, which run to check the file.
    func applyIncremental() {
        guard let incremental else { return }
        // The compiled Swift files, read once: their text without comments, their functions and the rest of them are pieces of the keys.
        var sources: [String: [UInt8]] = [:]
        let compiled = IncrementalRun.compiledSwiftFiles(incremental.explored?.targets ?? [])
        for file in Set(coverage?.functions.map(\.file) ?? []).union(compiled) {
            // The package's text, not the named mutants' schema in the copy: the map's lines are the original's.
            sources[file] = originalBytes(file)
        }
        let keys = VerdictKeys(files: incremental.files, common: incremental.common, coverage: coverage, sources: sources)
        incremental.verdictKeys = keys
        var reusable: [Int] = []
        for (index, mutant) in mutants.enumerated() {
            let key = keys.key(for: mutant, reach: coverage == nil ? nil : reaches[mutant.name])
            incremental.keys[mutant.name] = key
            // A named mutant whose code did not type-check in this run's schema may no longer compile: it runs (the gate fails on an unviable one).
            if incremental.named, schemaMisfits.contains(mutant.name) { continue }
            // Settled by its named killers in this run: its verdict is this run's own.
            if settledByKillers.contains(mutant.name) { continue }
            if let entry = incremental.previous?.verdicts[mutant.name], IncrementalRun.holds(entry, for: mutant, key: key, keys: keys) {
                reusable.append(index)
            }
        }
        let checked = Set(reusable.shuffled(using: &incremental.random).prefix(max(0, incremental.verifyCount)))
        let previous = incremental.previous
        for index in reusable {
            let mutant = mutants[index]
            guard let stored = previous?.verdicts[mutant.name]?.result else { continue }
            if checked.contains(index) {
                incremental.verifying[mutant.name] = stored
                continue
            }
            // The verdict is the file's; what describes the mutant (its headers, its patch and lines) is today's.
            var result = report.mutants[index]
            result.status = stored.status
            result.killedBy = stored.killedBy
            result.reason = stored.reason
            result.notRun = stored.notRun
            result.buildSeconds = stored.buildSeconds
            result.testSeconds = stored.testSeconds
            if case .tests(let tests) = reaches[mutant.name] { result.coveredBy = tests }
            let log = logs.appendingPathComponent("\(mutant.name).log")
            try? Data(("mutate: \(result.status.rawValue), reused from \(incremental.file.path) (saved \(previous?.savedAt ?? "?")"
                + " at \(previous?.commit ?? "no commit")): the mutant, the files it changes, its tests and what they reach are unchanged\n"
                + (result.reason.map { "mutate: \($0)\n" } ?? "")).utf8).write(to: log)
            report.mutants[index] = result
            incremental.reused.insert(mutant.name)
        }
        print("  \(incremental.reused.count + checked.count) verdict(s) reused from \(incremental.file.lastPathComponent), "
            + "\(checked.count) of them re-run to check the file; \(mutantsToRun - checked.count) mutant(s) to run (new, or their key changed)")
    }

    /// After the mutants: the checked verdicts compared, the summary in the
    /// report, and the file rewritten. A checked verdict that came out
    /// differently is said loudly and every reused verdict is dropped from
    /// the file (a file that lied once cannot be trusted); the command then fails.
    func finishIncremental() throws {
        guard let incremental else { return }
        let disagreements = reusedDisagreements()
        let ran = mutantsToRun - incremental.verifying.count
        report.incremental = IncrementalSummary(file: incremental.file.path, reused: incremental.reused.count + incremental.verifying.count,
                                                verified: incremental.verifying.count, ran: ran, disagreements: disagreements,
                                                reusedBaseline: incremental.reusedBaseline)
        for line in disagreements {
            print("REUSED VERDICT WRONG: \(line)")
        }
        if !disagreements.isEmpty {
            print("  \(incremental.file.path) gave \(disagreements.count) wrong verdict(s) of \(incremental.verifying.count) checked: "
                + "every verdict reused from it is dropped from it; only this run's own are kept")
        }
        try saveIncremental(dropReused: !disagreements.isEmpty, finished: true)
    }

    /// The checked verdicts that came out differently so far, each as
    /// `name: status in the file, status now`.
    func reusedDisagreements() -> [String] {
        guard let incremental else { return [] }
        var disagreements: [String] = []
        for (name, stored) in incremental.verifying.sorted(by: { $0.key < $1.key }) {
            guard let fresh = report.mutants.first(where: { $0.name == name }), fresh.status != .pending else { continue }
            if !IncrementalRun.agree(stored.status, fresh.status) {
                disagreements.append("\(name): \(stored.status.rawValue) in the file, \(fresh.status.rawValue) now")
            }
        }
        return disagreements
    }

    /// Writes the results file: this run's baseline, map and mutants found,
    /// every verdict of this run under its key, and the file's other
    /// verdicts (mutants this run did not select) as they were.
    /// A finished run that read every mutant of its paths also records its
    /// score under its commit (`scoreCommit`), for later pull requests; a
    /// file that gave a wrong verdict loses its scores with its verdicts.
    func saveIncremental(dropReused: Bool = false, finished: Bool = false) throws {
        guard let incremental, !incremental.keys.isEmpty else { return }
        // A save before the end (every minute, or on an interrupt) after a checked verdict came out differently: the file lied.
        let dropReused = dropReused || !reusedDisagreements().isEmpty
        var verdicts = dropReused ? [:] : (incremental.previous?.verdicts ?? [:])
        let byName = Dictionary(mutants.map { ($0.name, $0) }) { first, _ in first }
        for result in report.mutants {
            guard let key = incremental.keys[result.name], IncrementalRun.isReusable(result.status) else { continue }
            if dropReused, incremental.reused.contains(result.name) { continue }
            // A mutant the map cannot place may be in a program its killer starts and kills: what the killer reaches is not all known.
            let placedByMap = switchPlaced[result.name] == nil && { if case .unknown = reaches[result.name] { false } else { true } }()
            let killKey = result.status == .killed && placedByMap
                ? result.killedBy.first.flatMap { killer in byName[result.name].flatMap { incremental.verdictKeys?.killKey(for: $0, killer: killer) } }
                : nil
            // The covering tests are the coverage map's to say again (and most of the file's size).
            var kept = result
            kept.coveredBy = nil
            verdicts[result.name] = ResultsFile.Entry(key: key, result: kept, killKey: killKey)
        }
        let baseline = incremental.reusedBaseline ? incremental.previous?.baseline : report.tests.isEmpty ? nil : ResultsFile.Baseline(
            tests: report.tests, libraries: baselineLibraries, testLocations: report.testLocations,
            testTimeoutSeconds: report.testTimeoutSeconds, baselineBuildSeconds: report.baselineBuildSeconds,
            baselineTestSeconds: report.baselineTestSeconds, coverageSeconds: report.coverageSeconds,
            quietWhileRunning: suiteQuiet, schema: baselineSchema)
        let now = ISO8601DateFormatter().string(from: Date())
        var scores = dropReused ? [:] : (incremental.previous?.scores ?? [:])
        if finished, !dropReused, let commit = incremental.scoreCommit, !report.mutants.contains(where: { $0.status == .pending }) {
            scores[commit] = ResultsFile.RecordedScore(score: report.score, paths: incremental.explorePaths, savedAt: now)
            for (old, _) in scores.sorted(by: { $0.value.savedAt < $1.value.savedAt }).prefix(max(0, scores.count - ResultsFile.scoresKept)) {
                scores[old] = nil
            }
        }
        // The file holds the digests the next run computes: with the targets this run found.
        let files = incremental.explored.map { codeDigests($0.targets) } ?? incremental.files
        // Misfits of mutants that still exist: this run's, and the earlier ones this run did not build.
        let found = Set(incremental.explored?.points.map(\.id) ?? mutants.map(\.name))
        let misfits = schemaMisfits.union(incremental.previous?.schemaMisfits ?? []).filter(found.contains).sorted()
        let file = ResultsFile(harness: HelpText.version, commit: report.commit, savedAt: now,
                               tree: VerdictKeys.tree(files), common: incremental.common, baseline: baseline, coverage: coverage,
                               explored: incremental.explored, verdicts: verdicts, files: files, scores: scores.isEmpty ? nil : scores,
                               bytesTree: incremental.bytesTree, schemaMisfits: misfits.isEmpty ? nil : misfits,
                               kind: incremental.named ? ResultsFile.namedKind : nil)
        do {
            try file.save(to: incremental.file)
        } catch {
            throw LabError.workspace(error.description)
        }
        incremental.lastSave = Date()
    }
}
