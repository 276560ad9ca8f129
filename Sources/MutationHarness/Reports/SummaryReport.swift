import Foundation

/// `summary.md`: the run in a few lines a pull-request comment or
/// `$GITHUB_STEP_SUMMARY` can hold: the score and its change since the
/// base, the survivors on changed lines with their diffs, the changed lines
/// no test reaches, what was reused, and where the full report is. Kept
/// under `sizeLimit` (a GitHub comment holds 65,536 characters): what does
/// not fit is counted, and named in report.html.
enum SummaryReport {
    static let sizeLimit = 60_000
    /// Survivors shown with their diff; the rest are named in one line each.
    static let diffsShown = 10

    /// `reportURL`: where report.html can be opened (CI's artifact page), if known.
    static func render(_ report: LabReport, reportURL: String? = nil) -> String {
        let score = report.score.map { String(format: "%.2f%%", $0) } ?? "n/a"
        var out = "## Mutation testing: \(score)"
        if let gate = report.pullRequest, let base = gate.baseScore, let now = gate.score {
            let change = now - base
            out += String(format: " (%@%.2f since `%@`)", change >= 0 ? "+" : "", change, String((gate.baseScoreCommit ?? gate.base).prefix(9)))
        }
        out += "\n\n"
        if let gate = report.pullRequest { out += "**\(gate.verdict)**\n\n" }
        let counts = report.count
        let columns: [(String, MutantStatus)] = [("killed", .killed), ("timeout", .timeout), ("survived", .survived), ("no coverage", .noCoverage),
                                                 ("unviable", .unviable), ("ignored", .ignored)]
        out += "| " + columns.map(\.0).joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: columns.count) + "\n"
        out += "| " + columns.map { String(counts[$0.1] ?? 0) }.joined(separator: " | ") + " |\n\n"
        if let incremental = report.incremental {
            out += "\(incremental.reused) of \(report.mutants.filter { $0.status != .ignored }.count) verdicts reused from the last run "
                + "(\(incremental.verified) re-run to check them\(incremental.disagreements.isEmpty ? "" : ", **\(incremental.disagreements.count) came out differently**")); "
                + "\(incremental.ran) mutant(s) run.\n\n"
        }
        let byName = Dictionary(report.mutants.map { ($0.name, $0) }) { first, _ in first }
        if let gate = report.pullRequest {
            let survivors = gate.survivors.compactMap { byName[$0] }
            out += "### Survivors on changed lines (\(survivors.count) of \(gate.changedMutants.count) mutants there)\n\n"
            if survivors.isEmpty { out += "None: every mutant of the changed lines was detected, ignored with a reason, or is listed below.\n\n" }
            for (index, result) in survivors.enumerated() {
                out += "- `\(result.files.first ?? "?"):\(result.firstLine)` \(result.description) (`\(result.name)`)\n"
                if index < diffsShown { out += "\n  ```diff\n" + result.diff.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") + "\n  ```\n" }
            }
            let uncovered = gate.uncovered.compactMap { byName[$0] }
            if !uncovered.isEmpty {
                out += "\n### Changed lines no test reaches (\(uncovered.count) mutants)\n\n"
                for result in uncovered { out += "- `\(result.files.first ?? "?"):\(result.firstLine)` \(result.description)\n" }
            }
            out += "\n"
        } else {
            let survivors = report.mutants.filter { $0.status == .survived }
            if !survivors.isEmpty {
                out += "### Survivors (\(survivors.count))\n\n"
                for result in survivors { out += "- `\(result.files.first ?? "?"):\(result.firstLine)` \(result.description) (`\(result.name)`)\n" }
                out += "\n"
            }
        }
        out += "Every mutant, its tests and its log: " + (reportURL.map { "[report.html](\($0))" } ?? "`report.html`") + " beside this summary.\n"
        return fitted(out, reportURL: reportURL)
    }

    /// The text cut at a line before `sizeLimit`, saying so.
    static func fitted(_ text: String, reportURL: String?) -> String {
        guard text.utf8.count > sizeLimit else { return text }
        var kept = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard kept.utf8.count + line.utf8.count + 200 < sizeLimit else { break }
            kept += line + "\n"
        }
        return kept + "\n… cut to fit a comment; the rest is in " + (reportURL.map { "[report.html](\($0))" } ?? "`report.html`") + ".\n"
    }
}
