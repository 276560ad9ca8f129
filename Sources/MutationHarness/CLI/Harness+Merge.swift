import Foundation

/// `mutate merge`: the shards' reports joined and gated as one.
extension Harness {
    func merge(output: String, inputs: [String], threshold: Int?) -> HarnessExitCode {
        var reports: [(folder: String, report: LabReport)] = []
        for input in inputs {
            do {
                reports.append((input, try ReportWriter.read(from: resolve(input))))
            } catch {
                return fail(.usage, "cannot read \(resolve(input).path)/\(ReportWriter.resultsFile): \(error.localizedDescription)")
            }
        }
        let merged: LabReport
        switch ReportMerger.merge(reports, threshold: threshold) {
        case .success(let report): merged = report
        case .failure(let refusal): return fail(.usage, refusal.message)
        }
        do {
            try ReportWriter.write(merged, to: resolve(output), packagePath: URL(fileURLWithPath: merged.packagePath),
                                   isCI: environment.isCI)
            try ReportMerger.copyLogs(from: inputs.map(resolve), to: resolve(output))
        } catch {
            return fail(.usage, "cannot write \(resolve(output).path): \(error.localizedDescription)")
        }
        print(ConsoleFormat.summary(merged))
        print(ConsoleFormat.verdict(merged))
        return HarnessExitCode.gate(merged)
    }
}
