import Foundation

/// What a pull request changed: the ref, its merge base with HEAD, and the
/// lines changed since that base.
struct PullRequestChange {
    var ref: String
    var base: String
    var changed: ChangedLines
}

/// `--incremental FILE [--verify-reused N]` (the gate's and explore's) and
/// `explore --pr-gate REF`: the results file read before the run, the pull
/// request's rules judged after it.
extension Harness {
    /// Reads the results file and, for `--pr-gate`, what the pull request
    /// changed; a file or ref that cannot be used is a usage error, before any build.
    func prepareIncremental(_ options: ExploreOptions, configuration: LabConfiguration)
        -> Result<(IncrementalRun?, PullRequestChange?), HarnessExitCode>
    {
        let loaded = loadIncremental(options.run, configuration: configuration, named: false)
        guard case .success(let loadedRun) = loaded, let run = loadedRun else { return loaded.map { ($0, nil) } }
        // Only a run of every mutant of its paths says what the package's score is.
        let whole = options.inDiff == nil && options.sample == nil && options.ids.isEmpty && options.run.shard == nil
        if whole { run.scoreCommit = PullRequestGate.head(in: configuration.packagePath) }
        guard let ref = options.prGate else { return .success((run, nil)) }
        do {
            let base = try PullRequestGate.mergeBase(ref, in: configuration.packagePath)
            let changed = try ChangedLines.since(base, in: configuration.packagePath)
            print("Pull request: the lines changed since \(String(base.prefix(9))) (where HEAD left \(ref)) must lose no mutant")
            return .success((run, PullRequestChange(ref: ref, base: base, changed: changed)))
        } catch {
            return .failure(fail(.usage, "\(error)"))
        }
    }

    /// The results file of `--incremental FILE` (nil without the option),
    /// read before any build. `named`: the gate's, which keeps the named
    /// mutants' verdicts; explore's keeps generated ones. A file of the other
    /// kind is refused, never overwritten: it may hold hours of verdicts.
    func loadIncremental(_ options: RunOptions, configuration: LabConfiguration, named: Bool) -> Result<IncrementalRun?, HarnessExitCode> {
        guard let path = options.incremental else { return .success(nil) }
        let file = resolve(path)
        if ScratchRules.isInside(file.path, configuration.scratchPath.path) {
            return .failure(fail(.usage, "--incremental \(file.path) lies in the scratch copy, which each run makes like the package again "
                + "(the file would be deleted): keep it in the package or beside it"))
        }
        let previous: ResultsFile?
        do {
            previous = try ResultsFile.load(from: file)
        } catch {
            return .failure(fail(.usage, "\(error)"))
        }
        if let previous, previous.holdsNamedMutants != named {
            let (holds, other) = named ? ("explore's generated mutants", "mutate explore") : ("the gate's named mutants", "mutate")
            return .failure(fail(.usage, "\(file.path) keeps the verdicts of \(holds), written by `\(other) --incremental`: not touched; "
                + "give each command its own file"))
        }
        return .success(IncrementalRun(file: file, previous: previous, verifyCount: options.verifyReused, named: named, random: makeRandom()))
    }

    /// The pull request's rules on a finished run, kept in its reports (summary.md).
    func judge(_ change: PullRequestChange, _ report: LabReport, incremental: IncrementalRun?, paths: [String],
               configuration: LabConfiguration) -> LabReport
    {
        var report = report
        let ancestry = PullRequestGate.ancestry(of: change.base, in: configuration.packagePath)
        let baseScore = PullRequestGate.recordedScore(in: incremental?.previous, ancestry: ancestry, paths: paths)
        report.pullRequest = PullRequestGate.judge(report, changed: change.changed, ref: change.ref, base: change.base, baseScore: baseScore)
        do {
            try ReportWriter.write(report, to: configuration.outputPath, packagePath: configuration.packagePath, isCI: configuration.isCI,
                                   reportURL: configuration.reportURL)
        } catch {
            printError("warning: cannot rewrite the reports in \(configuration.outputPath.path) with the pull request's rules: \(error)")
        }
        return report
    }

    /// After the run: what was reused, then the exit code of a wrong reused
    /// verdict or a failed pull-request rule (nil: neither), its line last.
    func incrementalVerdict(_ report: LabReport) -> HarnessExitCode? {
        if let summary = report.incremental {
            print(ConsoleFormat.incremental(summary))
            if !summary.disagreements.isEmpty {
                return fail(.reusedVerdictWrong, "\(summary.disagreements.count) verdict(s) reused from \(summary.file) came out differently when run again "
                    + "(\(summary.disagreements.joined(separator: "; "))): the file kept a verdict its key did not protect; "
                    + "it now holds only this run's own verdicts, and the next run starts from those")
            }
        }
        guard let gate = report.pullRequest else { return nil }
        print(gate.verdict)
        switch gate.failed.first {
        case .survivorOnChangedLine?: return .survivorOnChangedLine
        case .scoreDropped?: return .scoreDropped
        case nil: return nil
        }
    }
}
