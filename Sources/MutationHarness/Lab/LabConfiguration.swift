import Foundation

/// Everything one harness run needs.
public struct LabConfiguration: Sendable {
    /// The package to mutate.
    public var packagePath: URL
    /// Where the `.patch` files are.
    public var mutantsPath: URL
    /// Where reports and logs go.
    public var outputPath: URL
    /// Where the kept scratch copy lives.
    public var scratchPath: URL
    /// Score (percent) below which the gate fails.
    public var threshold = 100
    /// Test time limit per mutant: the tests' time x multiplier + constant
    /// (the baseline's for the whole suite, covering tests' time alone).
    public var timeoutMultiplier = 3.0
    public var timeoutConstant = 30.0
    /// An explicit test time limit in seconds, replacing the formula (and
    /// the stall rule below).
    public var fixedTimeout: Double?
    /// A run of chosen tests in which tests are running and none has
    /// started or ended for the longest of their times alone x
    /// `timeoutMultiplier` + this many seconds has stalled: it stops there,
    /// a timeout, instead of waiting for the run's whole limit.
    public var stallConstant = 10.0
    /// Whether to wait for another run's lock on the scratch copy (`--wait`)
    /// instead of refusing at once.
    public var waitForLock = false
    /// Build the copy and stop before the tests (`explore --list`).
    public var buildOnly = false
    /// The `swift` executable.
    public var swift = "swift"
    /// Label of the shard (`2/3`), if any.
    public var shard: String?
    /// `MUTATE_TEST_PAUSE`: a phase at which the run waits so a test can
    /// interrupt it there (the phases and the `-deaf` variant:
    /// `Lab.pause(at:)`).
    public var pausePhase: String?
    /// Whether a mutant's tests stop at the first failing Swift Testing
    /// test (one failure calls it killed). `--all-tests` lets every chosen
    /// test run, so the report lists all the tests that kill a mutant.
    public var stopAtFirstFailure = true
    /// Whether the build is instrumented and a coverage pass after the
    /// baseline chooses each mutant's tests (`--no-coverage` turns it off:
    /// the whole suite for every mutant, the reference).
    public var coverage = true
    /// Whether mutants are built together in one schema, each behind a
    /// switch (`--no-schema`: each one built on its own, the reference).
    /// The gate's named mutants need the coverage pass for it.
    public var schema = true
    /// Whether `explore`'s switch pass also narrows the tests of the
    /// mutants the coverage map places to those that ran their own switch
    /// (`--no-narrowing`: the map's tests, by function; the reference).
    public var narrowing = true
    /// Whether this run happens on CI (for the JSON report).
    public var isCI = false
    /// Where CI publishes report.html (`MUTATE_REPORT_URL`), linked from summary.md.
    public var reportURL: String?
    /// Mutants of a schema tested at once: they need no build, so each is
    /// only a test process (`--jobs`; the command's default is one per
    /// core). The coverage pass runs twice as many tests at once. Mutants
    /// built on their own run one at a time.
    public var jobs = 1
    /// Test processes that may start beside `jobs` (and beside the coverage
    /// and switch passes' tests) while a core is idle: where the machine's
    /// processor time can be read (Linux, outside a container's cap), each
    /// starts only when one core's worth of it went unused over the last
    /// half second (`SpareCores`). The command gives 3 x `jobs` unless
    /// `--jobs` was given, which it keeps exact.
    public var spareJobs = 0

    public init(packagePath: URL, mutantsPath: URL? = nil, outputPath: URL? = nil, scratchPath: URL? = nil) {
        self.packagePath = packagePath.standardizedFileURL
        self.mutantsPath = (mutantsPath ?? packagePath.appendingPathComponent("mutants")).standardizedFileURL
        self.outputPath = (outputPath ?? packagePath.appendingPathComponent(".build/mutation-report")).standardizedFileURL
        self.scratchPath = (scratchPath ?? Self.defaultScratch(for: packagePath)).standardizedFileURL
    }

    /// `PACKAGE/.build/mutate/scratch`.
    public static func defaultScratch(for package: URL) -> URL {
        package.appendingPathComponent(".build/mutate/scratch").standardizedFileURL
    }

    /// The per-mutant test limit for a baseline that took `seconds`.
    public func testTimeout(baselineSeconds seconds: Double) -> Double {
        fixedTimeout ?? (seconds * timeoutMultiplier + timeoutConstant)
    }

    /// How long a run may go with this test running and no test starting
    /// or ending, for a test that took `seconds` alone (not used with `fixedTimeout`).
    func stallAllowance(aloneSeconds seconds: Double) -> Double {
        seconds * timeoutMultiplier + stallConstant
    }
}
