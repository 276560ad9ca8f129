import Foundation

/// The parsed command line.
enum HarnessCommand: Equatable {
    case run(RunOptions)
    case list(CommonOptions, mutants: [String])
    case check(CommonOptions)
    case rebase(CommonOptions, mutants: [String], dryRun: Bool)
    case record(RecordOptions)
    case merge(output: String, inputs: [String], threshold: Int?)
    case explore(ExploreOptions)
    case promote(PromoteOptions)
    /// Help for one sub-command, or (nil) the overview.
    case help(String?)
    case version
}

/// Options every sub-command that reads mutants shares.
struct CommonOptions: Equatable {
    var packagePath = "."
    var mutantsPath: String?
}

struct RunOptions: Equatable {
    var common = CommonOptions()
    var outputPath: String?
    var scratchPath: String?
    var mutants: [String] = []
    var threshold = 100
    var timeoutMultiplier = 3.0
    var timeout: Double?
    var shard: Shard?
    var wait = false
    /// `--all-tests`: every chosen test runs to the end, so the report names
    /// every test that kills each mutant (the matrix), not just the first.
    var allTests = false
    /// `--no-coverage`: no coverage pass; every mutant runs the whole suite
    /// (the reference the selection is checked against).
    var coverage = true
    /// `--no-schema`: every mutant is built on its own (slower; the
    /// reference the schema is checked against).
    var schema = true
    /// `--jobs N`: schema mutants tested at once (nil: one per core).
    var jobs: Int?
    /// `--incremental FILE`: verdicts kept there by key and reused while the
    /// key holds (the gate's named mutants, or explore's generated ones).
    var incremental: String?
    /// `--verify-reused N`: reused verdicts re-run to check the file.
    var verifyReused = RunOptions.defaultVerifyReused

    static let defaultVerifyReused = 3
}

/// `mutate explore [PATH...]`.
struct ExploreOptions: Equatable {
    var run = RunOptions()
    /// Folders or files to mutate, relative to the package (default `Sources`).
    var paths: [String] = []
    var list = false
    /// With `list`: one JSON object per mutant instead of a line of text.
    var json = false
    var inDiff: String?
    /// Only with `--threshold`: explore gates like a run; without, it reports.
    var gates = false
    /// `--sample N`: only the N mutants whose ids sort first. Ids are hashes
    /// of the mutation, so this is a fixed, reproducible sample.
    var sample: Int?
    /// `--id ID` (repeatable): only these generated mutants, such as the
    /// survivors of the last run once tests for them are written.
    var ids: [String] = []
    /// `--pr-gate REF`: gate a pull request on the lines changed since its
    /// merge base with REF and on the base's recorded score.
    var prGate: String?
    /// `--no-narrowing`: each mutant the coverage map places runs the
    /// map's tests (by function), not only those that ran its switch (the
    /// reference the switch pass is checked against).
    var narrowing = true
}

/// `mutate promote ID NAME --description TEXT [PATH...]`.
struct PromoteOptions: Equatable {
    var run = RunOptions()
    var id: String
    var name: String
    var description: String
    var paths: [String] = []
}

struct RecordOptions: Equatable {
    var common = CommonOptions()
    var name: String
    var description: String
    var bug: String?
    /// `--killed-by`: the tests that kill it (its `Killed-By:` header).
    var killedBy: [String] = []
    /// Record only these paths (relative to the package); empty: every change under Sources/.
    var paths: [String] = []
    var dryRun = false
}
