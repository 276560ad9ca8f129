import Foundation

/// The lines the harness prints as it goes.
enum ConsoleFormat {
    /// `[2/6] killed    retry-on-400  14.2s (build 11.0s, tests 3.2s)  by Suite/test()`
    static func line(for result: MutantResult, index: Int, of total: Int) -> String {
        let status = result.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        let position = String(index).leftPadded(to: String(total).count)
        var line = String(format: "[%@/%d] %@ %@  %.1fs (build %.1fs, tests %.1fs)", position, total, status, result.name,
                          result.buildSeconds + result.testSeconds, result.buildSeconds, result.testSeconds)
        if let test = result.killedBy.first {
            line += "  by \(test)" + (result.killedBy.count > 1 ? " (+\(result.killedBy.count - 1) more)" : "")
        } else if result.status == .survived {
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
    /// The gate's verdict in words: PASSED or FAILED, and why.
    static func verdict(_ report: LabReport) -> String {
        let counts = report.count
        let score = report.score.map { String(format: "%.1f%%", $0) } ?? "n/a"
        switch HarnessExitCode.gate(report) {
        case .survived:
            let survivors = report.mutants.filter { $0.status == .survived }.map(\.name)
            return "Gate FAILED: \(survivors.count) mutant(s) survived (\(survivors.joined(separator: ", "))); score \(score) is under the threshold \(report.threshold)%. Add a test that fails on each, never weaken the mutant."
        case .brokenMutant:
            let broken = report.mutants.filter { [.stale, .unviable, .error].contains($0.status) }.map { "\($0.name) \($0.status.rawValue)" }
            return "Gate FAILED: \(broken.joined(separator: ", ")): a mutant that no longer applies, compiles or runs is a defect to fix (`mutate check`, then re-record it)."
        default:
            let detected = (counts[.killed] ?? 0) + (counts[.timeout] ?? 0)
            return "Gate PASSED: \(detected) of \(detected + (counts[.survived] ?? 0)) mutants detected; score \(score) meets the threshold \(report.threshold)%."
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
