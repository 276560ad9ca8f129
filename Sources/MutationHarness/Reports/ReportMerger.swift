import Foundation

/// `mutate merge`: the reports of every shard of one split, as one report
/// the gate judges, with each shard's logs beside it.
enum ReportMerger {
    /// The merged report; a message naming what is wrong when the reports
    /// are not every shard of one split, each once, or share a mutant.
    /// `threshold` nil: the highest of the shards'.
    static func merge(_ reports: [(folder: String, report: LabReport)], threshold: Int?) -> Result<LabReport, MergeRefusal> {
        if let problem = Shard.problem(merging: reports.map { ($0.folder, $0.report.shard) }) { return .failure(MergeRefusal(message: problem)) }
        let reports = reports.map(\.report)
        var merged = reports[0]
        merged.shard = nil
        merged.threshold = threshold ?? reports.map(\.threshold).max() ?? 100
        merged.mutants = reports.flatMap(\.mutants).sorted { $0.name < $1.name }
        merged.tests = Array(Set(reports.flatMap(\.tests))).sorted()
        merged.testLocations = reports.reduce(into: [String: TestLocation]()) { all, report in
            all.merge(report.testLocations ?? [:]) { current, _ in current }
        }
        merged.setupSeconds = reports.map(\.setupSeconds).reduce(0, +)
        merged.coverageSeconds = reports.compactMap(\.coverageSeconds).reduce(nil) { ($0 ?? 0) + $1 }
        merged.baselineBuildSeconds = reports.map(\.baselineBuildSeconds).reduce(0, max)
        merged.baselineTestSeconds = reports.map(\.baselineTestSeconds).reduce(0, max)
        let names = merged.mutants.map(\.name)
        guard Set(names).count == names.count else {
            return .failure(MergeRefusal(message: "the shard reports overlap: a mutant appears in more than one"))
        }
        return .success(merged)
    }

    /// Copies each shard's `logs/` into `output/logs`, so the merged
    /// report's links work.
    static func copyLogs(from inputs: [URL], to output: URL) throws {
        let logs = output.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        for input in inputs {
            let shardLogs = input.appendingPathComponent("logs")
            for file in (try? FileManager.default.contentsOfDirectory(atPath: shardLogs.path)) ?? [] {
                let target = logs.appendingPathComponent(file)
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: shardLogs.appendingPathComponent(file), to: target)
            }
        }
    }
}

/// Why shard reports cannot be merged.
struct MergeRefusal: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
