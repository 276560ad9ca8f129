import Foundation

/// After the baseline: runs every test on its own (one per core at a
/// time), in the instrumented build, and records the functions it ran
/// (`CoverageMap`). Each test's
/// profile files are named by process (`%p`), so a process the test starts
/// from an instrumented executable (the fault child, a built tool) counts
/// as that test's. The whole suite's own run (the baseline, its profiles
/// in `suiteProfiles`) is compared with the tests' by code region: what ran
/// there but in no test alone runs only under load, and no test can be
/// chosen for it (`CoverageMap.suiteOnly`).
///
/// A test that fails on its own, writes no profile, or a profile the tools
/// cannot read stops the pass with a `CoverageError`: the run then gives
/// every mutant the whole suite, as without coverage, and says why.
struct CoveragePass {
    var binary: TestBinary
    var llvm: LLVMCoverage
    /// Runs each test (the lab's runner: time limit, process group, interrupts).
    var runner: any CommandRunning
    /// The built scratch copy.
    var root: URL
    /// Where profiles are written (emptied first, removed after).
    var folder: URL
    /// The profiles the baseline's whole-suite run wrote (the lab's: it
    /// removes them after the pass).
    var suiteProfiles: URL
    var environment: [String: String]
    var log: URL
    /// Each test's time limit.
    var timeout: Double
    var print: (String) -> Void
    /// Tests measured at once (one per core: a test alone seldom uses more).
    var workers = ProcessInfo.processInfo.activeProcessorCount
    /// More tests measured at once while a core is spare (`Lab.spareWorkers`).
    var spare: SpareWorkers?
    /// The progress line's clock.
    var now: @Sendable () -> Date = Date.init
    /// What an earlier pass found of tests that run no changed code (`--incremental`):
    /// they are not run again. A test runs the same code as long as none of
    /// the code it ran has changed.
    var earlier = KnownCoverage()

    /// An earlier pass's findings, kept for the tests it names.
    struct KnownCoverage {
        /// Test -> the functions it ran (their profile names) and its seconds alone.
        var tests: [String: (names: Set<String>, seconds: Double)] = [:]
        /// The files that changed since: their lines run only under load are found afresh.
        var changedFiles: Set<String> = []
        /// The earlier lines run only under load, by file (kept for unchanged files).
        var suiteOnly: [String: Set<Int>] = [:]
    }

