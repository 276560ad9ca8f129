/// The key a generated mutant's verdict is kept under by `--incremental`:
/// a digest of everything that decides the verdict, as far as the harness
/// can know it. A verdict is reused only while its key is the same.
///
/// - What decides any verdict (`common`): the toolchain, the harness, and
///   the options that change a verdict (time limits, coverage, whether
///   tests stop at the first failure).
/// - The mutant: its patch and the code it changes. Where the change lies
///   inside one function's body, that is the function's text, the rest of
///   its file (`SourceDigests.outside`) and the patch with its lines counted
///   from the function's first; otherwise the whole file and the patch as is.
/// - The tests that run it (the coverage pass, made afresh whenever the
///   package changed) and what each one reaches: the text of every function
///   it ran, the tests' own among them, and the rest of every file those
///   functions are in. A function no covering test ran can change without
///   changing the key: the tests do not run it.
/// - Every file no function of the coverage map is in (manifests,
///   resources, fixtures, files of declarations only): a test may read
///   them without running a line of them, so they are in every key.
/// - A mutant the map cannot place (`unknown`) or a run without coverage
///   runs the whole suite: its key holds the whole package.
/// - Files the build writes are in no key (`isBuildOutput`). The map holds
///   functions of SwiftPM's test runner under `.build`, made from the
///   tests' files (which are in the keys): it names the copy's absolute
///   path and exists only once the copy was built, so keying on it would
///   make every key depend on where the package is and on what ran before.
///   A dependency's checkout under `.build/checkouts` counts through
///   `Package.resolved`, which pins it, when the package has one; without
///   it, by its text. Any other file of the map (a local dependency inside
///   the package's folder) counts by its text, as a counted file does.
///
/// Comments and blank lines are in no key (`SwiftSourceLines`).
///
/// A killed verdict also holds while the test that killed it, and what that
/// test reaches, are unchanged (`killKey`): that test alone decides it.
///
/// What the key cannot see: a constant of code no covering test ran that
/// the compiler inlines elsewhere, code a mutant makes the tests run that
/// the original did not, or a test that reads its own source's line
/// numbers. `--verify-reused` samples reused verdicts against a fresh run
/// for exactly that.
struct VerdictKeys {
    /// The package's files, by path: their digests (`ScratchWorkspace.fileDigests`).
    let files: [String: String]
    /// Digest of the toolchain, the harness and the verdict-deciding options.
    let common: String
    let coverage: CoverageMap?
    /// Each file's digest as the keys see it: a Swift file whose text is
    /// given, by its lines without comments or blank lines; a manifest, or
    /// any other file, by its bytes.
    private let texts: [String: String]
    /// Each file's digest by its code (`SwiftSourceLines.codeDigest`: line
    /// breaks kept), for a Swift file whose text is given; any other by its bytes.
    private let codes: [String: String]
    /// `tree` of `texts`: the whole package, for mutants that run the whole suite.
    private let wholePackage: String
    /// Digest of the files no function of the map is in.
    private let unattributed: String
    /// The pieces of every file of the map.
    private let sources: [String: SourceDigests]
    /// Each test's digest of what it reaches (`reaching`).
    private let reaching: [String: String]

    /// `sources`: the text of the package's Swift files (a file left out counts by its digest in `files`, whole).
    init(files: [String: String], common: String, coverage: CoverageMap?, sources texts: [String: [UInt8]] = [:]) {
        self.files = files
        self.common = common
        self.coverage = coverage
        // Each text read once; a manifest's first comment is its tools version: manifests count by their bytes.
        let pinned = files["Package.resolved"] != nil
        let lexed = texts.filter { !Self.isBuildOutput($0.key, pinned: pinned) }.compactMapValues(SwiftSourceLines.lines)
        let folders = lexed.filter { $0.key.contains("/") }
        self.texts = files.merging(folders.mapValues { SwiftSourceLines.textDigest($0) }) { _, text in text }
        self.codes = files.merging(folders.mapValues { SwiftSourceLines.codeDigest($0) }) { _, code in code }
        wholePackage = Self.tree(self.texts)
        var byFile: [String: [Int: CoverageMap.Function]] = [:]
        for (index, function) in (coverage?.functions ?? []).enumerated() where !Self.isBuildOutput(function.file, pinned: pinned) {
            byFile[function.file, default: [:]][index] = function
        }
        unattributed = Self.digest(of: files.keys.filter { byFile[$0] == nil }, in: self.texts)
        let sources = Dictionary(uniqueKeysWithValues: byFile.map { file, functions in
            (file, SourceDigests(lines: lexed[file], fallback: files[file] ?? "missing", functions: functions))
        })
        self.sources = sources
        var reaching: [String: String] = [:]
        for (test, indices) in coverage?.reached ?? [:] {
            guard let coverage else { break }
            var ran: [String] = []
            var reachedFiles = Set<String>()
            for index in indices where coverage.functions.indices.contains(index) && !Self.isBuildOutput(coverage.functions[index].file, pinned: pinned) {
                let function = coverage.functions[index]
                reachedFiles.insert(function.file)
                ran.append("\(function.file)\u{0}\(function.name)\u{0}\(sources[function.file]?.functions[index] ?? "missing")\n")
            }
            let rest = reachedFiles.sorted().map { "\($0)\u{0}\(sources[$0]?.outside ?? "missing")\n" }
            reaching[test] = SHA256.hex(ran.sorted().joined() + "outside\n" + rest.joined())
        }
        self.reaching = reaching
    }

