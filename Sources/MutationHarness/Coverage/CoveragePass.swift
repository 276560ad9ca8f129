import Foundation

/// After the baseline: runs every test on its own, in the instrumented
/// build, and records the functions it ran (`CoverageMap`). Each test's
/// profile files are named by process (`%p`), so a process the test starts
/// from an instrumented executable (the fault child, a built tool) counts
/// as that test's.
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
    /// Where profiles are written (emptied first).
    var folder: URL
    var environment: [String: String]
    var log: URL
    /// Each test's time limit.
    var timeout: Double
    var print: (String) -> Void

    func run(_ tests: [(id: String, library: TestLibrary)]) throws -> CoverageMap {
        try? FileManager.default.removeItem(at: folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CoverageError(reason: "cannot create \(folder.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        var reachedNames: [String: Set<String>] = [:]
        var seconds: [String: Double] = [:]
        var profiles: [String] = []
        var lastReport = Date()
        // A program started without the environment writes here instead (see below).
        let stray = root.appendingPathComponent("default.profraw")
        try? FileManager.default.removeItem(at: stray)
        for (index, test) in tests.enumerated() {
            if Date().timeIntervalSince(lastReport) >= 10 {
                print("  coverage: \(index) of \(tests.count) tests run on their own")
                lastReport = Date()
            }
            let raw = folder.appendingPathComponent("raw-\(index)")
            try? FileManager.default.createDirectory(at: raw, withIntermediateDirectories: true)
            let result = try runAlone(test, index: index, profiles: raw)
            // A process the test started with an environment of its own
            // writes `default.profraw` in its folder: the copy's, for this
            // package. Tests run one at a time, so it is this test's.
            try? FileManager.default.moveItem(at: stray, to: raw.appendingPathComponent("stray.profraw"))
            let written = ((try? FileManager.default.contentsOfDirectory(atPath: raw.path)) ?? []).filter { $0.hasSuffix(".profraw") }
                .sorted().map { raw.appendingPathComponent($0).path }
            guard !written.isEmpty else {
                throw CoverageError(reason: "\(test.id) wrote no coverage profile: the build is not instrumented, or the test exits without the runtime writing one")
            }
            let profile = folder.appendingPathComponent("\(index).profdata").path
            try tool([llvm.profdata, "merge", "-sparse", "-o", profile] + written)
            try? FileManager.default.removeItem(at: raw)
            reachedNames[test.id] = LLVMCoverage.reachedFunctions(profileText: String(decoding: try tool([llvm.profdata, "merge", "-text", "-o", "-", profile]), as: UTF8.self))
            seconds[test.id] = result.seconds
            profiles.append(profile)
        }
        let merged = folder.appendingPathComponent("all.profdata").path
        try tool([llvm.profdata, "merge", "-sparse", "-o", merged] + profiles)
        let functions = try LLVMCoverage.functions(exportJSON: try export(merged), root: root.path)
        var indices: [String: [Int]] = [:]
        for (index, function) in functions.enumerated() { indices[function.name, default: []].append(index) }
        let reached = reachedNames.mapValues { names in names.flatMap { indices[$0] ?? [] }.sorted() }
        return CoverageMap(functions: functions, reached: reached, seconds: seconds)
    }

    /// Runs one test alone with its profiles written into `profiles`.
    private func runAlone(_ test: (id: String, library: TestLibrary), index: Int, profiles: URL) throws -> ProcessResult {
        let xunit = folder.appendingPathComponent("test.xml")
        let swiftTestingXunit = folder.appendingPathComponent("test-swift-testing.xml")
        for stale in [xunit, swiftTestingXunit] { try? FileManager.default.removeItem(at: stale) }
        let arguments = test.library == .swiftTesting
            ? binary.swiftTesting([test.id], xunit: swiftTestingXunit, events: folder.appendingPathComponent("events.jsonl"))
            : binary.xctest([test.id])
        var environment = environment
        environment["LLVM_PROFILE_FILE"] = profiles.appendingPathComponent("%p.profraw").path
        let logged = (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
        let result = try runner.run(arguments, in: root, environment: environment, log: log, timeout: timeout)
        let output = (try? Data(contentsOf: log)).map { String(decoding: $0.dropFirst(logged), as: UTF8.self) } ?? ""
        let report = TestRunReport.read(xunitPath: xunit, log: output, xctestConsole: test.library == .xctest ? [test.id] : nil)
        guard result.termination.succeeded, report.cases.contains(where: { $0.id == test.id && !$0.failed }), report.failures.isEmpty else {
            let why = result.termination == .timedOut ? "ran past its time limit" : report.cases.isEmpty ? "did not run" : "failed"
            throw CoverageError(reason: "\(test.id) \(why) when it ran on its own (log: \(log.path)); a test that needs others to run first cannot be chosen alone")
        }
        return result
    }

    /// `llvm-cov export` of the test executable and every other executable
    /// of the build (a test may start one): each function's code regions.
    private func export(_ profile: String) throws -> Data {
        let objects = Self.executables(besides: binary, in: URL(fileURLWithPath: binary.path).deletingLastPathComponent())
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
    private func tool(_ arguments: [String]) throws -> Data {
        let result = try CapturedCommand.run(arguments)
        guard result.status == 0 else {
            throw CoverageError(reason: "\((arguments[0] as NSString).lastPathComponent) \(arguments[1]) failed: \(result.errorText.prefix(500))")
        }
        return result.output
    }
}
