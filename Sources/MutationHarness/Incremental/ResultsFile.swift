import Foundation

/// What `--incremental FILE` keeps between runs (of explore, or of the
/// gate): each mutant's verdict with the key it was reached under
/// (`VerdictKeys`), and, for a package that has not changed since, the
/// baseline, the coverage map and (explore's) the mutants found, so an
/// unchanged package runs neither its suite nor the coverage pass nor the
/// compiler's syntax tree again.
struct ResultsFile: Codable, Equatable {
    /// Names the format, so another JSON file given by mistake is refused.
    var format = Self.formatName
    var version = Self.currentVersion
    /// The `mutate` that wrote it.
    var harness: String
    /// The package's commit when it was written, when it is a git work tree.
    var commit: String?
    var savedAt: String
    /// `VerdictKeys.tree` of the package the baseline and map below were
    /// made of: its compiled Swift files by their code (`IncrementalRun.digests`).
    var tree: String
    /// `VerdictKeys.common` of that run (toolchain, harness, options that decide a verdict).
    var common: String
    var baseline: Baseline?
    var coverage: CoverageMap?
    var explored: Explored?
    /// By mutant name.
    var verdicts: [String: Entry]
    /// The counted files' digests the baseline and map were made of, by path.
    var files: [String: String]? = nil
    /// Finished runs' scores by full commit, for `--pr-gate` (see `RecordedScore`).
    var scores: [String: RecordedScore]? = nil
    /// `VerdictKeys.tree` of the counted files' bytes: the mutants found
    /// (`explored`, byte offsets into the files) hold only while it is the same.
    var bytesTree: String? = nil
    /// Generated mutants whose code did not type-check in a schema (they ran
    /// as patches), by id: the next run leaves them out of its schema from
    /// the first attempt. A hint for the build, never a verdict.
    var schemaMisfits: [String]? = nil
    /// Whose verdicts it keeps: `named` for the gate's named mutants; nil
    /// for explore's generated ones (every file written before the gate kept any).
    var kind: String? = nil

    static let namedKind = "named"
    /// Whether the file keeps the gate's verdicts, not explore's.
    var holdsNamedMutants: Bool { kind == Self.namedKind }

    static let formatName = "mutate-incremental-results"
    static let currentVersion = 1
    /// A results file larger than this is refused rather than read.
    static let sizeLimit = 512 * 1024 * 1024

    /// The baseline's findings, reused when the package is unchanged.
    struct Baseline: Codable, Equatable {
        var tests: [String]
        var libraries: [String: TestLibrary]
        var testLocations: [String: TestLocation]?
        var testTimeoutSeconds: Double
        var baselineBuildSeconds: Double
        var baselineTestSeconds: Double
        var coverageSeconds: Double?
        /// `Lab.suiteQuiet`.
        var quietWhileRunning: [String: Double]? = nil
        /// `Schema.digest` of the named mutants' schema the suite ran in
        /// (nil: none): a schema changed by a mutant added or edited is a
        /// build whose suite has not been seen green, so it runs again.
        var schema: String? = nil
    }

    /// The mutants found in `paths` (before any selection or `--in-diff`).
    struct Explored: Codable, Equatable {
        var paths: [String]
        var points: [MutationPoint]
        var compilerVersion: String
        var warnings: [String]
        var targets: [PackageTargets.Target]
        /// How the points' ids were made (`MutationFinder.anchorScheme`): a
        /// file written by a harness that made them otherwise (nil: before
        /// the scheme had a number) holds ids the ignore file and `--id` no
        /// longer use, so its points are found again.
        var anchorScheme: Int? = MutationFinder.anchorScheme
    }

    /// One verdict and the key it holds for.
    struct Entry: Codable, Equatable {
        var key: String
        var result: MutantResult
        /// For a killed verdict: `VerdictKeys.killKey` of the test that killed it.
        var killKey: String? = nil
    }

    /// The file at `url`; nil when there is none yet. A file that is not
    /// one (another format, a newer version, truncated JSON, too large) is
    /// an error saying what to do, never silently replaced: it may be the
    /// only copy of hours of verdicts.
    static func load(from url: URL) throws(ResultsFileError) -> ResultsFile? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            let parent = url.deletingLastPathComponent()
            guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw ResultsFileError(reason: "cannot keep results in \(url.path): the folder \(parent.path) does not exist")
            }
            return nil
        }
        guard !isFolder.boolValue else { throw ResultsFileError(reason: "\(url.path) is a folder; --incremental takes a file (it is created if missing)") }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= sizeLimit else {
            throw ResultsFileError(reason: "\(url.path) is \(size / 1_048_576) MB, more than a results file of mutate can be: not read; give another path or delete it")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ResultsFileError(reason: "cannot read \(url.path)")
        }
        struct Header: Decodable { var format: String?; var version: Int? }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == formatName else {
            throw ResultsFileError(reason: "\(url.path) is not a results file of `mutate --incremental` or `mutate explore --incremental`: not touched; give another path, or delete it to start afresh")
        }
        guard header.version == currentVersion else {
            throw ResultsFileError(reason: "\(url.path) is a results file of version \(header.version.map(String.init) ?? "?"), this mutate reads version \(currentVersion): delete it to start afresh")
        }
        do {
            return try JSONDecoder().decode(ResultsFile.self, from: data)
        } catch {
            throw ResultsFileError(reason: "\(url.path) is damaged (\(error)): not touched; delete it to start afresh")
        }
    }

    /// Writes the file whole or not at all: a temporary file beside it,
    /// then a rename, so a run killed mid-write leaves the last good one.
    func save(to url: URL) throws(ResultsFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
        do {
            try encoder.encode(self).write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw ResultsFileError(reason: "cannot replace \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch let error as ResultsFileError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ResultsFileError(reason: "cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}

/// A results file that cannot be used, and what to do about it.
struct ResultsFileError: Error, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
