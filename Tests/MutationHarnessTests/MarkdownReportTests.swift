import Foundation
import Testing
@testable import MutationHarness

/// `report.md`, whole, as a reader opens it: the run's header, what needs
/// attention in order, the code no test reaches by file, and every mutant.
struct MarkdownReportTests {
    private static let diff = "```diff\n--- a/Sources/A.swift\n+++ b/Sources/A.swift\n@@ -2 +2 @@\n-b\n+B\n```\n\n"

    @Test func theWholeReportOfARichRun() {
        var report = ReportTests.sampleReport()
        report.shard = "1/2"
        report.commit = "abc123"
        report.startedAt = "2026-12-05T20:00:00Z"
        report.toolchain = "Swift 6.3.1"
        report.incremental = IncrementalSummary(file: "r.json", reused: 2, verified: 1, ran: 3, disagreements: [], reusedBaseline: true)
        let gate = PullRequestGate(ref: "origin/main", base: "0123456789", baseScore: 40, baseScoreCommit: "fedcba9876", score: 33.3,
                                   changedMutants: ["killed-one"], survivors: [], uncovered: [], failed: [.scoreDropped])
        report.pullRequest = gate
        report.coverageSeconds = 12.34
        report.mutants[0].coveredBy = ["Mod.Suite/a()", "Mod.Suite/b()"]
        report.mutants[2].bug = "#12"
        report.mutants[3].reason = "error: a | b\nnext"
        for (name, file, line) in [("nc-a1", "Sources/A.swift", 9), ("nc-b", "Sources/B.swift", 7), ("nc-a2", "Sources/A.swift", 3)] {
            var uncovered = report.mutants[2]
            uncovered.name = name
            uncovered.description = "what \(name) breaks"
            uncovered.status = .noCoverage
            uncovered.bug = nil
            uncovered.reason = nil
            uncovered.files = [file]
            uncovered.firstLine = line
            report.mutants.append(uncovered)
        }
        let attention = ["nc-a1", "nc-b", "nc-a2"].map { "### noCoverage: \($0)\n\nwhat \($0) breaks\n\n" + Self.diff }.joined()
        #expect(MarkdownReport.render(report) == """
            # Mutation report

            Package: `/pkg` (shard 1/2), commit `abc123`

            - Run: 2026-12-05T20:00:00Z with Swift 6.3.1
            - Mutants: 1 killed, 1 timeout, 1 survived, 3 noCoverage, 1 unviable, 1 stale
            - Score: 33.3% (threshold 100%)
            - Incremental: 2 verdict(s) reused from r.json (1 re-run to check it, all the same), 3 mutant(s) run; the package was unchanged: its baseline and coverage map came from the file
            - \(gate.verdict)
            - Baseline: build 30.0s, tests 2.0s (3 tests); test time limit per mutant 36s

            Each mutant ran only the tests that reach its code (coverage pass: 12.3s).

            ## Needs attention

            ### survived: lives

            what lives breaks

            Bug: #12

            Why: all 3 tests passed


            """ + Self.diff + attention + """
            ### unviable: broken

            what broken breaks

            Why: error: a | b
            next


            """ + Self.diff + """
            ### stale: old

            what old breaks

            Why: Sources/A.swift: hunk '@@ -2 +2 @@' does not match


            """ + Self.diff + """
            ## Code no test reaches

            | file | lines | mutants |
            |---|---|---|
            | `Sources/A.swift` | 3, 9 | nc-a1, nc-a2 |
            | `Sources/B.swift` | 7 | nc-b |

            ## All mutants

            | mutant | status | build s | test s | tests run | killed by | first failure |
            |---|---|---|---|---|---|---|
            | killed-one | killed | 1.5 | 2.0 | 2 covering | `Mod.Suite/a()` | Expectation failed: 1 == 2 |
            | hangs | timeout | 1.5 | 2.0 | all |  | ran past the limit |
            | lives | survived | 1.5 | 2.0 | all |  | all 3 tests passed |
            | broken | unviable | 1.5 | 2.0 | all |  | error: a \\| b next |
            | old | stale | 1.5 | 2.0 | all |  | Sources/A.swift: hunk '@@ -2 +2 @@' does not match |
            | later | pending | 1.5 | 2.0 | all |  |  |
            | nc-a1 | noCoverage | 1.5 | 2.0 | none |  |  |
            | nc-b | noCoverage | 1.5 | 2.0 | none |  |  |
            | nc-a2 | noCoverage | 1.5 | 2.0 | none |  |  |

            Each mutant's build and test output: `logs/<name>.log`.

            """)
    }

    /// A plain run says only what it has: no shard, commit, start, toolchain,
    /// reuse, gate or coverage pass; and a run with nothing to look at says so.
    @Test func aPlainRunWhoseMutantsWereAllKilled() {
        var report = ReportTests.sampleReport()
        report.mutants = [report.mutants[0]]
        let text = MarkdownReport.render(report)
        #expect(text.hasPrefix("""
            # Mutation report

            Package: `/pkg`

            - Mutants: 1 killed
            - Score: 100.0% (threshold 100%)
            - Baseline: build 30.0s, tests 2.0s (3 tests); test time limit per mutant 36s

            Every mutant that ran was killed.

            ## All mutants

            """), "\(text)")
        report.startedAt = "2026-12-05T20:00:00Z"
        #expect(MarkdownReport.render(report).contains("\n\n- Run: 2026-12-05T20:00:00Z\n- Mutants: 1 killed\n"))
    }
}
