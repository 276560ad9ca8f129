import Foundation

/// `report.md`: survivors first, each with its description and diff, then
/// every mutant with its figures.
enum MarkdownReport {
    static func render(_ report: LabReport) -> String {
        var out = "# Mutation report\n\n"
        out += "Package: `\(report.packagePath)`" + (report.shard.map { " (shard \($0))" } ?? "")
            + (report.commit.map { ", commit `\($0)`" } ?? "") + "\n\n"
        if let started = report.startedAt { out += "- Run: \(started)" + (report.toolchain.map { " with \($0)" } ?? "") + "\n" }
        out += ConsoleFormat.summary(report).split(separator: "\n").map { "- \($0)" }.joined(separator: "\n") + "\n"
        out += String(format: "- Baseline: build %.1fs, tests %.1fs (%d tests); test time limit per mutant %.0fs\n\n",
                      report.baselineBuildSeconds, report.baselineTestSeconds, report.tests.count, report.testTimeoutSeconds)

        let attention = report.mutants.filter { [.survived, .stale, .unviable, .error].contains($0.status) }
        if attention.isEmpty {
            out += "Every mutant that ran was killed.\n\n"
        } else {
            out += "## Needs attention\n\n"
            for result in attention.sorted(by: { rank($0.status) < rank($1.status) }) {
                out += "### \(result.status.rawValue): \(result.name)\n\n\(result.description)\n\n"
                if let bug = result.bug { out += "Bug: \(bug)\n\n" }
                if let reason = result.reason { out += "Why: \(reason)\n\n" }
                out += "```diff\n\(result.diff.trimmingCharacters(in: .newlines))\n```\n\n"
            }
        }
        out += "## All mutants\n\n| mutant | status | build s | test s | killed by | first failure |\n|---|---|---|---|---|---|\n"
        for result in report.mutants {
            let killers = result.killedBy.map { "`\($0)`" }.joined(separator: "<br>")
            let reason = (result.reason ?? "").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
            out += String(format: "| %@ | %@ | %.1f | %.1f | %@ | %@ |\n", result.name, result.status.rawValue,
                          result.buildSeconds, result.testSeconds, killers, reason)
        }
        out += "\nEach mutant's build and test output: `logs/<name>.log`.\n"
        return out
    }

    private static func rank(_ status: MutantStatus) -> Int {
        [.survived, .error, .unviable, .stale].firstIndex(of: status) ?? 9
    }
}
