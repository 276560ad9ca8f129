import Foundation
import Testing
@testable import MutationHarness

struct ClassifierTests {
    private func report(_ failed: [String], passed: [String] = ["S/passes()"]) -> TestRunReport {
        TestRunReport(cases: passed.map { TestCaseResult(id: $0, className: "S", name: $0, failed: false, message: nil) }
            + failed.map { TestCaseResult(id: $0, className: "S", name: $0, failed: true, message: "boom \($0)") })
    }

    @Test func aFailingTestKillsAndIsNamed() {
        let verdict = Classifier.classify(termination: .exited(1), report: report(["S/a()", "S/b()"]))
        #expect(verdict == .init(status: .killed, killedBy: ["S/a()", "S/b()"], reason: "S/a(): boom S/a()"))
        let reordered = Classifier.classify(termination: .exited(1), report: report(["S/b()", "S/a()"]))
        #expect(reordered == verdict, "the same whichever test finished first")
    }

    @Test func timeOutComesFirst() {
        #expect(Classifier.classify(termination: .timedOut, report: report(["S/a()"])).status == .timeout)
    }

    @Test func aCleanPassSurvives() {
        #expect(Classifier.classify(termination: .exited(0), report: report([])).status == .survived)
    }

    @Test func noTestRunIsAnErrorNeverASurvivor() {
        #expect(Classifier.classify(termination: .exited(0), report: TestRunReport(cases: [])).status == .error)
    }