    func run(_ all: [(id: String, library: TestLibrary)]) throws -> CoverageMap {
        // At least one test runs: its profile gives the build's coverage mapping.
        let toMeasure = all.filter { earlier.tests[$0.id] == nil }
        let tests = toMeasure.isEmpty ? Array(all.prefix(1)) : toMeasure
        try PassFolder.makeEmpty(folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Each test's profile, kept to be merged into one (`alone`).
        try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        // A program started without the environment writes here instead (see `measure`).
        try? FileManager.default.removeItem(at: stray)
        let state = Locked(PassState())
        // The workers share the runner (each call starts and waits for its own
        // process) and `print` (called under `progress`'s lock only).
        nonisolated(unsafe) let pass = self
        nonisolated(unsafe) let print = self.print
        let progress = PassProgress("coverage", total: tests.count, now: now, print: { print($0) })
        try Workers.run(items: tests.count, workers: workers, spare: spare) { index, worker in
            state.withLock { $0.running[worker] = tests[index].id }
            defer {
                state.withLock { $0.running[worker] = nil }
                progress.testFinished()
            }
            try pass.measure(tests[index], index: index, worker: worker, state: state)
        }
        var reachedNames = state.value.reached
        var seconds = state.value.seconds
        for test in all where earlier.tests[test.id] != nil && reachedNames[test.id] == nil {
            reachedNames[test.id] = earlier.tests[test.id]?.names
            seconds[test.id] = earlier.tests[test.id]?.seconds
        }
        for (test, names) in state.value.strayNames { reachedNames[test, default: []].formUnion(names) }
        if !state.value.strayNames.isEmpty {
            print("  \(state.value.strayNames.count) test(s) started a program that wrote its profile in the copy's folder: counted as theirs")
        }
        guard !all.isEmpty else { throw CoverageError(reason: "no test to measure") }
        // Every test's profile in one: with it llvm-cov reads the build's
        // coverage mapping (every function and its regions, run or not) and
        // what the tests ran, each on its own.
        let alone = folder.appendingPathComponent("alone.profdata").path
        let list = folder.appendingPathComponent("alone.txt")
        let profiles = ((try? FileManager.default.contentsOfDirectory(atPath: kept.path)) ?? []).sorted().map { kept.appendingPathComponent($0).path }
        do {
            try Data(profiles.map { $0 + "\n" }.joined().utf8).write(to: list)
        } catch {
            throw CoverageError(reason: "cannot write \(list.path): \(error.localizedDescription)")
        }
        try tool([llvm.profdata, "merge", "-sparse", "-o", alone, "--input-files=" + list.path])
        let aloneExport = try LLVMCoverage.exportedFunctions(try export(alone))
        let suiteOnly = try suiteOnlyLines(alone: aloneExport)
        // Every function a test ran must be one the mapping knows (in any
        // file): a name the two spell differently would hide a test.
        let known = LLVMCoverage.functions(aloneExport, root: "/") // every file; paths lose their leading "/"
        let unknown = Set(reachedNames.values.joined()).subtracting(known.map(\.name))
        if let example = unknown.sorted().first {
            throw CoverageError(reason: "\(unknown.count) function(s) the tests ran are not in the coverage mapping (such as \(example)): the profiles and the build disagree")
        }
        let inTestExecutable = Set(try LLVMCoverage.exportedFunctions(try export(alone, objects: [])).map(\.name))
        // The copy's own files, relative to it: the same export, read once.
        let prefix = String(root.path.drop { $0 == "/" }) + (root.path.hasSuffix("/") ? "" : "/")
        var functions = known.filter { $0.file.hasPrefix(prefix) }.map { function in
            var function = function
            function.file = String(function.file.dropFirst(prefix.count))
            function.count = 0 // counted below from the tests' own profiles
            if !inTestExecutable.contains(function.name) { function.onlyInExecutable = true }
            return function
        }
        var indices: [String: [Int]] = [:]
        for (index, function) in functions.enumerated() { indices[function.name, default: []].append(index) }
        let reached = reachedNames.mapValues { names in names.flatMap { indices[$0] ?? [] }.sorted() }
        for indices in reached.values {
            for index in indices { functions[index].count += 1 }
        }
        return CoverageMap(functions: functions, reached: reached, seconds: seconds, suiteOnly: suiteOnly)
    }

    /// Where each test's indexed profile is kept until the pass merges them.
    /// (Not as text: `llvm-profdata` cannot read back the text it writes of
    /// Swift functions, whose names start with `$` as its bitmap lines do.)
    private var kept: URL { folder.appendingPathComponent("alone") }

    /// The lines of the copy that ran in the whole suite's run but in no
    /// test alone. Without a profile of that run nothing can be said of
    /// code reached only under load, so the pass stops.
    private func suiteOnlyLines(alone: [LLVMCoverage.ExportedFunction]) throws -> [String: Set<Int>] {
        let written = ((try? FileManager.default.contentsOfDirectory(atPath: suiteProfiles.path)) ?? []).filter { $0.hasSuffix(".profraw") }
            .sorted().map { suiteProfiles.appendingPathComponent($0).path }
        guard !written.isEmpty else {
            throw CoverageError(reason: "the whole suite's run wrote no coverage profile in \(suiteProfiles.path), so code that runs only under load cannot be told apart")
        }
        let suite = folder.appendingPathComponent("suite.profdata").path
        try tool([llvm.profdata, "merge", "-sparse", "-o", suite] + written)
        var lines = LLVMCoverage.suiteOnlyLines(suite: try LLVMCoverage.exportedFunctions(try export(suite)), alone: alone, root: root.path)
        if !earlier.tests.isEmpty {
            // The tests not run again ran no changed file: a changed file's lines are judged by the tests
            // that ran; the others keep the earlier pass's judgement.
            lines = lines.filter { earlier.changedFiles.contains($0.key) }
                .merging(earlier.suiteOnly.filter { !earlier.changedFiles.contains($0.key) }) { $1 }
        }
        if !lines.isEmpty {
            let listed = lines.sorted { $0.key < $1.key }.map { "  \($0.key): " + $0.value.sorted().map(String.init).joined(separator: ", ") }
            LogFile.append("== ran in the whole suite but in no test on its own\n" + listed.joined(separator: "\n") + "\n", to: log)
            print("  \(lines.values.map(\.count).reduce(0, +)) line(s) in \(lines.count) file(s) ran in the whole suite but in no test on its own: "
                + "a mutant there runs the whole suite (listed in \(log.lastPathComponent))")
        }
        return lines
    }

    /// What the workers share.
    private struct PassState: Sendable {
        var reached: [String: Set<String>] = [:]
        var seconds: [String: Double] = [:]
        /// What a stray profile showed, for every test that may have written it.
        var strayNames: [String: Set<String>] = [:]
        /// Each worker's test while it runs.
        var running: [Int: String] = [:]
    }

    /// Where a process started without `LLVM_PROFILE_FILE` writes its profile
    /// (its working folder: the copy's, for a test's child).
    private var stray: URL { root.appendingPathComponent("default.profraw") }

    /// Runs one test alone and records what it ran; its profile is kept in `kept`.
    private func measure(_ test: (id: String, library: TestLibrary), index: Int, worker: Int, state: Locked<PassState>) throws {
        let raw = folder.appendingPathComponent("raw-\(index)")
        try? FileManager.default.createDirectory(at: raw, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: raw) }
        let result = try runAlone(test, index: index, profiles: raw)
        let written = ((try? FileManager.default.contentsOfDirectory(atPath: raw.path)) ?? []).filter { $0.hasSuffix(".profraw") }
            .sorted().map { raw.appendingPathComponent($0).path }
        guard !written.isEmpty else {
            throw CoverageError(reason: "\(test.id) wrote no coverage profile: the build is not instrumented, or the test exits without the runtime writing one")
        }
        let text = try keep(written, as: "\(index)")
        let names = LLVMCoverage.reachedFunctions(profileText: String(decoding: text, as: UTF8.self))
        // A process a test started with an environment of its own wrote
        // `default.profraw`: it belongs to this test or to one running beside
        // it, so it counts for each of them.
        let claimed = raw.appendingPathComponent("stray.profraw")
        if (try? FileManager.default.moveItem(at: stray, to: claimed)) != nil {
            let strayText = try keep([claimed.path], as: "\(index)-stray")
            let strayNames = LLVMCoverage.reachedFunctions(profileText: String(decoding: strayText, as: UTF8.self))
            state.withLock { value in
                for owner in Set([test.id] + value.running.values) { value.strayNames[owner, default: []].formUnion(strayNames) }
            }
        }
        state.withLock { value in
            value.reached[test.id] = names
            value.seconds[test.id] = result.seconds
        }
    }

