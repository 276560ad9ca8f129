import Foundation

/// Writes every report into the output folder. Called before the first
/// mutant, every 15 s while mutants run, after the last, and on the way
/// out of a run that stops, so a stopped run still leaves what it learned.
public enum ReportWriter {
    public static let resultsFile = "results.json"

    /// `reportURL`: where report.html will be found (`MUTATE_REPORT_URL`), for summary.md's link.
    public static func write(_ report: LabReport, to folder: URL, packagePath: URL, isCI: Bool, reportURL: String? = nil) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = MutationTestingReport(report, readSource: { path in
            try? String(contentsOf: packagePath.appendingPathComponent(path), encoding: .utf8)
        }, isCI: isCI)
        try encoder.encode(json).write(to: folder.appendingPathComponent("report.json"), options: .atomic)
        try encoder.encode(report).write(to: folder.appendingPathComponent(resultsFile), options: .atomic)
        try Data(MarkdownReport.render(report).utf8).write(to: folder.appendingPathComponent("report.md"), options: .atomic)
        try Data(SummaryReport.render(report, reportURL: reportURL).utf8).write(to: folder.appendingPathComponent("summary.md"), options: .atomic)
        try Data(JUnitReport.render(report).utf8).write(to: folder.appendingPathComponent("junit.xml"), options: .atomic)
        let html = HTMLReport.render(report, readSource: { path in
            try? String(contentsOf: packagePath.appendingPathComponent(path), encoding: .utf8)
        })
        try Data(html.utf8).write(to: folder.appendingPathComponent("report.html"), options: .atomic)
        // cargo-mutants' lists, one mutant name per line, for scripts.
        let lists: [(String, (MutantStatus) -> Bool)] = [
            ("caught.txt", { $0 == .killed }), ("timeout.txt", { $0 == .timeout }), ("missed.txt", { $0 == .survived }),
            ("uncovered.txt", { $0 == .noCoverage }),
            ("unviable.txt", { $0 == .unviable || $0 == .stale }),
        ]
        for (name, matches) in lists {
            let names = report.mutants.filter { matches($0.status) }.map(\.name)
            try Data(names.map { $0 + "\n" }.joined().utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
        }
    }

    /// Reads the `results.json` of an earlier run (for `mutate merge`).
    public static func read(from folder: URL) throws -> LabReport {
        try JSONDecoder().decode(LabReport.self, from: Data(contentsOf: folder.appendingPathComponent(resultsFile)))
    }
}