    @Test func aCrashIsBlamedOnTheTestTheCrashingThreadRanWithTheRuntimesMessage() throws {
        try withScratch { scratch in
            func started(_ id: String) -> String {
                "{\"kind\":\"event\",\"payload\":{\"kind\":\"testStarted\",\"testID\":\"\(id)\"},\"version\":\"6.3.0\"}"
            }
            // Four tests running in parallel; the crash is in the second started.
            let ids = ["T.MoreTests/a1()/A.swift:3:6", "T.ArithmeticTests/addsTwoNumbers()/A.swift:9:6",
                       "T.MoreTests/a2()/A.swift:4:6", "T.MoreTests/a3()/A.swift:5:6"]
            try scratch.write("e.jsonl", ids.map(started).joined(separator: "\n") + "\n")
            let log = """
                Tiny/Arithmetic.swift:4: Precondition failed: lock() failed
                *** Program crashed: Illegal instruction at 0x00007f053e0f9361 ***
                Thread 0 "TinyPackageTest":
                  0      0x00007f053e0f9361 MoreTests.a3() + 12 in TinyPackageTests.xctest
                Thread 4 "oot.default-qos" crashed:
                  0      0x00007f053e0f9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
                  1 [ra] 0x00005604b8571305 static Arithmetic.add(_:_:) + 36 in TinyPackageTests.xctest
                  4 [ra] 0x00005604b859ef86 ArithmeticTests.addsTwoNumbers() + 165 in TinyPackageTests.xctest
                Registers:
                error: Process '/p/.build/debug/TinyPackageTests.xctest --testing-library swift-testing' exited with unexpected signal code 4
                """
            let report = TestRunReport.read(xunitPath: scratch.url.appendingPathComponent("none.xml"),
                                            eventStream: scratch.url.appendingPathComponent("e.jsonl"), log: log)
            #expect(report.crashedTest == "T.ArithmeticTests/addsTwoNumbers()")
            #expect(report.unfinished == ["T.MoreTests/a1()", "T.MoreTests/a2()", "T.MoreTests/a3()"])
            let verdict = Classifier.classify(termination: .exited(1), report: report)
            #expect(verdict.killedBy == ["T.ArithmeticTests/addsTwoNumbers()"], "only the crashed test is a killer")
            #expect(verdict.reason == "crash: Tiny/Arithmetic.swift:4: Precondition failed: lock() failed (signal 4) while T.ArithmeticTests/addsTwoNumbers() ran")

            let xctest = "error: Process '/p/TinyPackageTests.xctest TinyTests.LegacyTests/testAdd' exited with unexpected signal code 11\n"
            let xcReport = TestRunReport.read(xunitPath: scratch.url.appendingPathComponent("none.xml"), log: xctest)
            #expect(xcReport.crashedTest == "TinyTests.LegacyTests/testAdd")
            #expect(Classifier.classify(termination: .exited(1), report: xcReport).reason
                == "crash: the test process crashed (signal 11) while TinyTests.LegacyTests/testAdd ran")
        }
    }

    @Test func aCrashWithoutAFailureRecordStillKills() {
        #expect(Classifier.classify(termination: .signalled(11), report: report([])).status == .killed)
        #expect(Classifier.classify(termination: .exited(1), report: TestRunReport(cases: [])).status == .killed)
    }

    @Test func findsTheFirstCompilerError() {
        let log = "Compiling...\n/x/A.swift:3:9: error: cannot convert\n/x/B.swift:1:1: error: other\n"
        #expect(Classifier.firstCompilerError(in: log) == "/x/A.swift:3:9: error: cannot convert")
    }

    @Test func gateExitCodesAreDistinct() {
        var report = LabReport(packagePath: "/p", threshold: 100, setupSeconds: 0, baselineBuildSeconds: 0, baselineTestSeconds: 0,
                               testTimeoutSeconds: 0, tests: [], mutants: [], shard: nil)
        func result(_ status: MutantStatus) -> MutantResult {
            MutantResult(name: "\(status)", description: "", bug: nil, status: status, files: [], firstLine: 1, lastLine: 1,
                         diff: "", replacement: "", log: "")
        }
        report.mutants = [result(.killed), result(.timeout)]
        #expect(HarnessExitCode.gate(report) == .passed)
        report.mutants.append(result(.stale))
        #expect(HarnessExitCode.gate(report) == .brokenMutant)
        report.mutants.append(result(.survived))
        #expect(report.score.map { Int($0) } == 66)
        #expect(HarnessExitCode.gate(report) == .survived)
        report.threshold = 60
        #expect(HarnessExitCode.gate(report) == .brokenMutant)
    }

    /// One mapping for the gate and `explore` (they had two, which differed
    /// for an error that is not the lab's).
    @Test func aRunThatStopsBeforeItsVerdictExitsByWhy() {
        struct CannotStart: Error {}
        let cases: [(any Error, HarnessExitCode)] = [
            (LabError.interrupted(signal: SIGINT), .interrupted), (LabError.workspace("a file, not a folder"), .usage),
            (LabError.locked("/copy"), .locked), (LabError.baselineBuildFailed(firstError: nil, log: "l"), .baselineFailed),
            (LabError.baselineTestsFailed(tests: [], message: nil, log: "l"), .baselineFailed),
            (LabError.baselineTimedOut(log: "l"), .baselineFailed), (LabError.noTests(log: "l"), .baselineFailed),
            (ASTDumpError(reason: "no syntax tree"), .usage), (CannotStart(), .baselineFailed),
        ]
        for (error, code) in cases { #expect(HarnessExitCode.stopped(by: error) == code, "\(error)") }
    }
}

