/// The harness's exit codes, documented in README and `mutate --help`.
public enum HarnessExitCode: Int32, Sendable, CaseIterable {
    /// Every mutant was killed (or the score met the threshold) and none is stale or unviable.
    case passed = 0
    /// Bad command line, or a mutant file or folder the harness cannot use.
    case usage = 2
    /// A mutant survived: the score is under the threshold.
    case survived = 3
    /// A mutant is stale (no longer applies) or unviable (does not compile), or its run said nothing.
    case brokenMutant = 4
    /// The unmutated package does not build, its suite is red, or it has no tests.
    case baselineFailed = 5
    /// Another run holds the scratch copy's lock (and `--wait` was not given).
    case locked = 6
    /// `--incremental` (the gate or explore): a reused verdict re-run by `--verify-reused`
    /// came out differently; the results file keeps only this run's own verdicts.
    case reusedVerdictWrong = 7
    /// `explore --pr-gate`: a mutant on a line the change touched survived.
    case survivorOnChangedLine = 8
    /// `explore --pr-gate`: the score is lower than the base branch's.
    case scoreDropped = 9
    /// Interrupted (Ctrl-C); the reports hold what finished.
    case interrupted = 130

    /// The line `mutate --help` prints for this code.
    var summary: String {
        switch self {
        case .passed: "gate passed"
        case .usage: "usage error, or a mutant file or folder that cannot be used"
        case .survived: "a mutant survived: the score is under the threshold"
        case .brokenMutant: "a mutant is stale or unviable (fix the mutant), or its run said nothing"
        case .baselineFailed: "the unmutated package does not build, has a red suite, or has no tests"
        case .locked: "another run holds the scratch copy (see --wait)"
        case .reusedVerdictWrong: "--incremental (the gate or explore): a reused verdict came out differently when re-run (--verify-reused)"
        case .survivorOnChangedLine: "explore --pr-gate: a mutant on a line the change touched survived"
        case .scoreDropped: "explore --pr-gate: the score is lower than the one recorded for the base branch"
        case .interrupted: "interrupted (SIGINT or SIGTERM): no verdict for the mutant that was running"
        }
    }

    /// How a run that stopped before its verdict exits: by the lab's reason
    /// (an interrupt, the lock, a scratch folder it may not use, a red or
    /// missing baseline); what `explore` could not read (the compiler's
    /// tree, the ignore file, the `--in-diff` ref) is input it cannot use;
    /// any other error (a command that cannot start) stops the run before
    /// any mutant, as a baseline that cannot be made.
    static func stopped(by error: any Error) -> HarnessExitCode {
        if error is ASTDumpError { return .usage }
        return switch error as? LabError {
        case .interrupted: .interrupted
        case .workspace: .usage
        case .locked: .locked
        case .baselineBuildFailed, .baselineTestsFailed, .baselineTimedOut, .noTests, nil: .baselineFailed
        }
    }

    /// The gate's verdict on a finished run.
    public static func gate(_ report: LabReport) -> HarnessExitCode {
        if let score = report.score, score < Double(report.threshold) { return .survived }
        if report.mutants.contains(where: { [.stale, .unviable, .error].contains($0.status) }) { return .brokenMutant }
        return .passed
    }
}
