import Foundation

/// One `--incremental FILE` run (explore's, or the gate's: `named`): the
/// file as it was read, what this run found of the package, and what it
/// takes from the file and checks.
/// Shared by the lab and the command's mutant finder (a class: both fill it).
final class IncrementalRun: @unchecked Sendable {
    let file: URL
    /// The file's content before this run; nil when there was none.
    let previous: ResultsFile?
    /// How many reused verdicts are re-run to check the file (`--verify-reused`).
    let verifyCount: Int
    /// Draws the reused verdicts to check (tests give a seeded one).
    var random: any RandomNumberGenerator

    /// The copy's counted files after the sync, by path: their digests
    /// (`digests`: compiled Swift files by their code).
    var files: [String: String] = [:]
    /// The same files' digests of their bytes.
    var rawFiles: [String: String] = [:]
    var tree = ""
    /// `VerdictKeys.tree` of `rawFiles`.
    var bytesTree = ""
    var common = ""
    /// This run's key of each mutant, by name.
    var keys: [String: String] = [:]
    /// This run's keys (with its coverage map), for killed verdicts' `killKey`.
    var verdictKeys: VerdictKeys?
    /// Mutants whose verdict comes from the file, not run.
    var reused: Set<String> = []
    /// Reused verdicts re-run to check them: name -> the file's result.
    var verifying: [String: MutantResult] = [:]
    /// Whether the baseline and coverage map came from the file.
    var reusedBaseline = false
    /// The mutants found (or taken from the file) for the paths asked, before any selection.
    var explored: ResultsFile.Explored?
    var lastSave = Date()
    /// How often, in seconds, the file is rewritten while mutants run.
    var saveInterval: TimeInterval = 60
    /// Whether the file keeps the gate's named mutants (`ResultsFile.kind`).
    let named: Bool

    init(file: URL, previous: ResultsFile?, verifyCount: Int, named: Bool = false,
         random: any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.file = file
        self.named = named
        self.previous = previous
        self.verifyCount = verifyCount
        self.random = random
    }

    /// The package, toolchain, harness and options are those the file was written with.
    var unchanged: Bool { previous.map { $0.tree == tree && $0.common == common } ?? false }

    /// What makes the package not the file's, for the run's log: the files
    /// that changed (the first three named), or else the toolchain (now
    /// `toolchain`), the harness or the options (the file keeps only their digest).
    func whatChanged(toolchain: String?) -> String {
        guard let previous else { return "nothing was kept" }
        if previous.tree != tree {
            let before = previous.files ?? [:]
            let changed = Set(files.keys.filter { before[$0] != files[$0] }).union(before.keys.filter { files[$0] == nil }).sorted()
            guard !changed.isEmpty else { return "the package changed" }
            return "the package changed (\(changed.count) file(s): \(ConsoleFormat.firstThree(changed)))"
        }
        return "the toolchain (now \(toolchain ?? "unknown")), the harness or the options changed"
    }

    /// The paths `explore` reads (set by the command).
    var explorePaths: [String] = []
    /// The full commit a finished run records its score under: set by the
    /// command for a git work tree when the run reads every mutant of its
    /// paths (no sample, id, shard or `--in-diff`).
    var scoreCommit: String?

    /// Whether the package is the file's and the file holds its baseline and
    /// mutants: nothing needs building before the mutants' own build.
    var canSkipBaseline: Bool { previous?.baseline != nil && cachedExploration(paths: explorePaths) != nil }

    /// The mutants the file found in exactly `paths` of this same package,
    /// if any: byte for byte the same, since a mutant is a byte range (a
    /// comment added in place leaves the baseline and map good, not them).
    func cachedExploration(paths: [String]) -> ResultsFile.Explored? {
        guard unchanged, previous?.bytesTree == bytesTree, let explored = previous?.explored, explored.paths == paths,
              explored.anchorScheme == MutationFinder.anchorScheme
        else { return nil }
        return explored
    }

    /// What the file's coverage map says of tests that can have run no
    /// changed code: every function they ran is in a file whose bytes are
    /// the same. Nothing when the toolchain or options changed, or when a
    /// changed file holds no function of the map (a test may read it).
    func knownCoverage() -> CoveragePass.KnownCoverage {
        guard let previous, previous.common == common, let map = previous.coverage, let before = previous.files else { return .init() }
        let changed = Set(files.keys.filter { before[$0] != files[$0] }).union(before.keys.filter { files[$0] == nil })
        let mapped = Set(map.functions.map(\.file))
        guard changed.isSubset(of: mapped) else { return .init() }
        var tests: [String: (names: Set<String>, seconds: Double)] = [:]
        for (test, indices) in map.reached {
            guard indices.allSatisfy({ !changed.contains(map.functions[$0].file) }) else { continue }
            tests[test] = (Set(indices.map { map.functions[$0].name }), map.seconds[test] ?? 0)
        }
        return CoveragePass.KnownCoverage(tests: tests, changedFiles: changed, suiteOnly: map.suiteOnly)
    }