struct TestRunReportTests {
    @Test func readsBothRunnersAndTakesXCTestMessagesFromTheirErrorLine() throws {
        try withScratch { scratch in
            try scratch.write("r.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites><testsuite name="TestResults" tests="4" failures="3">
                <testcase classname="TinyTests.LegacyTests" name="testAdd" time="0.01"><failure message="failure"></failure></testcase>
                <testcase classname="TinyTests.LegacyTests" name="testOther" time="0.01"/>
                <testcase classname="TinyTests.LegacyTests" name="testBare" time="0.01"><failure></failure></testcase>
                <testcase classname="TinyTests.LegacyTests" name="testOwn" time="0.01"><failure message="its own words"></failure></testcase>
                </testsuite></testsuites>
                """)
            try scratch.write("r-swift-testing.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites><testsuite name="TestResults" tests="1" failures="1">
                <testcase classname="TinyTests.ArithmeticTests" name="addsTwoNumbers()" time="0.001">
                <failure message="Expectation failed: (Arithmetic.add(2, 3) &#8594; -1) == 5 (error)" />
                </testcase></testsuite></testsuites>
                """)
            // A failure with no message, or only "failure", takes its line's; one with its own words keeps them.
            let log = "/x/LegacyTests.swift:6: error: LegacyTests.testAdd : XCTAssertEqual failed: (\"3\") is not equal to (\"-3\") - \n"
                + "/x/LegacyTests.swift:9: error: LegacyTests.testBare : XCTFail - bare\n"
                + "/x/LegacyTests.swift:12: error: LegacyTests.testOwn : the log's words\n"
            let report = TestRunReport.read(xunitPath: scratch.url.appendingPathComponent("r.xml"), log: log)
            #expect(report.cases.count == 5)
            #expect(report.failures.map(\.id) == ["TinyTests.LegacyTests/testAdd", "TinyTests.LegacyTests/testBare", "TinyTests.LegacyTests/testOwn",
                                                  "TinyTests.ArithmeticTests/addsTwoNumbers()"])
            #expect(report.failures.map(\.message) == [
                "XCTAssertEqual failed: (\"3\") is not equal to (\"-3\")",
                "XCTFail - bare",
                "its own words",
                "Expectation failed: (Arithmetic.add(2, 3) → -1) == 5 (error)",
            ])
        }
    }
}

