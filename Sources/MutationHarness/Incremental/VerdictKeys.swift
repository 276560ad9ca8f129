/// The key a generated mutant's verdict is kept under by `--incremental`:
/// a digest of everything that decides the verdict, as far as the harness
/// can know it. A verdict is reused only while its key is the same.
///
/// - What decides any verdict (`common`): the toolchain, the harness, and
///   the options that change a verdict (time limits, coverage, whether
///   tests stop at the first failure).
/// - The mutant: its patch, and the bytes of every file it changes.
/// - The tests that run it (the coverage pass, made afresh whenever the
///   package changed) and what they reach: every file holding a function
///   one of them ran, the tests' own files among them.
/// - Every file no function of the coverage map is in (manifests,
///   resources, fixtures, files of declarations only): a test may read
///   them without running a line of them, so they are in every key.
/// - A mutant the map cannot place (`unknown`) or a run without coverage
///   runs the whole suite: its key holds the whole package.
///
/// A killed verdict also holds while the test that killed it, and what that
/// test reaches, are unchanged (`killKey`): that test alone decides it.
///
/// What the key cannot see: a constant of a file that no test's function
/// is in but which the compiler inlines elsewhere, or code a mutant makes
/// the tests run that the original did not. `--verify-reused` samples
/// reused verdicts against a fresh run for exactly that.
struct VerdictKeys {
    /// The package's files, by path: their digests (`ScratchWorkspace.fileDigests`).
    let files: [String: String]
    /// Digest of the toolchain, the harness and the verdict-deciding options.
    let common: String
    let coverage: CoverageMap?
    /// Digest of the whole package (`tree`), for mutants that run the whole suite.
    let tree: String
    /// Digest of the files no function of the map is in.
    private let unattributed: String
    /// Each test's reached files.
    private let reachedFiles: [String: Set<String>]

    init(files: [String: String], common: String, coverage: CoverageMap?) {
        self.files = files
        self.common = common
        self.coverage = coverage
        tree = Self.tree(files)
        let mapped = Set(coverage?.functions.map(\.file) ?? [])
        unattributed = Self.digest(of: files.keys.filter { !mapped.contains($0) }, in: files)
        var reachedFiles: [String: Set<String>] = [:]
        for (test, indices) in coverage?.reached ?? [:] {
            reachedFiles[test] = Set(indices.compactMap { coverage?.functions[$0].file })
        }
        self.reachedFiles = reachedFiles
    }

    /// The digest of a whole package: every path and its digest.
    static func tree(_ files: [String: String]) -> String {
        SHA256.hex(files.keys.sorted().map { "\($0)\u{0}\(files[$0] ?? "")\n" }.joined())
    }

    /// What decides every verdict besides the mutant and its tests.
    static func common(toolchain: String?, harness: String, configuration: LabConfiguration) -> String {
        SHA256.hex([
            "toolchain \(toolchain ?? "unknown")", "harness \(harness)", "coverage \(configuration.coverage)",
            "timeout \(configuration.fixedTimeout.map { "\($0)" } ?? "none") x\(configuration.timeoutMultiplier) +\(configuration.timeoutConstant)",
            "stall +\(configuration.stallConstant)", "first failure \(configuration.stopAtFirstFailure)",
        ].joined(separator: "\n"))
    }

    /// The key of `mutant` given what the coverage map says of it (nil:
    /// no coverage pass).
    func key(for mutant: Mutant, reach: CoverageMap.Reach?) -> String {
        var parts = ["common \(common)", "patch \(SHA256.hex(mutant.diffText))"]
        let changed = mutant.diff.files.map(\.path)
        parts.append("files " + Self.digest(of: changed, in: files))
        switch reach {
        case .tests(let tests)?:
            let reached = tests.reduce(into: Set<String>()) { $0.formUnion(reachedFiles[$1] ?? []) }
            parts += ["tests " + tests.sorted().joined(separator: ","), "reached " + Self.digest(of: Array(reached), in: files),
                      "unattributed \(unattributed)"]
        case .noTest?:
            // The pass is made afresh for a changed package: a new test that
            // reaches the code makes this `.tests`, another key.
            parts += ["no test", "unattributed \(unattributed)"]
        case .unknown?, nil:
            parts.append("whole suite \(tree)")
        }
        return SHA256.hex(parts.joined(separator: "\n"))
    }

    /// The key a killed verdict also holds under: the mutant, its files, the
    /// test that killed it and the files that test reaches. While they are
    /// the same, that test still fails on the mutant, whatever else changed
    /// (a mutant run by the whole suite included). Nil when the map does not
    /// know the test.
    func killKey(for mutant: Mutant, killer: String) -> String? {
        guard let reached = reachedFiles[killer] else { return nil }
        return SHA256.hex([
            "common \(common)", "patch \(SHA256.hex(mutant.diffText))", "files " + Self.digest(of: mutant.diff.files.map(\.path), in: files),
            "killed by \(killer)", "reached " + Self.digest(of: Array(reached), in: files), "unattributed \(unattributed)",
        ].joined(separator: "\n"))
    }

    /// One digest of the named files' paths and digests (a missing file counts as such).
    private static func digest(of paths: [String], in files: [String: String]) -> String {
        SHA256.hex(paths.sorted().map { "\($0)\u{0}\(files[$0] ?? "missing")\n" }.joined())
    }
}