    /// Merges raw profiles into `kept` as `name.profdata` (sparse: only the
    /// functions that ran, a few kilobytes); returns them as text.
    private func keep(_ raw: [String], as name: String) throws -> Data {
        let indexed = kept.appendingPathComponent(name + ".profdata").path
        try tool([llvm.profdata, "merge", "-sparse", "-o", indexed] + raw)
        return try tool([llvm.profdata, "merge", "-sparse", "-text", "-o", "-", indexed])
    }

    /// Runs one test alone with its profiles written into `profiles`.
    private func runAlone(_ test: (id: String, library: TestLibrary), index: Int, profiles: URL) throws -> ProcessResult {
        try TestAlone(binary: binary, runner: runner, root: root, environment: environment, log: log, timeout: timeout)
            .run(test, in: profiles, extra: ["LLVM_PROFILE_FILE": profiles.appendingPathComponent("%p.profraw").path])
    }

    /// `llvm-cov export` of the test executable and every other executable
    /// of the build (a test may start one): each function's code regions.
    private func export(_ profile: String, objects: [String]? = nil) throws -> Data {
        let objects = objects ?? Self.executables(besides: binary, in: URL(fileURLWithPath: binary.path).deletingLastPathComponent())
        let arguments = [llvm.cov, "export", "-format=text", "-skip-expansions", "-instr-profile", profile, binary.path]
        if let data = try? tool(arguments + objects.flatMap { ["-object", $0] }) { return data }
        return try tool(arguments)
    }

    /// The executables in the build folder other than the test executable.
    static func executables(besides binary: TestBinary, in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().compactMap { name in
            let path = folder.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            guard path != binary.path, !name.contains("."), FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
                  !isFolder.boolValue, access(path, X_OK) == 0
            else { return nil }
            return path
        }
    }

    /// Runs an LLVM tool; its standard output, or a `CoverageError` with what it said.
    @discardableResult
    private func tool(_ arguments: [String]) throws -> Data {
        let result = try CapturedCommand.run(arguments)
        guard result.status == 0 else {
            throw CoverageError(reason: "\((arguments[0] as NSString).lastPathComponent) \(arguments[1]) failed: \(result.errorText.prefix(500))")
        }
        return result.output
    }
}
