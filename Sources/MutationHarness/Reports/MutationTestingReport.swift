import Foundation

/// `report.json` in the mutation-testing-elements schema, version 2, so
/// existing viewers (Stryker's dashboard, the HTML elements) render it.
public struct MutationTestingReport: Codable, Equatable, Sendable {
    public struct Position: Codable, Equatable, Sendable { public var line: Int; public var column: Int }
    public struct Location: Codable, Equatable, Sendable { public var start: Position; public var end: Position }
    public struct MutantEntry: Codable, Equatable, Sendable {
        public var id: String
        public var mutatorName: String
        public var description: String
        public var replacement: String
        public var location: Location
        public var status: String
        public var statusReason: String?
        public var killedBy: [String]?
        public var duration: Double?
        public var testsCompleted: Int?
    }
    public struct FileEntry: Codable, Equatable, Sendable {
        public var language: String
        public var source: String
        public var mutants: [MutantEntry]
    }
    public struct OpenEndLocation: Codable, Equatable, Sendable { public var start: Position }
    public struct TestDefinition: Codable, Equatable, Sendable {
        public var id: String
        public var name: String
        public var location: OpenEndLocation?
    }
    public struct TestFile: Codable, Equatable, Sendable { public var tests: [TestDefinition] }
    public struct Thresholds: Codable, Equatable, Sendable { public var high: Int; public var low: Int }
    public struct Performance: Codable, Equatable, Sendable { public var setup: Double; public var initialRun: Double; public var mutation: Double }
    public struct Framework: Codable, Equatable, Sendable { public var name: String; public var version: String }
    public struct System: Codable, Equatable, Sendable { public var ci: Bool }

    public var schemaVersion = "2"
    public var thresholds: Thresholds
    public var projectRoot: String
    public var files: [String: FileEntry]
    public var testFiles: [String: TestFile]
    public var performance: Performance
    public var framework: Framework
    public var system: System

    /// The schema's statuses for ours: stale is `Ignored`, unviable is
    /// `CompileError`, a run with no test is `RuntimeError`.
    public static func status(_ status: MutantStatus) -> String {
        switch status {
        case .killed: "Killed"
        case .timeout: "Timeout"
        case .survived: "Survived"
        case .unviable: "CompileError"
        case .stale: "Ignored"
        case .error: "RuntimeError"
        case .pending: "Pending"
        case .ignored: "Ignored"
        }
    }

    public init(_ report: LabReport, readSource: (String) -> String?, isCI: Bool) {
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
            if files[path] == nil {
                files[path] = FileEntry(language: path.hasSuffix(".swift") ? "swift" : "text", source: readSource(path) ?? "", mutants: [])
            }
            let sourceLines = files[path]!.source.split(separator: "\n", omittingEmptySubsequences: false)
            let lastLine = min(max(result.lastLine, 1), max(sourceLines.count, 1))
            let endColumn = (sourceLines.indices.contains(lastLine - 1) ? sourceLines[lastLine - 1].count : 0) + 1
            let others = result.files.dropFirst()
            files[path]!.mutants.append(MutantEntry(
                id: result.name,
                mutatorName: result.name,
                description: result.description + (others.isEmpty ? "" : " (also changes \(others.joined(separator: ", ")))"),
                replacement: result.replacement,
                location: Location(start: Position(line: min(max(result.firstLine, 1), lastLine), column: 1),
                                   end: Position(line: lastLine, column: max(endColumn, 1))),
                status: Self.status(result.status),
                statusReason: result.reason,
                killedBy: result.killedBy.isEmpty ? nil : result.killedBy,
                duration: result.status == .pending ? nil : (result.buildSeconds + result.testSeconds) * 1000,
                testsCompleted: nil
            ))
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
public enum HarnessInfo {
    public static let version = "1.0.0"
}