    /// The Swift files the package compiles into its targets (`swift package
    /// describe`'s sources): a comment in them changes no compiled code. A
    /// fixture or a manifest is not one; its comments may be what a test reads.
    static func compiledSwiftFiles(_ targets: [PackageTargets.Target]) -> Set<String> {
        Set(targets.flatMap { target in
            target.sources.filter { $0.hasSuffix(".swift") }.map { target.path.isEmpty ? $0 : target.path + "/" + $0 }
        })
    }

    /// The counted files' digests for the tree and the file: a compiled
    /// Swift file by its code (`SwiftSourceLines.codeDigest`: a comment
    /// reworded in place leaves the package as it was), any other by `raw`.
    static func digests(raw: [String: String], compiled: Set<String>, read: (String) -> [UInt8]?) -> [String: String] {
        var digests = raw
        for path in compiled where raw[path] != nil {
            if let bytes = read(path), let code = SwiftSourceLines.codeDigest(bytes) { digests[path] = "code " + code }
        }
        return digests
    }

    /// Whether a file of the package can change what a test does, so it
    /// counts in the keys: the manifests, and every file under `Sources/`,
    /// `Tests/` or a target's own folder (code, resources, fixtures). The
    /// rest (README, docs, scripts, CI files) is read by no build and, in
    /// SwiftPM's layout, by no test (a test reads its resources from its
    /// target's folder); README says so. A documentation catalog (`.docc`)
    /// is read by DocC only, so it does not count either.
    static func counts(_ path: String, targetPaths: [String]) -> Bool {
        if path.split(separator: "/").dropLast().contains(where: { $0.hasSuffix(".docc") }) { return false }
        let top = path.prefix { $0 != "/" }
        if top == path { return path.hasPrefix("Package") && (path.hasSuffix(".swift") || path == "Package.resolved") }
        return top == "Sources" || top == "Tests" || targetPaths.contains { !$0.isEmpty && path.hasPrefix($0 + "/") }
    }

    /// The top-level folders, besides `Sources/` and `Tests/`, that hold
    /// source code (Swift, C, C++, Objective-C): where a target declared
    /// with a path of its own may be, for a run that has no target list
    /// (the gate's). Each counts whole.
    static func sourceFolders(_ paths: [String]) -> [String] {
        let code: Set<String> = ["swift", "c", "h", "cc", "cpp", "cxx", "hpp", "m", "mm", "s", "S", "modulemap"]
        let folders = paths.compactMap { path -> String? in
            guard path.contains("/"), code.contains((path as NSString).pathExtension) else { return nil }
            return String(path.prefix { $0 != "/" })
        }
        return Set(folders).subtracting(["Sources", "Tests"]).sorted()
    }

    /// Whether a kept result is a verdict a later run may reuse (not one
    /// the run failed to reach).
    static func isReusable(_ status: MutantStatus) -> Bool {
        switch status {
        case .killed, .timeout, .survived, .noCoverage, .unviable: true
        case .stale, .error, .pending, .ignored: false
        }
    }

    /// Whether the file's `entry` holds for `mutant` under this run's keys:
    /// its key is the same, or it was killed and its killer's key is.
    static func holds(_ entry: ResultsFile.Entry, for mutant: Mutant, key: String, keys: VerdictKeys) -> Bool {
        guard isReusable(entry.result.status) else { return false }
        if entry.key == key { return true }
        guard entry.result.status == .killed, let stored = entry.killKey, let killer = entry.result.killedBy.first else { return false }
        return keys.killKey(for: mutant, killer: killer) == stored
    }

    /// Whether two verdicts mean the same for the score: killed and timeout
    /// are both detected, survived and noCoverage both missed; the rest must match.
    static func agree(_ a: MutantStatus, _ b: MutantStatus) -> Bool {
        if a.isDetected || b.isDetected { return a.isDetected == b.isDetected }
        if a.isUndetected || b.isUndetected { return a.isUndetected == b.isUndetected }
        return a == b
    }
}

/// What `--incremental` did in a run, for the reports.
public struct IncrementalSummary: Codable, Equatable, Sendable {
    /// The results file.
    public var file: String
    /// Verdicts taken from the file without running the mutant.
    public var reused: Int
    /// Reused verdicts re-run to check the file.
    public var verified: Int
    /// Mutants run because the file had no verdict for them under their key.
    public var ran: Int
    /// Checked verdicts that came out differently: `name: file's -> fresh`.
    /// Any makes the run fail and the file drop every reused verdict.
    public var disagreements: [String]
    /// Whether the baseline, the coverage map and the mutants found came
    /// from the file (the package had not changed).
    public var reusedBaseline: Bool
}
