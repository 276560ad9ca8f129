import Foundation
import Testing
@testable import MutationHarness

/// The pull-request gate's parts: the score compared as people read it, the
/// base's score found among the commits before, and what git says of them.
struct PullRequestGateTests {
    /// A finished run of `detected` killed and `missed` survived mutants.
    private func report(detected: Int, missed: Int) -> LabReport {
        var report = LabReport(packagePath: "/p", threshold: 0, setupSeconds: 0, baselineBuildSeconds: 0, baselineTestSeconds: 0,
                               testTimeoutSeconds: 0, tests: [], mutants: [], shard: nil)
        report.mutants = (0..<(detected + missed)).map { index in
            MutantResult(name: "m\(index)", description: "", bug: nil, status: index < detected ? .killed : .survived, files: [],
                         firstLine: 1, lastLine: 1, diff: "", replacement: "", log: "")
        }
        return report
    }

    /// 402 of 500 is 80.40%: below a base of 80.41% it is a drop; against
    /// 80.404%, which reads 80.40% too, it is none.
    @Test func aScoreDropsOnlyWhenItReadsLowerToTwoDecimals() {
        let run = report(detected: 402, missed: 98)
        func failed(base: Double) -> [PullRequestGate.Rule] {
            PullRequestGate.judge(run, changed: ChangedLines(), ref: "main", base: "abc", baseScore: ("abc", base)).failed
        }
        #expect(failed(base: 80.41) == [.scoreDropped])
        #expect(failed(base: 80.404).isEmpty && failed(base: 80.4).isEmpty && failed(base: 79).isEmpty)
    }

    /// The base's score is the newest recorded over the same paths, skipping
    /// a commit recorded over other paths or without a score.
    @Test func theBaseScoreIsTheNewestOverTheSamePaths() {
        var file = ResultsFile(harness: "1", commit: nil, savedAt: "now", tree: "t", common: "c", baseline: nil, coverage: nil, explored: nil,
                               verdicts: [:])
        file.scores = ["c3": .init(score: 90, paths: ["Sources/A"], savedAt: "3"), "c2": .init(score: nil, paths: ["Sources"], savedAt: "2"),
                       "c1": .init(score: 70, paths: ["Sources"], savedAt: "1"), "c0": .init(score: 60, paths: ["Sources"], savedAt: "0")]
        let found = PullRequestGate.recordedScore(in: file, ancestry: ["c3", "c2", "c1", "c0"], paths: ["Sources"])
        #expect(found?.commit == "c1" && found?.score == 70)
        #expect(PullRequestGate.recordedScore(in: nil, ancestry: ["c1"], paths: ["Sources"]) == nil)
    }

    /// HEAD and its first-parent ancestry from git; nothing for a
    /// repository without a commit, and the commit alone when git cannot list it.
    @Test func gitGivesHeadAndItsAncestry() throws {
        try withScratch { scratch in
            let root = scratch.url.appendingPathComponent("repo")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try git(["init", "-q"], in: root)
            #expect(PullRequestGate.head(in: root) == nil, "no commit yet (git prints `HEAD` and fails)")
            for number in 1...3 { try git(["commit", "-q", "--allow-empty", "-m", "c\(number)"], in: root) }
            let head = try #require(PullRequestGate.head(in: root))
            let parsed = try git(["rev-parse", "HEAD"], in: root), first = try git(["rev-list", "--max-parents=0", "HEAD"], in: root)
            #expect(head == parsed)
            let ancestry = PullRequestGate.ancestry(of: head, in: root)
            #expect(ancestry.count == 3 && ancestry.first == head && ancestry.last == first)
            #expect(PullRequestGate.ancestry(of: head, in: root, limit: 2).count == 2)
            #expect(PullRequestGate.ancestry(of: "no-such-commit", in: root) == ["no-such-commit"])
        }
    }
}

extension PullRequestGateTests {
    /// A merge base git cannot find is refused in git's own words, or as "no common commit" when git fails without one.
    @Test func aMergeBaseGitCannotFindSaysWhy() throws {
        try withScratch { scratch in
            let root = scratch.url.appendingPathComponent("repo")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try git(["init", "-q"], in: root)
            try git(["commit", "-q", "--allow-empty", "-m", "first"], in: root)
            let first = try git(["rev-parse", "HEAD"], in: root)
            // A second history with no commit in common: git merge-base exits 1 and prints nothing.
            try git(["checkout", "-q", "--orphan", "unrelated"], in: root)
            try git(["commit", "-q", "--allow-empty", "-m", "unrelated"], in: root)
            #expect(throws: ASTDumpError(reason: "cannot find where HEAD left \(first) in \(root.path) (git merge-base): no common commit; "
                + "fetch the base branch first (actions/checkout: fetch-depth: 0)")) {
                try PullRequestGate.mergeBase(first, in: root)
            }
            // A ref git does not know: git says why (`fatal: Not a valid object name ...`), and the error quotes it.
            do {
                _ = try PullRequestGate.mergeBase("no-such-branch", in: root)
                Issue.record("a merge base was found for a branch that does not exist")
            } catch {
                let reason = String(describing: error)
                #expect(reason.hasPrefix("cannot find where HEAD left no-such-branch in \(root.path) (git merge-base): ")
                    && !reason.contains("no common commit"), "git's own words: \(reason)")
            }
        }
    }
}
