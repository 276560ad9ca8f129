import Foundation

/// `explore --incremental FILE --pr-gate REF`: the two rules a reviewer
/// wants of a pull request, judged on a whole-package run (verdicts reused
/// where their key holds):
///
/// 1. No mutant on a line the change touched (since the merge base of REF
///    and HEAD) survives or ends without a verdict: each is killed, ignored
///    with a reason in `mutants/explore-ignore`, unviable, or reported as
///    reached by no test (NoCoverage, listed in the summary).
/// 2. The package's score is not lower than the one FILE recorded for the
///    merge base (or its nearest first-parent ancestor with one).
public struct PullRequestGate: Codable, Equatable, Sendable {
    /// The rule that failed first.
    public enum Rule: String, Codable, Sendable {
        case survivorOnChangedLine
        case scoreDropped
    }

    public var ref: String
    /// The merge base of `ref` and HEAD: what "changed" is measured from.
    public var base: String
    /// The score recorded for `baseScoreCommit` (the base or an ancestor); nil when none was.
    public var baseScore: Double?
    public var baseScoreCommit: String?
    public var score: Double?
    /// Mutants on changed lines, by name.
    public var changedMutants: [String]
    /// Of those, the ones that survived or ended without a verdict.
    public var survivors: [String]
    /// Of those, the ones no test reaches.
    public var uncovered: [String]
    /// Every rule that failed, in order.
    public var failed: [Rule]

    /// Judges a finished run.
    static func judge(_ report: LabReport, changed: ChangedLines, ref: String, base: String,
                      baseScore: (commit: String, score: Double)?) -> PullRequestGate
    {
        // Ignored mutants (a reason in mutants/explore-ignore) are not run: they hold the rule and are not counted.
        let onChanged = report.mutants.filter { result in
            guard result.status != .ignored, let file = result.files.first else { return false }
            return (result.firstLine...max(result.firstLine, result.lastLine)).contains { changed.contains(file, line: $0) }
        }
        let survivors = onChanged.filter { $0.status == .survived || $0.status == .error || $0.status == .pending }.map(\.name)
        var failed: [Rule] = []
        if !survivors.isEmpty { failed.append(.survivorOnChangedLine) }
        // A score is compared to two decimals, as people read it: a change of no mutant is no drop.
        if let baseScore, let score = report.score, (score * 100).rounded() < (baseScore.score * 100).rounded() {
            failed.append(.scoreDropped)
        }
        return PullRequestGate(ref: ref, base: base, baseScore: baseScore?.score, baseScoreCommit: baseScore?.commit, score: report.score,
                               changedMutants: onChanged.map(\.name), survivors: survivors,
                               uncovered: onChanged.filter { $0.status == .noCoverage }.map(\.name), failed: failed)
    }

    /// The last line of the run: which rule failed, or that both held.
    var verdict: String {
        let score = { (value: Double?) in value.map { String(format: "%.2f%%", $0) } ?? "n/a" }
        let base = baseScore.map { _ in "the base's \(score(baseScore)) (\(baseScoreCommit.map { String($0.prefix(9)) } ?? "?"))" }
            ?? "no score recorded for the base"
        var reasons: [String] = []
        if failed.contains(.survivorOnChangedLine) {
            reasons.append("\(survivors.count) mutant(s) on lines this change touched survived (\(survivors.joined(separator: ", ")))")
        }
        if failed.contains(.scoreDropped) { reasons.append("the score \(score(self.score)) is lower than \(base)") }
        if reasons.isEmpty {
            return "PR gate PASSED: \(changedMutants.count) mutant(s) on changed lines, none survived"
                + (uncovered.isEmpty ? "" : " (\(uncovered.count) reached by no test)") + "; score \(score(self.score)), \(base)"
        }
        return "PR gate FAILED: " + reasons.joined(separator: "; and ")
    }

    /// HEAD's full commit in `package`; nil outside a git work tree.
    static func head(in package: URL) -> String? {
        guard let result = try? CapturedCommand.run(["git", "-C", package.path, "rev-parse", "HEAD"]), result.status == 0 else { return nil }
        let commit = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }

    /// The merge base of `ref` and HEAD in `package`.
    static func mergeBase(_ ref: String, in package: URL) throws -> String {
        let result = try CapturedCommand.run(["git", "-C", package.path, "merge-base", ref, "HEAD"])
        let commit = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !commit.isEmpty else {
            throw ASTDumpError(reason: "cannot find where HEAD left \(ref) in \(package.path) (git merge-base): "
                + (result.errorText.isEmpty ? "no common commit" : result.errorText) + "; fetch the base branch first (actions/checkout: fetch-depth: 0)")
        }
        return commit
    }

    /// `commit` and its first-parent ancestors, newest first (at most `limit`).
    static func ancestry(of commit: String, in package: URL, limit: Int = 200) -> [String] {
        guard let result = try? CapturedCommand.run(["git", "-C", package.path, "rev-list", "--first-parent", "--max-count=\(limit)", commit]),
              result.status == 0 else { return [commit] }
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The score recorded for the newest of `ancestry` over the same paths.
    static func recordedScore(in file: ResultsFile?, ancestry: [String], paths: [String]) -> (commit: String, score: Double)? {
        for commit in ancestry {
            if let recorded = file?.scores?[commit], recorded.paths == paths, let score = recorded.score { return (commit, score) }
        }
        return nil
    }
}

extension ResultsFile {
    /// A finished run's score, kept by commit for later pull requests.
    struct RecordedScore: Codable, Equatable {
        var score: Double?
        var paths: [String]
        var savedAt: String
    }

    /// The scores kept at most (the oldest go first).
    static let scoresKept = 500
}