    /// Whether a file of the coverage map is the build's own, in no key:
    /// anything under `.build`, but a dependency's checkout that no
    /// `Package.resolved` pins (`pinned`).
    static func isBuildOutput(_ path: String, pinned: Bool) -> Bool {
        guard path.hasPrefix(".build/") else { return false }
        return pinned || !path.hasPrefix(".build/checkouts/")
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
        var parts = ["common \(common)"]
        switch reach {
        case .tests(let tests)?:
            parts.append(change(of: mutant))
            parts.append("tests " + tests.sorted().map { "\($0)=\(reaching[$0] ?? "unknown")" }.joined(separator: ","))
            parts.append("unattributed \(unattributed)")
        case .noTest?:
            // The pass is made afresh for a changed package: a new test that
            // reaches the code makes this `.tests`, another key.
            parts += [change(of: mutant), "no test", "unattributed \(unattributed)"]
        case .unknown?, nil:
            parts += [wholeChange(of: mutant), "whole suite \(wholePackage)"]
        }
        return SHA256.hex(parts.joined(separator: "\n"))
    }

    /// The key a killed verdict also holds under: the mutant, the code it
    /// changes, the test that killed it and what that test reaches. While
    /// they are the same, that test still fails on the mutant, whatever
    /// else changed (a mutant run by the whole suite included). Nil when
    /// the map does not know the test.
    func killKey(for mutant: Mutant, killer: String) -> String? {
        guard let reached = reaching[killer] else { return nil }
        return SHA256.hex([
            "common \(common)", change(of: mutant), "killed by \(killer)=\(reached)", "unattributed \(unattributed)",
        ].joined(separator: "\n"))
    }

    /// The mutant's edit and what it changes: for each file, when every
    /// hunk's removed lines lie in one function's body, that function's
    /// text, the rest of the file and the hunk's removed and added lines
    /// counted from the function's first line (so lines added above it
    /// leave the key alone); otherwise `wholeChange`. A hunk's context lines
    /// are not the edit: the function's text already holds them.
    private func change(of mutant: Mutant) -> String {
        var parts: [String] = []
        for patch in mutant.diff.files.sorted(by: { $0.path < $1.path }) {
            guard patch.oldPath == patch.newPath, let source = sources[patch.path], !patch.hunks.isEmpty else { return wholeChange(of: mutant) }
            var hunks: [String] = []
            for hunk in patch.hunks {
                guard let (index, first) = source.function(holding: Array(hunk.changedOldLines)), let body = source.functions[index] else {
                    return wholeChange(of: mutant)
                }
                hunks.append("in \(coverage?.functions[index].name ?? "?")=\(body) " + Self.edit(hunk, at: hunk.changedOldLines.lowerBound - first))
            }
            parts.append("file \(patch.path) outside=\(source.outside)\n" + hunks.joined(separator: "\n"))
        }
        return "change " + SHA256.hex(parts.joined(separator: "\n"))
    }

    /// The edit at its line, and the code of every file it changes (by
    /// `codes`: a comment elsewhere leaves it alone, a line added above moves it).
    private func wholeChange(of mutant: Mutant) -> String {
        let files = mutant.diff.files.sorted { $0.path < $1.path }.map { patch in
            "file \(patch.oldPath ?? "none") -> \(patch.newPath ?? "none") \(codes[patch.path] ?? "missing")\n"
                + patch.hunks.map { Self.edit($0, at: $0.changedOldLines.lowerBound) }.joined(separator: "\n")
        }
        return "whole change " + SHA256.hex(files.joined(separator: "\n"))
    }

    /// A hunk's removed and added lines, at `line`.
    private static func edit(_ hunk: Hunk, at line: Int) -> String {
        let lines = hunk.lines.compactMap { line -> String? in
            if case .context = line { return nil }
            return line.written
        }
        return "at \(line) \(hunk.oldHasNoFinalNewline) \(hunk.newHasNoFinalNewline)\n" + lines.joined(separator: "\n")
    }

    /// One digest of the named files' paths and digests (a missing file counts as such).
    private static func digest(of paths: [String], in files: [String: String]) -> String {
        SHA256.hex(paths.sorted().map { "\($0)\u{0}\(files[$0] ?? "missing")\n" }.joined())
    }
}
