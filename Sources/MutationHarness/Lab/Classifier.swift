/// Turns a mutant's test run into a status, in cargo-mutants' order:
/// time-out first, then a failing test (or a crashed test process), then a
/// clean pass. A run in which no test executed is an error, never a survivor
/// (a filter that matches nothing exits 0).
enum Classifier {
    struct Verdict: Equatable, Sendable {
        var status: MutantStatus
        var killedBy: [String]
        var reason: String?
    }

    static func classify(termination: ProcessTermination, report: TestRunReport) -> Verdict {
        if termination == .timedOut {
            return Verdict(status: .timeout, killedBy: [], reason: "the tests ran past the time limit and were killed")
        }
        // Sorted: the report is the same whichever test finished first.
        let failures = report.failures.sorted { $0.id < $1.id }
        if let first = failures.first {
            let message = first.message.map(FailureMessage.clean) ?? "failed"
            return Verdict(status: .killed, killedBy: failures.map(\.id), reason: "\(first.id): \(message)")
        }
        switch termination {
        case .exited(0):
            return report.cases.isEmpty
                ? Verdict(status: .error, killedBy: [], reason: "no test ran: check the package has tests and the runner wrote its xunit output")
                : Verdict(status: .survived, killedBy: [], reason: "all \(report.cases.count) tests passed")
        case .exited(let code):
            return crashVerdict(report, ending: "the test process exited with status \(code) before reporting a failing test")
        case .signalled(let signal):
            return crashVerdict(report, ending: "the test process was killed by signal \(signal)")
        case .timedOut:
            return Verdict(status: .timeout, killedBy: [], reason: nil)
        case .stoppedEarly:
            // Stopped because the event stream showed a failure, yet no report names it.
            return Verdict(status: .error, killedBy: [], reason: "the tests were stopped at a failure that no report names")
        }
    }

    /// A crash kills: named after the test that was running, with what the
    /// runtime said (`Precondition failed: ... (signal 4)`), never after every
    /// test that had not reported yet.
    private static func crashVerdict(_ report: TestRunReport, ending: String) -> Verdict {
        let what = report.crashSummary ?? ending
        let reason = "crash: " + what + (report.crashedTest.map { " while \($0) ran" } ?? "")
        return Verdict(status: .killed, killedBy: report.crashedTest.map { [$0] } ?? [], reason: reason)
    }

    /// The first compiler error in a build log, for an unviable mutant.
    static func firstCompilerError(in log: String) -> String? {
        log.split(separator: "\n").first { $0.contains("error:") }.map { String($0).trimmingCharacters(in: .whitespaces) }
    }
}
