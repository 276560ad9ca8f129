import Foundation

/// `report.json` in the mutation-testing-elements schema, version 2, so
/// existing viewers (Stryker's dashboard, the HTML elements) render it.
struct MutationTestingReport: Codable, Equatable, Sendable {
    struct Position: Codable, Equatable, Sendable { var line: Int; var column: Int }
    struct Location: Codable, Equatable, Sendable { var start: Position; var end: Position }
    struct MutantEntry: Codable, Equatable, Sendable {
        var id: String
        var mutatorName: String
        var description: String
        var replacement: String
        var location: Location
        var status: String
        var statusReason: String?
        var killedBy: [String]?
        var coveredBy: [String]?
        var duration: Double?
        var testsCompleted: Int?
    }
    struct FileEntry: Codable, Equatable, Sendable {
        var language: String
        var source: String
        var mutants: [MutantEntry]
    }
    struct OpenEndLocation: Codable, Equatable, Sendable { var start: Position }
    struct TestDefinition: Codable, Equatable, Sendable {
        var id: String
        var name: String
        var location: OpenEndLocation?
    }
    struct TestFile: Codable, Equatable, Sendable { var tests: [TestDefinition] }
    struct Thresholds: Codable, Equatable, Sendable { var high: Int; var low: Int }
    struct Performance: Codable, Equatable, Sendable { var setup: Double; var initialRun: Double; var mutation: Double }
    struct Framework: Codable, Equatable, Sendable { var name: String; var version: String }
    struct System: Codable, Equatable, Sendable { var ci: Bool }

    var schemaVersion = "2"
    var thresholds: Thresholds
    var projectRoot: String
    var files: [String: FileEntry]
    var testFiles: [String: TestFile]
    var performance: Performance
    var framework: Framework
    var system: System

    /// The schema's statuses for ours: stale is `Ignored`, unviable is
    /// `CompileError`, a run with no test is `RuntimeError`.
    static func status(_ status: MutantStatus) -> String {
        switch status {
        case .killed: "Killed"
        case .timeout: "Timeout"
        case .survived: "Survived"
        case .noCoverage: "NoCoverage"
        case .unviable: "CompileError"
        case .stale: "Ignored"
        case .error: "RuntimeError"
        case .pending: "Pending"
        case .ignored: "Ignored"
        }
    }

    init(_ report: LabReport, readSource: (String) -> String?, isCI: Bool) {
        thresholds = Thresholds(high: report.threshold, low: min(report.threshold, 60))
        projectRoot = report.packagePath
        performance = Performance(setup: report.setupSeconds * 1000,
                                  initialRun: (report.baselineBuildSeconds + report.baselineTestSeconds) * 1000,
                                  mutation: report.mutationSeconds * 1000)
        framework = Framework(name: "mutate", version: HarnessInfo.version)
        system = System(ci: isCI)
        var files: [String: FileEntry] = [:]
        for result in report.mutants {
            let path = result.files.first ?? "unknown"
            var entry = files[path]
                ?? FileEntry(language: path.hasSuffix(".swift") ? "swift" : "text", source: readSource(path) ?? "", mutants: [])
            let sourceLines = entry.source.split(separator: "\n", omittingEmptySubsequences: false)
            let lastLine = min(max(result.lastLine, 1), max(sourceLines.count, 1))
            let endColumn = (sourceLines.indices.contains(lastLine - 1) ? sourceLines[lastLine - 1].count : 0) + 1
            let others = result.files.dropFirst()
            entry.mutants.append(MutantEntry(
                id: result.name,
                mutatorName: result.name,
                description: result.description + (others.isEmpty ? "" : " (also changes \(others.joined(separator: ", ")))"),
                replacement: result.replacement,
                location: Location(start: Position(line: min(max(result.firstLine, 1), lastLine), column: 1),
                                   end: Position(line: lastLine, column: max(endColumn, 1))),
                status: Self.status(result.status),
                statusReason: result.reason,
                killedBy: result.killedBy.isEmpty ? nil : result.killedBy,
                coveredBy: result.coveredBy,
                duration: result.status == .pending ? nil : (result.buildSeconds + result.testSeconds) * 1000,
                testsCompleted: nil
            ))
            files[path] = entry
        }
        self.files = files
        // Keyed by the file that declares the test (relative to the package);
        // a test whose file could not be found is grouped under its suite.
        var testFiles: [String: TestFile] = [:]
        for id in report.tests {
            let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
            let located = report.testLocations?[id]
            let file = located?.file ?? (parts.count == 2 ? parts[0] : "tests")
            let location = located.map { OpenEndLocation(start: Position(line: $0.line, column: 1)) }
            testFiles[file, default: TestFile(tests: [])].tests.append(TestDefinition(id: id, name: parts.last ?? id, location: location))
        }
        self.testFiles = testFiles
    }
}

/// The harness's own name and version.
enum HarnessInfo {
    static let version = "1.0.0"
}
