/// What happened to one mutant (docs/mutants.md).
public enum MutantStatus: String, Codable, Sendable, CaseIterable {
    /// A test failed: the suite catches the bug.
    case killed
    /// The tests ran past the time limit: counted as killed, shown apart.
    case timeout
    /// Every test passed: the suite would miss the bug.
    case survived
    /// No test runs the code it changes (the coverage pass says so): the
    /// suite would miss it, and no test had to run to know. Counts against
    /// the score like a survivor.
    case noCoverage
    /// The mutated package does not compile: the mutant needs fixing.
    case unviable
    /// The patch no longer applies to today's source: the mutant needs updating.
    case stale
    /// The run said nothing usable (no test ran).
    case error
    /// Not run yet (in a report written mid-run).
    case pending
    /// A generated mutant listed in `mutants/explore-ignore`: not run, never counted.
    case ignored

    /// Counted as detected in the score.
    public var isDetected: Bool { self == .killed || self == .timeout }
    /// Counted as missed in the score.
    public var isUndetected: Bool { self == .survived || self == .noCoverage }
}

/// The outcome of one mutant with everything a report shows.
public struct MutantResult: Codable, Equatable, Sendable {
    public var name: String
    public var description: String
    public var bug: String?
    public var status: MutantStatus
    /// Ids (`Module.Type/test`) of the tests that failed.
    public var killedBy: [String]
    /// The first failure message, or why the mutant is stale, unviable or an error.
    public var reason: String?
    /// After a crash: the baseline's tests that never reported (they did not
    /// run, or were cut short), listed apart from the test that crashed.
    public var notRun: [String]?
    public var buildSeconds: Double
    public var testSeconds: Double
    /// The patch's files and the first hunk's changed lines, for reports.
    public var files: [String]
    public var firstLine: Int
    public var lastLine: Int
    public var diff: String
    public var replacement: String
    /// `logs/<name>.log` inside the output folder.
    public var log: String
    /// The tests that run the code it changes, as the coverage pass found
    /// them (fastest first); nil when it ran the whole suite.
    public var coveredBy: [String]?

    public init(
        name: String, description: String, bug: String?, status: MutantStatus, killedBy: [String] = [], reason: String? = nil,
        buildSeconds: Double = 0, testSeconds: Double = 0, files: [String], firstLine: Int, lastLine: Int, diff: String,
        replacement: String, log: String
    ) {
        self.name = name
        self.description = description
        self.bug = bug
        self.status = status
        self.killedBy = killedBy
        self.reason = reason
        self.buildSeconds = buildSeconds
        self.testSeconds = testSeconds
        self.files = files
        self.firstLine = firstLine
        self.lastLine = lastLine
        self.diff = diff
        self.replacement = replacement
        self.log = log
    }

    /// A not-yet-run result for `mutant`.
    public init(pending mutant: Mutant) {
        let firstHunk = mutant.diff.files.first?.hunks.first
        let lines = firstHunk?.changedOldLines ?? 1...1
        self.init(
            name: mutant.name, description: mutant.description, bug: mutant.bug, status: .pending,
            files: mutant.diff.files.map(\.path), firstLine: lines.lowerBound, lastLine: lines.upperBound,
            diff: mutant.diffText,
            replacement: mutant.diff.files.flatMap(\.hunks).flatMap { hunk in
                hunk.lines.compactMap { if case .added(let text) = $0 { text } else { nil } }
            }.joined(separator: "\n"),
            log: "logs/\(mutant.name).log"
        )
    }
}

/// A whole run: baseline figures and every mutant's result.
public struct LabReport: Codable, Equatable, Sendable {
    public var packagePath: String
    public var threshold: Int
    public var setupSeconds: Double
    public var baselineBuildSeconds: Double
    public var baselineTestSeconds: Double
    public var testTimeoutSeconds: Double
    /// Every test of the baseline run, by id.
    public var tests: [String]
    public var mutants: [MutantResult]
    public var shard: String?
    /// The package's commit (`git rev-parse --short HEAD`), when it is a git work tree.
    public var commit: String?
    /// When the run started (ISO 8601).
    public var startedAt: String?
    /// `swift --version`'s first line.
    public var toolchain: String?
    /// Where each test of `tests` is declared, when it could be found.
    public var testLocations: [String: TestLocation]?
    /// Seconds the coverage pass took; nil when there was none.
    public var coverageSeconds: Double?
    /// What `explore --incremental` reused and checked; nil without it.
    public var incremental: IncrementalSummary?
    /// `explore --pr-gate`: the pull request's rules and how they came out.
    public var pullRequest: PullRequestGate?

    public var count: [MutantStatus: Int] {
        Dictionary(grouping: mutants, by: \.status).mapValues(\.count)
    }

    /// (killed + timeout) / (killed + timeout + survived + noCoverage), in
    /// percent (mutation-testing-elements' mutation score); nil when no
    /// mutant reached a verdict that counts.
    public var score: Double? {
        let detected = mutants.filter { $0.status.isDetected }.count
        let survived = mutants.filter { $0.status.isUndetected }.count
        guard detected + survived > 0 else { return nil }
        return Double(detected) * 100 / Double(detected + survived)
    }

    public var mutationSeconds: Double { mutants.reduce(0) { $0 + $1.buildSeconds + $1.testSeconds } }
}
