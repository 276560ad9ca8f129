import Foundation
import Testing
@testable import MutationHarness

/// `summary.md`, the text a pull request's comment or a job summary shows,
/// exactly as a reviewer reads it.
struct SummaryReportTests {
    private static func survivor(_ index: Int, description: String? = nil) -> MutantResult {
        var result = ReportTests.sampleReport().mutants[2]
        result.name = "s\(index)"
        result.firstLine = index
        result.description = description ?? "survivor \(index)"
        result.diff = "@@ -\(index) +\(index) @@\n-old\n\n+new\n"
        return result
    }

    /// Without a pull request: the score, the counts by status, what was
    /// reused, every survivor in one line, and where report.html is.
    @Test func aWholeRunNamesItsSurvivors() {
        var report = ReportTests.sampleReport()
        report.incremental = IncrementalSummary(file: "r.json", reused: 3, verified: 1, ran: 2, disagreements: ["x: killed -> survived"],
                                                reusedBaseline: false)
        #expect(SummaryReport.render(report) == """
            ## Mutation testing: 66.67%

            | killed | timeout | survived | no coverage | unviable | ignored |
            |---|---|---|---|---|---|
            | 1 | 1 | 1 | 0 | 1 | 0 |

            3 of 6 verdicts reused from the last run (1 re-run to check them, **1 came out differently**); 2 mutant(s) run.

            ### Survivors (1)

            - `Sources/A.swift:2` what lives breaks (`lives`)

            Every mutant, its tests and its log: `report.html` beside this summary.

            """)
        report.mutants.removeAll { $0.status == .survived }
        report.incremental?.disagreements = []
        let clean = SummaryReport.render(report, reportURL: "https://ci/run/7")
        #expect(clean.contains("(1 re-run to check them); 2 mutant(s) run.\n\n"), "\(clean)")
        #expect(!clean.contains("Survivors"), "\(clean)")
        #expect(clean.hasSuffix("| 1 | 1 | 0 | 0 | 1 | 0 |\n\n3 of 5 verdicts reused from the last run (1 re-run to check them); 2 mutant(s) run.\n\n"
            + "Every mutant, its tests and its log: [report.html](https://ci/run/7) beside this summary.\n"), "\(clean)")
    }

    /// With a pull request: the score's change since the commit that
    /// recorded the base's score, the gate's verdict, the survivors on changed
    /// lines (the first ten with their diffs) and the changed lines no test reaches.
    @Test func aPullRequestShowsItsChangeItsSurvivorsAndTheirDiffs() throws {
        var report = ReportTests.sampleReport()
        let survivors = (1...11).map { Self.survivor($0) }
        var uncovered = Self.survivor(99, description: "no test here")
        uncovered.status = .noCoverage
        uncovered.name = "u"
        report.mutants += survivors + [uncovered]
        report.pullRequest = PullRequestGate(ref: "origin/main", base: "0123456789abcdef", baseScore: 50, baseScoreCommit: "fedcba9876543210",
                                             score: 40.5, changedMutants: survivors.map(\.name) + ["u", "killed-one"], survivors: survivors.map(\.name),
                                             uncovered: ["u"], failed: [.survivorOnChangedLine, .scoreDropped])
        let text = SummaryReport.render(report)
        #expect(text.hasPrefix("## Mutation testing: \(String(format: "%.2f%%", try #require(report.score))) (-9.50 since `fedcba987`)\n\n**PR gate FAILED: "),
                "\(text)")
        #expect(text.contains("### Survivors on changed lines (11 of 13 mutants there)\n\n- `Sources/A.swift:1` survivor 1 (`s1`)\n\n  ```diff\n"
            + "  @@ -1 +1 @@\n  -old\n  \n  +new\n  ```\n- `Sources/A.swift:2` survivor 2 (`s2`)\n"), "\(text)")
        #expect(text.components(separatedBy: "```diff").count - 1 == 10, "ten diffs")
        #expect(text.contains("- `Sources/A.swift:10` survivor 10 (`s10`)\n\n  ```diff\n"))
        #expect(text.contains("- `Sources/A.swift:11` survivor 11 (`s11`)\n\n### Changed lines no test reaches (1 mutants)\n\n"
            + "- `Sources/A.swift:99` no test here\n\nEvery mutant"), "\(text)")
        #expect(!text.contains("### Survivors ("), "the whole run's list is not repeated")

        // No survivor there, a score that rose, from the base itself.
        report.pullRequest = PullRequestGate(ref: "origin/main", base: "0123456789abcdef", baseScore: 40, baseScoreCommit: nil, score: 40.5,
                                             changedMutants: ["killed-one"], survivors: [], uncovered: [], failed: [])
        let passed = SummaryReport.render(report)
        #expect(passed.contains(" (+0.50 since `012345678`)\n\n**PR gate PASSED: "), "\(passed)")
        #expect(passed.contains("### Survivors on changed lines (0 of 1 mutants there)\n\nNone: every mutant of the changed lines was detected, "
            + "ignored with a reason, or is listed below.\n\n\nEvery mutant"), "\(passed)")
        #expect(!passed.contains("no test reaches"))
    }

    /// A summary longer than a comment may be is cut at a line, says where
    /// the rest is, and stays under the limit; one exactly at the limit is whole.
    @Test func aSummaryThatDoesNotFitACommentIsCutAtALine() throws {
        // Lines of 50 bytes and blank ones, far past the limit.
        let lines = (0..<3_000).map { $0 % 3 == 2 ? "" : String(format: "line %05d ", $0) + String(repeating: "x", count: 39) }
        let whole = lines.joined(separator: "\n") + "\n"
        let cut = SummaryReport.fitted(whole, reportURL: "https://ci/run/7")
        #expect(cut.utf8.count <= SummaryReport.sizeLimit)
        let ending = "\n… cut to fit a comment; the rest is in [report.html](https://ci/run/7).\n"
        #expect(cut.hasSuffix(ending))
        let kept = String(cut.dropLast(ending.count))
        let keptLines = kept.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(Array(lines.prefix(keptLines.count)) == keptLines, "whole lines, from the start, the blank ones kept")
        #expect(kept.utf8.count + lines[keptLines.count].utf8.count + 200 >= SummaryReport.sizeLimit, "the next line would not fit")
        #expect(kept.utf8.count + 200 < SummaryReport.sizeLimit)
        #expect(SummaryReport.fitted(whole, reportURL: nil).hasSuffix("\n… cut to fit a comment; the rest is in `report.html`.\n"))

        // Exactly at the limit: nothing cut; one byte more is cut.
        let full = String(repeating: "y", count: SummaryReport.sizeLimit - 1) + "\n"
        #expect(SummaryReport.fitted(full, reportURL: nil) == full)
        #expect(SummaryReport.fitted("y" + full, reportURL: nil).contains("cut to fit"))

        // A whole report renders through the same cut.
        var report = ReportTests.sampleReport()
        report.mutants += (1...2_000).map { Self.survivor($0, description: String(repeating: "x", count: 40)) }
        let rendered = SummaryReport.render(report)
        #expect(rendered.utf8.count <= SummaryReport.sizeLimit && rendered.hasSuffix("the rest is in `report.html`.\n"))
    }
}
