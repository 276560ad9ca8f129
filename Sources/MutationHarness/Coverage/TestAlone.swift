import Foundation

/// One test run on its own by starting the test executable directly, as
/// the coverage pass and the switch pass run them: it must pass alone, or
/// what it reaches cannot be told (`CoverageError`).
struct TestAlone {
    var binary: TestBinary
    /// The lab's runner: time limit, process group, interrupts.
    var runner: any CommandRunning
    /// The built scratch copy (the test's working folder).
    var root: URL
    var environment: [String: String]
    /// Where every test's output is appended, under its id.
    var log: URL
    var timeout: Double

    /// Runs `test` with `extra` added to its environment; its result files
    /// (xUnit, event stream, output) go into `folder`.
    func run(_ test: (id: String, library: TestLibrary), in folder: URL, extra: [String: String]) throws -> ProcessResult {
        let xunit = folder.appendingPathComponent("test.xml")
        let swiftTestingXunit = folder.appendingPathComponent("test-swift-testing.xml")
        let ownLog = folder.appendingPathComponent("test.log")
        let arguments = test.library == .swiftTesting
            ? binary.swiftTesting([test.id], xunit: swiftTestingXunit, events: folder.appendingPathComponent("events.jsonl"))
            : binary.xctest([test.id])
        let result = try runner.run(arguments, in: root, environment: environment.merging(extra) { $1 }, log: ownLog, timeout: timeout)
        let output = (try? String(contentsOf: ownLog, encoding: .utf8)) ?? ""
        Self.logLock.withLock { _ in LogFile.append("== \(test.id)\n" + output, to: log) }
        let report = TestRunReport.read(xunitPath: xunit, log: output, xctestConsole: test.library == .xctest ? [test.id] : nil)
        guard result.termination.succeeded, report.cases.contains(where: { $0.id == test.id && !$0.failed }), report.failures.isEmpty else {
            let why = result.termination == .timedOut ? "ran past its time limit"
                : (report.cases.contains { $0.id == test.id } ? "failed" : "did not run") + " (\(result.termination))"
            throw CoverageError(reason: "\(test.id) \(why) when it ran on its own (log: \(log.path)); a test that needs others to run first cannot be chosen alone")
        }
        return result
    }

    /// Appends to the shared log one test's output at a time.
    private static let logLock = Locked(0)
}
