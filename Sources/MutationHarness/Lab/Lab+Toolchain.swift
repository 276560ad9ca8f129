import Foundation

/// The toolchain's commands (`swift build`, `swift test`) and the
/// environment every command the lab starts gets.
extension Lab {
    func runBuild(log: URL, timeout: Double?) throws -> ProcessResult {
        try runner.run(
            [configuration.swift, "build", "--build-tests", "--manifest-cache", "local"] + (configuration.coverage ? ["--enable-code-coverage"] : []),
            in: workspace.root,
            environment: environment, log: log, timeout: timeout
        )
    }

    /// Runs the suite (or the tests of `targets` only, or all but those of
    /// `skipping`), stopping at the first failure when the configuration
    /// asks for it.
    ///
    /// A run for a mutant stops at its first failing test (unless
    /// `--all-tests`) and, once the baseline's silences are known
    /// (`suiteQuiet`), when it has stalled (`stopRule`): the stall comes
    /// back with the result. A baseline runs to the end; its silences
    /// come back (`EventStreamReader.quietWhileRunning`).
    func runTests(name: String, log: URL, timeout: Double?, extraEnvironment: [String: String] = [:],
                          targets: [String]? = nil, skipping: [String]? = nil, baseline: Bool = false)
        throws -> (result: ProcessResult, report: TestRunReport, stall: TestProgress.Stall?, quiet: [String: Double])
    {
        let xunit = results.appendingPathComponent("\(name).xml")
        let events = results.appendingPathComponent("\(name).jsonl")
        for stale in [xunit.path, results.appendingPathComponent("\(name)-swift-testing.xml").path, events.path] {
            try? FileManager.default.removeItem(atPath: stale)
        }
        // `--parallel` makes XCTest write its xunit file; the event stream
        // names the failing Swift Testing test even if the process crashes.
        var arguments = [configuration.swift, "test", "--skip-build", "--manifest-cache", "local", "--parallel", "--xunit-output", xunit.path,
                         "--event-stream-output-path", events.path]
        // Test ids start with their target's module name: `Target.Suite/test()`.
        func pattern(_ targets: [String]) -> String { "^(" + targets.map(NSRegularExpression.escapedPattern).joined(separator: "|") + ")\\." }
        if let targets { arguments += ["--filter", pattern(targets)] }
        if let skipping { arguments += ["--skip", pattern(skipping)] }
        // A baseline runs to the end, so a red one names every failing test.
        let stall = Locked<TestProgress.Stall?>(nil)
        let stalls = configuration.fixedTimeout == nil && suiteQuiet != nil && coverage != nil
        let watched = !baseline && (configuration.stopAtFirstFailure || stalls)
        let stopWhen = watched ? stopRule(EventStreamWatcher(events), stall: stall, wholeSuite: true) : nil
        let result = try runner.run(arguments, in: workspace.root, environment: environment.merging(extraEnvironment) { $1 }, log: log,
                                    timeout: timeout, stopWhen: stopWhen)
        let report = TestRunReport.read(xunitPath: xunit, eventStream: events, log: read(log))
        return (result, report, stall.value, baseline ? EventStreamReader.quietWhileRunning(events) : [:])
    }

    var environment: [String: String] {
        Self.childEnvironment(inheriting: ProcessInfo.processInfo.environment, temporary: workspace.temporaryDirectory,
                              home: workspace.homeDirectory)
    }

    /// The caller's environment with `TMPDIR` and `HOME` inside the scratch
    /// folder (`CFFIXED_USER_HOME` too: Foundation on Linux answers
    /// `NSHomeDirectory()` from it, not from `HOME`), and `MUTATE_RUNNING`
    /// set so a harness test inside the suite does not start a harness of
    /// its own. A schema switch the caller itself runs under (a harness test
    /// inside a mutate run) is not passed on, nor its record of the switches
    /// that ran: only the lab switches mutants and reads their records.
    static func childEnvironment(inheriting parent: [String: String], temporary: URL, home: URL) -> [String: String] {
        var environment = parent
        environment["TMPDIR"] = temporary.path
        environment["HOME"] = home.path
        environment["CFFIXED_USER_HOME"] = home.path
        // An instrumented build writes a profile at every exit; only the coverage pass keeps one.
        environment["LLVM_PROFILE_FILE"] = "/dev/null"
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        // A crashing mutant's backtrace costs seconds of symbolication (about
        // 2.8 s on this package's test executable, 1.8 s fast): function names
        // (which test crashed) are all the lab reads. The caller's own choice stands.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "symbolicate=fast" }
        environment["MUTATE_RUNNING"] = "1"
        environment["MUTATE_TEST_PAUSE"] = nil
        environment[Schema.variable] = nil
        environment[Schema.reachedVariable] = nil
        return environment
    }

    func read(_ log: URL) -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }
}
