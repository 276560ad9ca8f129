import Foundation
import Testing
@testable import MutationHarness

/// `report.html`'s structure: self-contained, the verdict, source with the
/// mutated lines marked, a filter per status, each mutant's details, the
/// mutant x test matrix.
struct HTMLReportTests {
    private let html = HTMLReport.render(ReportTests.sampleReport(), readSource: { _ in "line one\nb <script>\nline three\n" })

    @Test func isOneSelfContainedPage() {
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        for external in ["src=\"http", "href=\"http", "@import", "<link "] {
            #expect(!html.contains(external), "nothing is fetched: \(external)")
        }
        #expect(html.components(separatedBy: "<div class=\"mutant\"").count - 1 == 6, "every mutant")
    }

    @Test func saysTheVerdictAndMarksTheMutatedLines() {
        #expect(html.contains("<div class=\"verdict fail\" id=\"verdict\">Gate FAILED: 1 mutant(s) survived (lives)"))
        #expect(html.contains("<h2 class=\"file\">Sources/A.swift</h2>"))
        #expect(html.contains("<span class=\"hit\"><span class=\"num\">2</span>b &lt;script&gt;</span>"), "source is escaped, line 2 marked")
        #expect(html.contains("<span class=\"\"><span class=\"num\">1</span>line one</span>"))
        #expect(html.contains("<span class=\"\"><span class=\"num\">3</span>line three</span>"), "down to the file's last line")
    }

    @Test func filtersByStatusAndShowsEachMutantsDetails() {
        for status in ["killed", "timeout", "survived", "unviable", "stale", "pending"] {
            #expect(html.contains("<input type=\"checkbox\" data-status=\"\(status)\" checked>"), "\(status)")
        }
        #expect(html.contains("Killed by: <code>Mod.Suite/a()</code>"))
        #expect(html.contains("First failure: Expectation failed: 1 == 2"))
        #expect(html.contains("<pre>--- a/Sources/A.swift\n+++ b/Sources/A.swift\n@@ -2 +2 @@\n-b\n+B\n</pre>"))
    }

    /// Blank lines count: the excerpt numbers each line as the file does.
    @Test func blankLinesKeepTheLineNumbers() {
        var report = ReportTests.sampleReport()
        report.mutants = [report.mutants[0]]
        report.mutants[0].firstLine = 3
        report.mutants[0].lastLine = 3
        let page = HTMLReport.render(report, readSource: { _ in "a\n\nthird\n" })
        #expect(page.contains("<span class=\"hit\"><span class=\"num\">3</span>third</span>"), "\(page)")
    }

    /// A crash's count of tests it never reached is shown only when there
    /// are some.
    @Test func namesTheTestsACrashLeftUnrunOnlyWhenThereAreSome() {
        var report = ReportTests.sampleReport()
        report.mutants = [report.mutants[0]]
        for (notRun, shown) in [(nil, false), ([], false), (["Mod.Suite/b()", "Mod.Suite/c()"], true)] as [([String]?, Bool)] {
            report.mutants[0].notRun = notRun
            let page = HTMLReport.render(report, readSource: { _ in "a\n" })
            #expect(page.contains("<div>Did not run after the crash: 2 test(s)</div>") == shown, "\(String(describing: notRun))")
            #expect(page.contains("Did not run after the crash") == shown)
        }
    }

    /// Found when a file was split while an explore run was going: the
    /// report read the package's shorter file and the harness crashed.
    @Test func aFileShorterNowThanTheMutantsLinesIsSaidNotACrash() {
        var report = ReportTests.sampleReport()
        report.mutants = [report.mutants[0]]
        report.mutants[0].firstLine = 500
        report.mutants[0].lastLine = 502
        let page = HTMLReport.render(report, readSource: { _ in "one\ntwo\n" })
        #expect(page.contains("This file is shorter now than when the mutants were made"), "\(page)")
        #expect(!page.contains("<span class=\"num\">500</span>"))
    }

    @Test func aMutatedLineIsShownWithTwoLinesEitherSide() {
        var report = ReportTests.sampleReport()
        report.mutants = [report.mutants[2]]
        report.mutants[0].firstLine = 10
        report.mutants[0].lastLine = 10
        let page = HTMLReport.render(report, readSource: { _ in (1...20).map { "source \($0)" }.joined(separator: "\n") + "\n" })
        let shown = (1...20).filter { page.contains("<span class=\"num\">\($0)</span>source \($0)<") }
        #expect(shown == [8, 9, 10, 11, 12])
        #expect(page.contains("<span class=\"gap\">") == false, "one excerpt, no gap")
        #expect(!page.contains("Killed by:"), "a survivor names no killer")
    }

