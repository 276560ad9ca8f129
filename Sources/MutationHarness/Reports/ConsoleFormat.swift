import Foundation

/// The lines the harness prints as it goes.
public enum ConsoleFormat {
    /// `[2/6] killed    retry-on-400  14.2s (build 11.0s, tests 3.2s)  by Suite/test()`
    public static func line(for result: MutantResult, index: Int, of total: Int) -> String {
        let status = result.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        let position = String(index).leftPadded(to: String(total).count)
        var line = String(format: "[%@/%d] %@ %@  %.1fs (build %.1fs, tests %.1fs)", position, total, status, result.name,
                          result.buildSeconds + result.testSeconds, result.buildSeconds, result.testSeconds)
        if let test = result.killedBy.first {
            line += "  by \(test)" + (result.killedBy.count > 1 ? " (+\(result.killedBy.count - 1) more)" : "")
        } else if result.status != .killed, result.status != .survived, let reason = result.reason {
            line += "  \(reason)"
        }
        return line
    }

    /// The closing lines: counts and the score against the threshold.
    public static func summary(_ report: LabReport) -> String {
        let counts = MutantStatus.allCases.filter { $0 != .pending }.compactMap { status -> String? in
            guard let count = report.count[status], count > 0 else { return nil }
            return "\(count) \(status.rawValue)"
        }.joined(separator: ", ")
        let score = report.score.map { String(format: "%.1f%%", $0) } ?? "n/a"
        return "Mutants: \(counts.isEmpty ? "none" : counts)\nScore: \(score) (threshold \(report.threshold)%)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
