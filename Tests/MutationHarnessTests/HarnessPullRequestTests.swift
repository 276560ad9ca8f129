import Foundation
import Testing
@testable import MutationHarness

/// `mutate explore --incremental FILE --pr-gate REF` on a git work tree:
/// the base branch's run records its score, a pull request is judged on
/// its changed lines and on that score, and summary.md says how it came out.
extension HarnessCommandTests {
    /// `pkg` as a repository whose `main` holds the package.
    private func pullRequest(in scratch: Scratch, ignore: String? = nil) throws -> URL {
        let package = try package(in: scratch)
        try scratch.write("pkg/.gitignore", ".build/\n")
        if let ignore { try scratch.write("pkg/mutants/explore-ignore", ignore) }
        try git(["init", "-q", "-b", "main"], in: package)
        try git(["add", "-A"], in: package)
        try git(["commit", "-q", "-m", "base"], in: package)
        return package
    }

    /// A branch `change` on which `edit` was made to Arithmetic.swift and committed.
    private func change(_ package: URL, _ edit: (String) -> String) throws {
        try git(["checkout", "-q", "-b", "change"], in: package)
        let file = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
        try Data(edit(try String(contentsOf: file, encoding: .utf8)).utf8).write(to: file)
        try git(["commit", "-q", "-am", "change"], in: package)
    }

    private func gate(_ scratch: Scratch, runner: ScriptedRunner = ScriptedRunner()) -> Outcome {
        mutate(["explore", "--package-path", "pkg", "--no-schema", "--incremental", "results.json", "--pr-gate", "main", "--verify-reused", "0"],
               in: scratch, runner: runner)
    }

    /// The base records its score (50%: the comment's mutant survives, unless ignored).
    private func recordBase(_ scratch: Scratch, _ package: URL, score: Double = 50) throws {
        let base = mutate(["explore", "--package-path", "pkg", "--no-schema", "--incremental", "results.json"], in: scratch)
        #expect(base.code == .passed, "\(base)")
        let head = try git(["rev-parse", "HEAD"], in: package)
        let file = try #require(try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json")))
        #expect(file.scores?[head]?.score == score, "\(String(describing: file.scores))")
    }

    /// A pull request run on a package the results file already explored
    /// keeps only the file's mutants on changed lines.
    @Test func aDiffRunOnAnUnchangedPackageKeepsOnlyTheFilesMutantsOnChangedLines() throws {
        try withScratch { scratch in
            let package = try pullRequest(in: scratch)
            try change(package) { $0 + "// the end\n" }
            try recordBase(scratch, package)
            let outcome = mutate(["explore", "--package-path", "pkg", "--no-schema", "--incremental", "results.json", "--verify-reused", "0",
                                  "--in-diff", "main"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(outcome.output.contains("are the results file's (the package is unchanged)"), "\(outcome.output)")
            #expect(outcome.output.contains("Mutants: none\n"), "no mutant lies on the line added: \(outcome.output)")
        }
    }

    /// Reports that cannot be rewritten with the pull request's rules are a
    /// warning naming the folder; the judgement still stands.
    @Test func reportsThatCannotBeRewrittenWithThePullRequestsRulesAreAWarning() throws {
        try withScratch { scratch in
            try scratch.write("blocker", "")
            let errors = OutputBox()
            let harness = Harness(workingDirectory: scratch.url, print: { _ in }, printError: { errors.append($0) })
            let configuration = LabConfiguration(packagePath: scratch.url, outputPath: scratch.url.appendingPathComponent("blocker/out"))
            let report = LabReport(packagePath: scratch.url.path, threshold: 100, setupSeconds: 0, baselineBuildSeconds: 0, baselineTestSeconds: 0,
                                   testTimeoutSeconds: 0, tests: [], mutants: [], shard: nil)
            let judged = harness.judge(PullRequestChange(ref: "main", base: "abc", changed: ChangedLines()), report, incremental: nil,
                                       paths: ["Sources"], configuration: configuration)
            #expect(judged.pullRequest != nil)
            #expect(errors.text.hasPrefix("warning: cannot rewrite the reports in \(scratch.url.path)/blocker/out with the pull request's rules: "),
                    "\(errors.text)")
        }
    }

    @Test func aSurvivorOnAChangedLineFailsThePullRequestAndTheSummaryShowsItsDiff() throws {
        try withScratch { scratch in
            let package = try pullRequest(in: scratch)
            try recordBase(scratch, package)
            // Line 3 changes (the offsets of both mutants stay): the comment's mutant is on a changed line.
            try change(package) { $0.replacingOccurrences(of: "// adds", with: "// adds!") }
            let outcome = gate(scratch)
            #expect(outcome.code == .survivorOnChangedLine, "\(outcome)")
            let base = String(try git(["rev-parse", "main"], in: package).prefix(9))
            #expect(outcome.output.contains("Pull request: the lines changed since \(base) (where HEAD left main) must lose no mutant\n"),
                    "\(outcome.output)")
            #expect(outcome.output.hasSuffix("PR gate FAILED: 1 mutant(s) on lines this change touched survived (\(Self.comment.id))"), "\(outcome.output)")
            let summary = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/explore/summary.md"), encoding: .utf8)
            #expect(summary.hasPrefix("## Mutation testing: 50.00% (+0.00 since `"), "\(summary)")
            #expect(summary.contains("### Survivors on changed lines (1 of 2 mutants there)"), "\(summary)")
            #expect(summary.contains("- `Sources/Tiny/Arithmetic.swift:3`") && summary.contains("```diff"), "\(summary)")
        }
    }

