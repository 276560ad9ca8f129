import Foundation

/// The lines the harness prints as it goes.
enum ConsoleFormat {
    /// `[2/6] killed    retry-on-400  14.2s (build 11.0s, tests 3.2s)  by Suite/test()`
    static func line(for result: MutantResult, index: Int, of total: Int) -> String {
        let status = result.status.rawValue + String(repeating: " ", count: max(0, 9 - result.status.rawValue.count))
        let position = String(index).leftPadded(to: String(total).count)
        var line = String(format: "[%@/%d] %@ %@  %.1fs (build %.1fs, tests %.1fs)", position, total, status, result.name,
                          result.buildSeconds + result.testSeconds, result.buildSeconds, result.testSeconds)
        if let test = result.killedBy.first {
            line += "  by \(test)" + (result.killedBy.count > 1 ? " (+\(result.killedBy.count - 1) more)" : "")
        } else if result.status == .survived || result.status == .noCoverage {
            line += "  \(result.description) (\(result.files.first ?? "?"):\(result.firstLine); diff in report.md)"
        } else if result.status != .killed, let reason = result.reason {
            line += "  \(reason)"
        }
        return line
    }

    /// The closing lines: counts and the score against the threshold.
    static func summary(_ report: LabReport) -> String {
        let counts = MutantStatus.allCases.filter { $0 != .pending }.compactMap { status -> String? in
            guard let count = report.count[status] else { return nil }
            return "\(count) \(status.rawValue)"
        }.joined(separator: ", ")
        let score = report.score.map { String(format: "%.1f%%", $0) } ?? "n/a"
        return "Mutants: \(counts.isEmpty ? "none" : counts)\nScore: \(score) (threshold \(report.threshold)%)"
    }
}

extension ConsoleFormat {
    /// What `--incremental` reused, checked and ran.
    static func incremental(_ summary: IncrementalSummary) -> String {
        "Incremental: \(summary.reused) verdict(s) reused from \(summary.file) (\(summary.verified) re-run to check it, "
            + "\(summary.disagreements.isEmpty ? "all the same" : "\(summary.disagreements.count) different")), \(summary.ran) mutant(s) run"
            + (summary.reusedBaseline ? "; the package was unchanged: its baseline and coverage map came from the file" : "")
    }

    /// The gate's verdict in words: PASSED or FAILED, and why.
    static func verdict(_ report: LabReport) -> String {
        let counts = report.count
        let score = report.score.map { String(format: "%.1f%%", $0) } ?? "n/a"
        switch HarnessExitCode.gate(report) {
        case .survived:
            let survivors = report.mutants.filter { $0.status == .survived }.map(\.name)
            let uncovered = report.mutants.filter { $0.status == .noCoverage }.map(\.name)
            let missed = [survivors.isEmpty ? nil : "\(survivors.count) mutant(s) survived (\(survivors.joined(separator: ", ")))",
                          uncovered.isEmpty ? nil : "\(uncovered.count) reached by no test (\(uncovered.joined(separator: ", ")))"]
                .compactMap { $0 }.joined(separator: " and ")
            return "Gate FAILED: \(missed); score \(score) is under the threshold \(report.threshold)%. Add a test that fails on each, never weaken the mutant."
        case .brokenMutant:
            let broken = report.mutants.filter { [.stale, .unviable, .error].contains($0.status) }.map { "\($0.name) \($0.status.rawValue)" }
            return "Gate FAILED: \(broken.joined(separator: ", ")): a mutant that no longer applies, compiles or runs is a defect to fix (`mutate check`, then re-record it)."
        default:
            let detected = (counts[.killed] ?? 0) + (counts[.timeout] ?? 0)
            return "Gate PASSED: \(detected) of \(detected + (counts[.survived] ?? 0) + (counts[.noCoverage] ?? 0)) mutants detected; score \(score) meets the threshold \(report.threshold)%."
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

extension ConsoleFormat {
    /// `  progress 12/49 (24%), 11 of 12 detected (91.7%), about 1m20s left`:
    /// after each mutant of a long run, from the mean time so far.
    static func progress(_ done: [MutantResult], of total: Int, elapsed: Double) -> String {
        let detected = done.filter { $0.status.isDetected }.count
        let counted = detected + done.filter { $0.status.isUndetected }.count
        let rate = counted == 0 ? "" : String(format: ", %d of %d detected (%.1f%%)", detected, counted, Double(detected) * 100 / Double(counted))
        let left = done.isEmpty ? 0 : elapsed / Double(done.count) * Double(total - done.count)
        return String(format: "  progress %d/%d (%d%%)%@, about %@ left", done.count, total, done.count * 100 / max(total, 1), rate,
                      duration(left))
    }

    /// `a, b, c and 2 more`: a list for one line of output, its first three named.
    static func firstThree(_ items: [String]) -> String {
        items.prefix(3).joined(separator: ", ") + (items.count > 3 ? " and \(items.count - 3) more" : "")
    }

    /// `45s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3600, (whole % 3600) / 60)
    }
}