    /// Excerpts that leave out even one line between them are split by a gap
    /// mark; excerpts that touch run on.
    @Test func aSingleLeftOutLineBetweenExcerptsIsMarked() {
        for (second, gaps) in [(9, 1), (8, 0)] {
            var report = ReportTests.sampleReport()
            report.mutants = [report.mutants[2], report.mutants[2]]
            report.mutants[1].name = "other"
            (report.mutants[0].firstLine, report.mutants[0].lastLine) = (3, 3)
            (report.mutants[1].firstLine, report.mutants[1].lastLine) = (second, second)
            let page = HTMLReport.render(report, readSource: { _ in (1...20).map { "source \($0)" }.joined(separator: "\n") + "\n" })
            #expect(page.components(separatedBy: "<span class=\"gap\">").count - 1 == gaps, "lines 3 and \(second)")
        }
    }

    /// The code no test reaches, by file and line, before the files; the
    /// covering tests a mutant ran; the score in the page's title.
    @Test func listsTheCodeNoTestReachesAndTheTestsAMutantRan() {
        #expect(!html.contains("Code no test reaches"), "none in the sample")
        #expect(html.contains("<title>Mutation report: 66.7%</title>"))
        var report = ReportTests.sampleReport()
        report.mutants[0].coveredBy = ["Mod.Suite/a()", "Mod.Suite/b()"]
        for (name, file, line) in [("u1", "Sources/B.swift", 9), ("u2", "Sources/A.swift", 4), ("u3", "Sources/B.swift", 3)] {
            var uncovered = report.mutants[2]
            (uncovered.name, uncovered.status, uncovered.files, uncovered.firstLine, uncovered.lastLine) = (name, .noCoverage, [file], line, line)
            report.mutants.append(uncovered)
        }
        let page = HTMLReport.render(report, readSource: { _ in nil })
        #expect(page.contains("<h2>Code no test reaches</h2>\n<ul id=\"uncovered\"><li><code>Sources/A.swift</code> line(s) 4</li>"
            + "<li><code>Sources/B.swift</code> line(s) 3, 9</li></ul>\n"), "\(page)")
        #expect(page.contains("<details><summary>Covered by 2 test(s), the only ones run</summary><ul><li><code>Mod.Suite/a()</code></li>"
            + "<li><code>Mod.Suite/b()</code></li></ul></details>"))
        #expect(page.components(separatedBy: "Covered by").count == 2, "only the mutant that ran its covering tests")
        #expect(page.contains("<title>Mutation report: 33.3%</title>"))
    }

    /// A one-line file without a final line break: its line is shown, and
    /// the file is not said to have changed.
    @Test func aMutantOnTheOnlyLineOfAFileShowsIt() {
        var report = ReportTests.sampleReport()
        report.mutants = [report.mutants[2]]
        (report.mutants[0].firstLine, report.mutants[0].lastLine) = (1, 1)
        let page = HTMLReport.render(report, readSource: { _ in "only" })
        #expect(page.contains("<span class=\"hit\"><span class=\"num\">1</span>only</span>"), "\(page)")
        #expect(!page.contains("shorter now"))
    }

    @Test func theMatrixNamesWhichTestsKillWhichMutantsAndWhichKillNothing() {
        #expect(html.contains("<table id=\"matrix\"><tr><th>mutant</th><th title=\"Mod.Suite/a()\">T1</th></tr>"))
        #expect(html.contains("<tr data-status=\"killed\"><td>killed-one</td><td class=\"k\">&#10003;</td></tr>"))
        #expect(html.contains("2 test(s) that killed no mutant"))
        #expect(html.contains("<li><code>Mod.Legacy/testC</code></li>"))
    }
}

extension HTMLReportTests {
    /// A filter for each status some mutant has, and none for a status no mutant has.
    @Test func offersAFilterOnlyForTheStatusesPresent() {
        #expect(html.components(separatedBy: "<input type=\"checkbox\"").count - 1 == 6)
        for absent in ["noCoverage", "error", "ignored"] {
            #expect(!html.contains("data-status=\"\(absent)\""), "\(absent)")
        }
    }

    /// Under the matrix, each killing test is listed by its full name, one item each.
    @Test func listsEachKillingTestUnderTheMatrix() {
        #expect(html.contains("</table>\n<ol class=\"tests\"><li><code>Mod.Suite/a()</code></li></ol>\n"), "\(html)")
    }
}