    @Test func aSurvivorIgnoredWithAReasonPassesThePullRequest() throws {
        try withScratch { scratch in
            let package = try pullRequest(in: scratch, ignore: "\(Self.comment.id) equivalent: a comment\n")
            try recordBase(scratch, package, score: 100)
            try change(package) { $0.replacingOccurrences(of: "// adds", with: "// adds!") }
            let outcome = gate(scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(outcome.output.hasSuffix("PR gate PASSED: 1 mutant(s) on changed lines, none survived; score 100.00%, the base's 100.00% ("
                + String(try git(["rev-parse", "main"], in: package).prefix(9)) + ")"), "\(outcome.output)")
        }
    }

    /// A change elsewhere that lets a mutant survive lowers the score below the base's.
    @Test func aLowerScoreThanTheBasesFailsThePullRequest() throws {
        try withScratch { scratch in
            let package = try pullRequest(in: scratch)
            try recordBase(scratch, package)
            let results = scratch.url.appendingPathComponent("results.json")
            let base = try Data(contentsOf: results)
            try change(package) { $0 + "// the end\n" }
            let weakened = ScriptedRunner()
            weakened.testsWeakened = true
            let outcome = gate(scratch, runner: weakened)
            #expect(outcome.code == .scoreDropped, "\(outcome)")
            #expect(outcome.output.hasSuffix("PR gate FAILED: the score 0.00% is lower than the base's 50.00% ("
                + String(try git(["rev-parse", "main"], in: package).prefix(9)) + ")"), "\(outcome.output)")

            // The same change with the tests as they were, from the base's file (a pull request's run is not kept for the next): the score holds.
            try base.write(to: results)
            let fair = gate(scratch)
            #expect(fair.code == .passed, "\(fair)")
        }
    }

    @Test func aRefGitCannotFindIsRefusedBeforeAnyBuild() throws {
        try withScratch { scratch in
            _ = try pullRequest(in: scratch)
            let runner = ScriptedRunner()
            let outcome = mutate(["explore", "--package-path", "pkg", "--incremental", "results.json", "--pr-gate", "no-such-branch"], in: scratch, runner: runner)
            #expect(outcome.code == .usage)
            #expect(outcome.errors.contains("cannot find where HEAD left no-such-branch"), "\(outcome.errors)")
            #expect(runner.calls.isEmpty)
            for extra in [["--in-diff", "main"], ["--sample", "1"]] {
                let refused = mutate(["explore", "--package-path", "pkg", "--incremental", "r.json", "--pr-gate", "main"] + extra, in: scratch)
                #expect(refused.code == .usage && refused.errors.contains("runs part of it"), "\(extra): \(refused.errors)")
            }
            #expect(mutate(["explore", "--package-path", "pkg", "--pr-gate", "main"], in: scratch).code == .usage)
        }
    }

    /// Only a run of every mutant of its paths records the package's score:
    /// a sample, a list of ids, a shard or the lines of a diff would give a
    /// pull request a base score that is not the package's.
    @Test func onlyAWholeRunRecordsTheScoreOfItsCommit() throws {
        try withScratch { scratch in
            let package = try pullRequest(in: scratch)
            func partialRunsRecordNoScore(_ partials: [[String]]) throws {
                let head = try git(["rev-parse", "HEAD"], in: package)
                for partial in partials {
                    let outcome = mutate(["explore", "--package-path", "pkg", "--no-schema", "--incremental", "results.json", "--verify-reused", "0"]
                                         + partial, in: scratch)
                    #expect(outcome.code == .passed, "\(partial): \(outcome)")
                    #expect(outcome.output.contains("\nScore: "), "\(partial): mutants were judged: \(outcome.output)")
                    let file = try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json"))
                    #expect(file?.scores?[head] == nil, "\(partial): \(String(describing: file?.scores))")
                }
            }
            try partialRunsRecordNoScore([["--sample", "1"], ["--id", Self.subtraction.id], ["--shard", "1/2"]])
            try recordBase(scratch, package)
            // A branch's lines: the mutants on them are all the run sees.
            try change(package) { $0.replacingOccurrences(of: "// adds", with: "// adds!") }
            try partialRunsRecordNoScore([["--in-diff", "main"]])
        }
    }

    /// The commit a `Rebased:` header names: HEAD's short id in a
    /// repository, none where git cannot tell (a folder that is gone).
    @Test func theHeadCommitIsGitsShortIdOrNone() throws {
        try withScratch { scratch in
            let package = try pullRequest(in: scratch)
            let harness = Harness(workingDirectory: scratch.url, print: { _ in }, printError: { _ in })
            #expect(harness.headCommit(package) == (try git(["rev-parse", "--short", "HEAD"], in: package)))
            #expect(harness.headCommit(scratch.url.appendingPathComponent("gone")) == nil)
        }
    }
}