extension TestRunReportTests {
    /// A case's failure counts wherever it comes among the case's children
    /// (after its captured output, say), and one case is one result.
    @Test func aFailureAfterOtherChildrenOfItsCaseStillFailsIt() {
        let xml = """
            <testsuites><testsuite name="T">
            <testcase classname="M.S" name="a()"><system-out>log</system-out><failure message="boom"/></testcase>
            <testcase classname="M.S" name="b()"/>
            </testsuite></testsuites>
            """
        let cases = XUnitReader.parse(Data(xml.utf8))
        #expect(cases.map(\.id) == ["M.S/a()", "M.S/b()"])
        #expect(cases.map(\.failed) == [true, false])
        #expect(cases.first?.message == "boom")
        let twice = XUnitReader.parse(Data(#"<testsuite><testcase classname="M.S" name="a()"><failure message="first"/><error message="second"/></testcase></testsuite>"#.utf8))
        #expect(twice.map(\.message) == ["first"], "a case with two failures keeps the first one's message")
    }

    /// XCTest's xunit says only "failure" for a case whose process died; the
    /// report calls it a crash only when the log shows one.
    @Test func aBareFailureIsCalledACrashOnlyWhenTheLogShowsOne() throws {
        try withScratch { scratch in
            try scratch.write("r.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites><testsuite name="TestResults" tests="1" failures="1">
                <testcase classname="TinyTests.LegacyTests" name="testAdd" time="0.01"><failure message="failure"></failure></testcase>
                </testsuite></testsuites>
                """)
            let xunit = scratch.url.appendingPathComponent("r.xml")
            let plain = TestRunReport.read(xunitPath: xunit, log: "Test Suite 'All tests' failed\n")
            #expect(plain.failures.map(\.message) == ["failure"])
            #expect(plain.crashedTest == nil)
            #expect(plain.crashSummary == nil, "no crash, no crash summary")
            let crashed = TestRunReport.read(xunitPath: xunit, log: "Tiny/Arithmetic.swift:4: Fatal error: boom\n")
            #expect(crashed.failures.map(\.message) == ["crash: Tiny/Arithmetic.swift:4: Fatal error: boom"])
            #expect(crashed.crashSummary == "Tiny/Arithmetic.swift:4: Fatal error: boom", "a runtime message alone is a crash")
            // A process line alone (no runtime message) is a crash too.
            let died = TestRunReport.read(
                xunitPath: xunit, log: "error: Process '/p/T.xctest TinyTests.LegacyTests/testAdd' exited with unexpected signal code 11\n")
            #expect(died.failures.map(\.message) == ["crash: the test process crashed (signal 11)"])
            #expect(died.crashedTest == "TinyTests.LegacyTests/testAdd")
        }
    }

    /// A crash rewrites only the bare "failure": a passing case stays
    /// without a message and a failure with its own message keeps it.
    @Test func aCrashRewritesOnlyBareFailures() throws {
        try withScratch { scratch in
            try scratch.write("r.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites><testsuite name="TestResults" tests="3" failures="2">
                <testcase classname="TinyTests.LegacyTests" name="testAdd"><failure message="failure"></failure></testcase>
                <testcase classname="TinyTests.LegacyTests" name="testOwn"><failure message="XCTAssertTrue failed"></failure></testcase>
                <testcase classname="TinyTests.LegacyTests" name="testPasses"/>
                </testsuite></testsuites>
                """)
            let report = TestRunReport.read(xunitPath: scratch.url.appendingPathComponent("r.xml"), log: "A.swift:1: Fatal error: boom\n")
            #expect(report.cases.map(\.message) == ["crash: A.swift:1: Fatal error: boom", "XCTAssertTrue failed", nil])
        }
    }
}

struct EventStreamTests {
    @Test func namesTheFailingAndTheCrashedTestWhenNoXunitWasWritten() throws {
        try withScratch { scratch in
            func event(_ kind: String, _ id: String, _ extra: String = "") -> String {
                "{\"kind\":\"event\",\"payload\":{\"kind\":\"\(kind)\",\"testID\":\"\(id)\"\(extra)},\"version\":\"6.3.0\"}"
            }
            let lines = [
                "{\"kind\":\"test\",\"payload\":{\"id\":\"M.Suite\",\"kind\":\"suite\",\"name\":\"Suite\"},\"version\":\"6.3.0\"}",
                // A test function is declared too: it is not a suite, its start counts.
                "{\"kind\":\"test\",\"payload\":{\"id\":\"M.Suite/fails()/A.swift:3:6\",\"kind\":\"function\",\"name\":\"fails()\"},\"version\":\"6.3.0\"}",
                event("testStarted", "M.Suite"),
                event("testStarted", "M.Suite/fails()/A.swift:3:6"),
                event("issueRecorded", "M.Suite/fails()/A.swift:3:6",
                      ",\"issue\":{\"isFailure\":true,\"isKnown\":false},\"messages\":[{\"symbol\":\"fail\",\"text\":\"Expectation failed: 1 == 2\"}]"),
                event("testEnded", "M.Suite/fails()/A.swift:3:6"),
                event("testStarted", "M.Suite/crashes()/A.swift:9:6"),
            ]
            try scratch.write("e.jsonl", lines.joined(separator: "\n") + "\n")
            let report = TestRunReport.read(xunitPath: scratch.url.appendingPathComponent("missing.xml"),
                                            eventStream: scratch.url.appendingPathComponent("e.jsonl"), log: nil)
            #expect(report.failures.map(\.id) == ["M.Suite/fails()"])
            #expect(report.failures.first?.message == "Expectation failed: 1 == 2")

            try scratch.write("crash.jsonl", lines.prefix(4).joined(separator: "\n") + "\n")
            let crash = TestRunReport.read(xunitPath: scratch.url.appendingPathComponent("missing.xml"),
                                           eventStream: scratch.url.appendingPathComponent("crash.jsonl"), log: nil)
            #expect(crash.failures.isEmpty)
            #expect(crash.crashedTest == "M.Suite/fails()", "the test that started last and never ended")
        }
    }

    @Test func aTestIdIsItsPathWithoutTheSourceLocation() {
        #expect(EventStreamReader.testID("M.Suite/adds()/A.swift:3:6") == "M.Suite/adds()")
        #expect(EventStreamReader.testID("M.Suite/adds()") == "M.Suite/adds()")
        #expect(EventStreamReader.testID("A.swift:3:6") == "A.swift:3:6", "a bare location is all the id there is")
    }

    @Test func aProcessLineThatNamesNoTestBlamesNone() {
        let log = "error: Process '/p/.build/debug/TinyPackageTests.xctest --list-tests' exited with unexpected signal code 11\n"
        #expect(CrashLog(log: log).crashedXCTests.isEmpty, "'--list-tests' is an argument, not a test")
        let binary = "error: Process '/p/.build/debug/TinyPackageTests/runner' exited with unexpected signal code 11\n"
        #expect(CrashLog(log: binary).crashedXCTests.isEmpty, "a process line with the binary alone names no test")
        #expect(CrashLog(log: log).signal == 11)
        let twice = "error: Process 'x.xctest T.A/testOne' exited with unexpected signal code 4\nerror: Process 'x.xctest T.B/testTwo' exited with unexpected signal code 11\n"
        #expect(CrashLog(log: twice).signal == 4, "the first crash's signal, not a later one's")
        #expect(CrashLog(log: "*** Signal 11: Backtracing from 0x1...\n" + twice).signal == 11, "the backtracer's line came first")
        #expect(CrashLog(log: twice + "*** Signal 6: Backtracing from 0x1...\n").signal == 4)
        #expect(TestRunReport.read(xunitPath: URL(fileURLWithPath: "/nonexistent/none.xml"), log: log).crashedTest == nil)
        let both = TestRunReport.read(xunitPath: URL(fileURLWithPath: "/nonexistent/none.xml"), log: twice)
        #expect(both.crashedTest == "T.A/testOne", "the first process that crashed is blamed")
        #expect(both.unfinished == ["T.B/testTwo"])
    }
}

extension ClassifierTests {
    /// A baseline (or a schema's check) is green when its process exited 0,
    /// no test failed and some test ran; a line of the run's output says
    /// how one that is not went.
    @Test func aRunIsGreenOnlyWhenItExitedWellWithTestsAndNoFailure() {
        func run(_ termination: ProcessTermination) -> ProcessResult { ProcessResult(termination: termination, seconds: 1) }
        let passed = report([], passed: ["a"])
        #expect(Lab.isGreen(run(.exited(0)), passed))
        #expect(!Lab.isGreen(run(.exited(1)), passed), "a runner that failed though every test passed")
        #expect(!Lab.isGreen(run(.exited(0)), report(["b"], passed: ["a"])), "a runner that exited 0 though a test failed")
        #expect(!Lab.isGreen(run(.exited(0)), report([], passed: [])), "no test ran")

        #expect(Lab.failureSummary(run(.exited(1)), report(["a", "b", "c", "d"], passed: [])) == "failing: a, b, c and 1 more")
        #expect(Lab.failureSummary(run(.timedOut), passed) == "past its time limit")
        #expect(Lab.failureSummary(run(.signalled(9)), passed) == "killed by signal 9")
        #expect(Lab.failureSummary(run(.exited(3)), passed) == "exit code 3")
        #expect(Lab.failureSummary(run(.exited(0)), report([], passed: [])) == "no test ran")
        #expect(Lab.failureSummary(run(.stoppedEarly), passed) == "stopped early")
    }
}

extension TestRunReportTests {
    /// A case with no class (the classname missing or empty) is known by its name alone, not as "/name".
    @Test func aCaseWithoutAClassIsKnownByItsNameAlone() {
        let cases = XUnitReader.parse(Data(#"<testsuite><testcase name="lonely()"/><testcase classname="" name="bare()"/></testsuite>"#.utf8))
        #expect(cases.map(\.id) == ["lonely()", "bare()"])
    }
}

extension ClassifierTests {
    /// The reason quotes the first failure's message as the reports show it:
    /// Swift Testing's " (error)" marker is dropped.
    @Test func theReasonQuotesTheFailureMessageCleaned() {
        let failed = TestCaseResult(id: "S/a()", className: "S", name: "a()", failed: true, message: "Expectation failed: x == 1 (error)")
        let verdict = Classifier.classify(termination: .exited(1), report: TestRunReport(cases: [failed]))
        #expect(verdict.reason == "S/a(): Expectation failed: x == 1")
    }
}
