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
        if let incremental = report.incremental { out += "- " + ConsoleFormat.incremental(incremental) + "\n" }
        if let gate = report.pullRequest { out += "- " + gate.verdict + "\n" }
        out += String(format: "- Baseline: build %.1fs, tests %.1fs (%d tests); test time limit per mutant %.0fs\n\n",
                      report.baselineBuildSeconds, report.baselineTestSeconds, report.tests.count, report.testTimeoutSeconds)

        if let seconds = report.coverageSeconds {
            out += String(format: "Each mutant ran only the tests that reach its code (coverage pass: %.1fs).\n\n", seconds)
        }
        let attention = report.mutants.filter { [.survived, .noCoverage, .stale, .unviable, .error].contains($0.status) }
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
        let uncovered = Dictionary(grouping: report.mutants.filter { $0.status == .noCoverage }) { $0.files.first ?? "?" }
        if !uncovered.isEmpty {
            out += "## Code no test reaches\n\n| file | lines | mutants |\n|---|---|---|\n"
            for (file, results) in uncovered.sorted(by: { $0.key < $1.key }) {
                let lines = results.map(\.firstLine).sorted().map(String.init).joined(separator: ", ")
                out += "| `\(file)` | \(lines) | \(results.map(\.name).joined(separator: ", ")) |\n"
            }
            out += "\n"
        }
        out += "## All mutants\n\n| mutant | status | build s | test s | tests run | killed by | first failure |\n|---|---|---|---|---|---|---|\n"
        for result in report.mutants {
            let killers = result.killedBy.map { "`\($0)`" }.joined(separator: "<br>")
            let reason = (result.reason ?? "").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
            let chosen = result.coveredBy.map { "\($0.count) covering" } ?? (result.status == .noCoverage ? "none" : "all")
            out += String(format: "| %@ | %@ | %.1f | %.1f | %@ | %@ | %@ |\n", result.name, result.status.rawValue,
                          result.buildSeconds, result.testSeconds, chosen, killers, reason)
        }
        out += "\nEach mutant's build and test output: `logs/<name>.log`.\n"
        return out
    }

    private static func rank(_ status: MutantStatus) -> Int {
        [.survived, .noCoverage, .error, .unviable, .stale].firstIndex(of: status) ?? 9
    }
}
