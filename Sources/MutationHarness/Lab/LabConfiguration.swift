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
    /// Test time limit per mutant: baseline test time x multiplier + constant.
    public var timeoutMultiplier = 3.0
    public var timeoutConstant = 30.0
    /// An explicit test time limit in seconds, replacing the formula.
    public var fixedTimeout: Double?
    /// The `swift` executable.
    public var swift = "swift"
    /// Label of the shard (`2/3`), if any.
    public var shard: String?
    /// Whether this run happens on CI (for the JSON report).
    public var isCI = ProcessInfo.processInfo.environment["CI"] != nil

    public init(packagePath: URL, mutantsPath: URL? = nil, outputPath: URL? = nil, scratchPath: URL? = nil) {
        self.packagePath = packagePath.standardizedFileURL
        self.mutantsPath = (mutantsPath ?? packagePath.appendingPathComponent("mutants")).standardizedFileURL
        self.outputPath = (outputPath ?? packagePath.appendingPathComponent(".build/mutation-report")).standardizedFileURL
        self.scratchPath = (scratchPath ?? packagePath.appendingPathComponent(".build/mutate/scratch")).standardizedFileURL
    }

    /// The per-mutant test limit for a baseline that took `seconds`.
    public func testTimeout(baselineSeconds seconds: Double) -> Double {
        fixedTimeout ?? (seconds * timeoutMultiplier + timeoutConstant)
    }
}
