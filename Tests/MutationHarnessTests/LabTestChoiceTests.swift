import Foundation
import Testing
@testable import MutationHarness

/// Which tests a mutant runs, and in what order: a module no test target
/// links, suites named after its file, its targets' tests first, XCTest
/// tests after the Swift Testing ones, no coverage pass at all.
extension LabCoverageTests {
    /// A mutant of a module no test target links, which no test ran: the
    /// whole suite runs for it through `swift test`, and its log says why.
    /// With the module unknown, the tests outside its targets run.
    @Test(arguments: ["Sources/Nowhere", nil] as [String?])
    func aMutantOfAModuleNoTargetLinksRunsTheTestsThatCouldRunIt(module: String?) throws {
        let (report, runner, _, logs) = try run(mutants: [try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1")],
                                                lab: { lab in
                                                    lab.testTargets = { _ in ["Nowhere"] }
                                                    lab.mutatedModule = { _ in module }
                                                })
        defer { try? FileManager.default.removeItem(at: logs) }
        let zero = try #require(report.mutants.first)
        #expect(zero.status == .survived, "\(zero)")
        let passes = 3 // the coverage pass runs each test alone
        if module == nil {
            #expect(runner.binaryRuns.dropFirst(passes).map(Set.init) == [["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"]],
                    "every test, outside the targets that link it: \(runner.binaryRuns)")
        } else {
            #expect(runner.binaryRuns.count == passes, "no test by the executable: \(runner.binaryRuns)")
            #expect(try log("zero-one", in: logs).contains("mutate: the whole suite runs for this mutant: "))
            #expect(runner.filters.last == "", "the whole suite, through swift test")
        }
    }

    /// A module no test target links (an executable's, say): every test
    /// that ran its code is a candidate, not only those of a target.
    @Test func aModuleNoTestTargetLinksRunsEveryTestThatRanIt() throws {
        let (report, runner, _, logs) = try run(mutants: [try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1")],
                                                configure: { $0.reaches["Other.Suite/unrelated()"] = ["add"] },
                                                lab: { lab in
                                                    lab.testTargets = { _ in [] }
                                                    lab.mutatedModule = { _ in "Sources/Tiny" }
                                                })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.mutants.first?.reason == "all 3 tests passed", "\(String(describing: report.mutants.first))")
        #expect(runner.binaryRuns.dropFirst(3).map(Set.init) == [Set(Self.allTests)], "\(runner.binaryRuns)")
    }

    /// With two jobs, patches (no schema) are each applied and built, never
    /// run as a switch of a schema there is none of.
    @Test func withTwoJobsAPatchIsStillAppliedAndBuilt() throws {
        let (report, _, _, logs) = try run(configureLab: { $0.jobs = 2 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.mutants.map(\.status) == [.killed, .noCoverage, .survived], "\(report.mutants.map(\.status))")
        #expect((report.mutants.first?.buildSeconds ?? 0) > 0, "a patch is built")
    }

    /// With `--no-coverage` there is no pass: no profile is asked of the
    /// suite, no test executable started, every mutant runs its tests.
    @Test func withoutCoverageNoPassRunsAndNoProfileIsLeft() throws {
        let (report, runner, output, logs) = try run(configureLab: { $0.coverage = false })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(!output.contains("Measuring which tests reach which code"), "\(output)")
        #expect(report.mutants.allSatisfy { $0.coveredBy == nil })
        #expect(runner.binaryRuns.isEmpty)
        #expect(report.mutants.map(\.status) == [.killed, .survived, .survived], "idle-two is run, not NoCoverage")
    }

    /// When the suites named after the mutant's file hold every covering
    /// test, they run once, as all of them: there is no second run of none.
    @Test func ownSuitesThatAreAllTheCoveringTestsRunOnce() throws {
        let (report, runner, _, logs) = try run(mutants: [try mutant("adds-zero", line: 4, "        a + b", "        a + b + 0")],
                                                lab: { $0.ownSuites = { tests, _ in tests } })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.mutants.first?.status == .survived, "\(String(describing: report.mutants.first))")
        #expect(runner.binaryRuns.dropFirst(3) == [["T.Suite/adds()"]], "\(runner.binaryRuns)")
    }

    /// A mutant the map cannot place runs the tests of the targets that
    /// link its module first: when they kill it, the others never run, and
    /// its log says nothing of them.
    @Test(arguments: [false, true])
    func theTargetsTestsThatKillAMutantEndItsRun(anotherTestRunsTheModule: Bool) throws {
        let noted = try mutant("zero-noted", line: 6, "    public static let zero = 0", "    public static let zero = 0 // a - b")
        let (report, runner, _, logs) = try run(mutants: [noted], configure: { runner in
            if anotherTestRunsTheModule { runner.reaches["Other.Suite/unrelated()"] = ["add"] }
        }, lab: { lab in
            lab.testTargets = { _ in ["T"] }
            lab.mutatedModule = { _ in "Sources/Tiny" }
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.mutants.first?.status == .killed, "\(String(describing: report.mutants.first))")
        #expect(!runner.binaryRuns.dropFirst(3).contains { $0.contains("Other.Suite/unrelated()") }, "\(runner.binaryRuns)")
        let text = try log("zero-noted", in: logs)
        #expect(!text.contains("no other test ran code of the mutated module"), "\(text)")
        #expect(!text.contains("did not kill it"), "\(text)")
    }

    /// A program a test starts with an environment of its own writes its
    /// profile into the copy: the baseline takes it out of the copy even
    /// when there is no test executable to measure with.
    @Test func aStrayProfileIsTakenOutOfTheCopyWithoutATestExecutable() throws {
        let (report, _, output, logs) = try run(configure: { runner in
            runner.makesTestBinary = false
            runner.strayReaches = ["T.Suite/other()": ["idle"]]
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("no test executable to start directly"), "\(output)")
        #expect(report.mutants.count == 3, "the helper checks that no default.profraw is left in the copy")
    }

    /// XCTest tests among a mutant's covering tests run by name after the
    /// Swift Testing ones, unless those killed it; the verdict and its
    /// killer are those of the run that decided; XCTest tests alone start
    /// no Swift Testing run (which, with no filter, would run every test).
    @Test(arguments: ["the XCTest test kills it", "the Swift Testing test kills it", "only XCTest tests reach it"])
    func xctestTestsRunAfterTheSwiftTestingOnesUnlessTheyKilled(scenario: String) throws {
        let (report, runner, _, logs) = try run(mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b")], configure: { runner in
            runner.xctestTests = ["Other.Suite/unrelated()"]
            runner.reaches["Other.Suite/unrelated()"] = ["add"]
            switch scenario {
            case "the XCTest test kills it":
                runner.reaches["T.Suite/adds()"] = []
                runner.reaches["T.Suite/other()"] = ["add"]
                runner.xctestFailingOnMinus = ["Other.Suite/unrelated()"]
            case "only XCTest tests reach it":
                runner.reaches["T.Suite/adds()"] = []
                runner.xctestFailingOnMinus = ["Other.Suite/unrelated()"]
            default:
                break
            }
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        let subtracts = try #require(report.mutants.first)
        #expect(subtracts.status == .killed, "\(subtracts)")
        let killer = scenario == "the Swift Testing test kills it" ? "T.Suite/adds()" : "Other.Suite/unrelated()"
        #expect(subtracts.killedBy == [killer], "\(subtracts)")
        #expect(!runner.binaryRuns.contains([]), "no run of every test unfiltered: \(runner.binaryRuns)")
        if scenario == "the Swift Testing test kills it" {
            #expect(runner.binaryRuns.last == ["T.Suite/adds()"], "the XCTest test never started: \(runner.binaryRuns)")
        }
    }

    /// The report names where each test is, from the baseline's events and the test files.
    @Test func theReportSaysWhereEachTestIs() throws {
        let (report, _, _, logs) = try run(files: ["Tests/T/SuiteTests.swift": "final class Suite {\n    func adds() {}\n}\n"])
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.testLocations?["T.Suite/adds()"] == TestLocation(file: "Tests/T/SuiteTests.swift", line: 2), "\(String(describing: report.testLocations))")
    }
}

/// A mutant's covering tests run in two waves, the fastest first (`TestWaves`).
extension LabCoverageTests {
    static let allTests = ["Other.Suite/unrelated()", "T.Suite/adds()", "T.Suite/other()"]

    /// `subtracts` (which `adds()` kills) and `swaps` (which no test kills),
    /// with `reach` the tests that run `add`; each test takes 0.05 s alone
    /// and the first wave's budget is 0.01 s, so the first wave is one test.
    func waves(reach: [String], allTests: Bool = false, lab more: @escaping (Lab) -> Void = { _ in })
        throws -> (subtracts: MutantResult, swaps: MutantResult, runs: [[String]], limits: [Double?], logs: URL)
    {
        let mutants = [try mutant("subtracts", line: 4, "        a + b", "        a - b"), try mutant("swaps", line: 4, "        a + b", "        b + a")]
        let (report, runner, _, logs) = try run(allTests: allTests, mutants: mutants, configure: { runner in
            runner.reaches = Dictionary(uniqueKeysWithValues: Self.allTests.map { ($0, reach.contains($0) ? ["add"] : []) })
        }, limits: (2, 1), lab: { lab in
            lab.firstWaveSeconds = 0.01
            more(lab)
        })
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        let subtracts = try #require(byName["subtracts"]), swaps = try #require(byName["swaps"])
        #expect(subtracts.status == .killed && subtracts.killedBy == ["T.Suite/adds()"])
        #expect(swaps.status == .survived && Set(swaps.coveredBy ?? []) == Set(reach))
        // After the coverage pass's three runs.
        return (subtracts, swaps, Array(runner.binaryRuns.dropFirst(3)), Array(runner.binaryLimits.dropFirst(3)), logs)
    }

    /// A wave that kills the mutant ends its runs; a survivor runs both, and
    /// its verdict is theirs together; each wave's limit is that of one run
    /// of all its tests (2 x 0.15 + 1 s).
    @Test func theCoveringTestsRunInWavesUntilOneKills() throws {
        var (subtracts, swaps, runs, limits, logs) = try waves(reach: Self.allTests)
        defer { try? FileManager.default.removeItem(at: logs) }
        // The fastest first (all alike: by id).
        #expect(runs == [["Other.Suite/unrelated()"], ["T.Suite/adds()", "T.Suite/other()"], ["Other.Suite/unrelated()"], ["T.Suite/adds()", "T.Suite/other()"]],
                "each mutant: the first wave, then the rest: \(runs)")
        #expect(limits.allSatisfy { abs(($0 ?? 0) - 1.3) < 1e-9 }, "each wave has the limit of all three tests: \(limits)")
        #expect(abs(subtracts.testSeconds - 0.1) < 1e-9 && abs(swaps.testSeconds - 0.1) < 1e-9, "both of their waves' time")
        #expect(swaps.reason == "all 3 tests passed", "both waves' tests: \(swaps.reason ?? "")")
        let swapsLog = try log("swaps", in: logs)
        #expect(swapsLog.contains("mutate: wave 1 of 2, fastest first: 1 test(s), 0.05s alone\n"
            + "mutate: running the 1 test(s) that reach this mutant: Other.Suite/unrelated()\n"), "\(swapsLog)")
        #expect(swapsLog.contains("mutate: wave 2 of 2, fastest first: 2 test(s), 0.10s alone\n"
            + "mutate: running the 2 test(s) that reach this mutant: T.Suite/adds() T.Suite/other()\n"), "\(swapsLog)")
        try FileManager.default.removeItem(at: logs)

        // The killer in the first wave: the second never starts.
        (subtracts, swaps, runs, limits, logs) = try waves(reach: ["T.Suite/adds()", "T.Suite/other()"])
        #expect(runs == [["T.Suite/adds()"], ["T.Suite/adds()"], ["T.Suite/other()"]], "\(runs)")
        #expect(abs(subtracts.testSeconds - 0.05) < 1e-9, "one wave's time")
        #expect(!(try log("subtracts", in: logs)).contains("wave 2"), "the kill ended its waves")
        try FileManager.default.removeItem(at: logs)

        // One wave (every test within the first's budget): no wave is said.
        (subtracts, swaps, runs, limits, logs) = try waves(reach: Self.allTests, lab: { $0.firstWaveSeconds = 1 })
        #expect(runs.map(Set.init) == [Set(Self.allTests), Set(Self.allTests)], "\(runs)")
        #expect(!(try log("swaps", in: logs)).contains("wave"))
    }

    /// The mutant's own suites and then the rest, each in its waves.
    @Test func theOwnSuitesAndTheRestEachRunInWaves() throws {
        let (_, swaps, runs, _, logs) = try waves(reach: Self.allTests, lab: { lab in
            lab.ownSuites = { tests, _ in tests.filter { $0.hasPrefix("T.Suite/") } }
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(runs == [["T.Suite/adds()"], ["T.Suite/adds()"], ["T.Suite/other()"], ["Other.Suite/unrelated()"]],
                "subtracts: its own suites' first wave kills it; swaps: own suites in two waves, then the one other test: \(runs)")
        #expect(swaps.reason == "all 3 tests passed")
    }

    /// A test that killed a generated mutant of a file runs first, on its
    /// own, for the file's later generated mutants when their first wave
    /// does not hold it. A mutant it does not kill runs its waves as before
    /// (its reason counts those, its time all three runs); one it kills
    /// runs nothing else. Named mutants never run one (the other tests of
    /// this suite: each runs its waves alone).
    @Test func aTestThatKilledAGeneratedMutantOfTheFileRunsFirstForTheNext() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: ["switch-1", "switch-2", "switch-3"], line: 4,
                                                  "        a + b", "        a - b", configureLab: { $0.jobs = 1 }, configure: { runner in
                runner.reaches = Dictionary(uniqueKeysWithValues: Self.allTests.map { ($0, ["add"]) })
            })
            lab.firstWaveSeconds = 0.01
            let report = try lab.run()
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
            #expect(byName["switch-1"]?.killedBy == ["T.Suite/adds()"] && byName["switch-3"]?.killedBy == ["T.Suite/adds()"], "odd switches break adds()")
            #expect(byName["switch-2"]?.status == .survived && byName["switch-2"]?.reason == "all 3 tests passed")
            #expect(abs((byName["switch-2"]?.testSeconds ?? 0) - 0.15) < 1e-9, "its three runs' time")
            #expect(Array(runner.binaryRuns.suffix(6)) == [
                ["Other.Suite/unrelated()"], ["T.Suite/adds()", "T.Suite/other()"],
                ["T.Suite/adds()"], ["Other.Suite/unrelated()"], ["T.Suite/adds()", "T.Suite/other()"],
                ["T.Suite/adds()"],
            ], "\(runner.binaryRuns)")
            let log = try String(contentsOf: lab.logs.appendingPathComponent("switch-2.log"), encoding: .utf8)
            #expect(log.contains("mutate: 1 test(s) that killed other mutants of its file(s) in this run run first, on their own\n"
                + "mutate: running the 1 test(s) that reach this mutant: T.Suite/adds()\n"), "\(log)")
            #expect(log.contains("mutate: they did not kill it; its tests run as usual\n"))
            let third = try String(contentsOf: lab.logs.appendingPathComponent("switch-3.log"), encoding: .utf8)
            #expect(third.contains("that killed other mutants of its file(s) in this run run first") && !third.contains("they did not kill it"),
                    "killed by its learned killer: \(third)")
        }
    }

    /// A learned killer that the first wave of the mutant's first stage
    /// holds anyway does not also run alone first.
    @Test func aLearnedKillerInTheFirstStagesFirstWaveRunsOnlyThere() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, runner) = try learnedKillersLab(in: scratch, output: output, ownSuites: "T.")
            let report = try lab.run()
            #expect(report.mutants.map(\.status) == [.killed, .survived], "\(output.text)")
            #expect(Array(runner.binaryRuns.suffix(4)) == [["T.Suite/adds()"], ["T.Suite/adds()"], ["T.Suite/other()"], ["Other.Suite/unrelated()"]],
                    "after the pass: switch-1's first wave; switch-2's two own waves, then the other test: \(runner.binaryRuns)")
            let log = try String(contentsOf: lab.logs.appendingPathComponent("switch-2.log"), encoding: .utf8)
            #expect(!log.contains("that killed other mutants"), "\(log)")
        }
    }

    /// `--all-tests` runs every covering test at once, in no waves.
    @Test func allTestsRunsNoWaves() throws {
        let (_, _, runs, _, logs) = try waves(reach: Self.allTests, allTests: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(runs.map(Set.init) == [Set(Self.allTests), Set(Self.allTests)], "one run of every test for each mutant: \(runs)")
        #expect(!(try log("swaps", in: logs)).contains("wave"))
    }

    /// A test that hangs in the first wave may be as quiet as the slowest
    /// test of the second could be beside it in one run: 0.5 s alone x 1 +
    /// 0.2 s, not its own 0.05 s x 1 + 0.2 s.
    @Test func aWaveMayBeAsQuietAsItsSlowestTestCouldBeInOneRun() throws {
        let (report, runner, _, logs) = try run(mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b")], configure: { runner in
            runner.reaches = Dictionary(uniqueKeysWithValues: Self.allTests.map { ($0, ["add"]) })
            runner.chosenHang = true
            runner.secondsAlone = ["T.Suite/other()": 0.5]
        }, limits: (1, 1), configureLab: { $0.stallConstant = 0.2 }, lab: { $0.firstWaveSeconds = 0.09 })
        defer { try? FileManager.default.removeItem(at: logs) }
        let subtracts = try #require(report.mutants.first)
        #expect(subtracts.status == .timeout)
        #expect(subtracts.reason?.hasSuffix("(it took 0.1s alone; the limit is 0.7s)") == true, "\(subtracts.reason ?? "")")
        #expect(runner.binaryRuns.dropFirst(3).map(Set.init) == [["Other.Suite/unrelated()", "T.Suite/adds()"]], "the second wave never starts: \(runner.binaryRuns)")
    }
}

extension LabCoverageTests {
    /// A Swift Testing test is placed where the baseline's event stream says
    /// it is (its `sourceLocation`), with no test file to scan.
    @Test func theReportPlacesASwiftTestingTestFromTheBaselinesEvents() throws {
        let (report, _, _, logs) = try run(lab: { lab in
            guard let runner = lab.runner as? ScriptedRunner else {
                Issue.record("the scripted runner")
                return
            }
            let events = lab.results.appendingPathComponent("baseline.jsonl")
            let file = lab.workspace.root.standardizedFileURL.path + "/Tests/T/SuiteTests.swift"
            let record = #"{"kind":"test","payload":{"kind":"function","id":"T.Suite/adds()/SuiteTests.swift:7:6","name":"adds()","sourceLocation":{"filePath":""#
                + file + #"","line":7,"column":6}}}"#
            // The baseline's `swift test` (the first) records the test in its event stream, as Swift Testing does.
            runner.onRun = { [unowned runner] in
                if runner.calls.last?.command == "test", !FileManager.default.fileExists(atPath: events.path) {
                    try? Data((record + "\n").utf8).write(to: events)
                }
            }
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.testLocations?["T.Suite/adds()"] == TestLocation(file: "Tests/T/SuiteTests.swift", line: 7),
                "\(String(describing: report.testLocations))")
    }
}

extension LabCoverageTests {
    /// The lab of the learned killers' tests: `switch-1` and `switch-2` on
    /// `a + b` (odd switches break adds()), every test reaching `add`, first
    /// waves of 0.01 s alone, and the suites whose names start with
    /// `ownSuites` as the mutants' own.
    func learnedKillersLab(in scratch: Scratch, output: OutputBox, ownSuites prefix: String,
                           configureLab: (inout LabConfiguration) -> Void = { $0.jobs = 1 }) throws -> (lab: Lab, runner: ScriptedRunner)
    {
        let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: ["switch-1", "switch-2"], line: 4,
                                              "        a + b", "        a - b", configureLab: configureLab, configure: { runner in
            runner.reaches = Dictionary(uniqueKeysWithValues: Self.allTests.map { ($0, ["add"]) })
        })
        lab.firstWaveSeconds = 0.01
        lab.ownSuites = { tests, _ in tests.filter { $0.hasPrefix(prefix) } }
        return (lab, runner)
    }

    /// A learned killer's run has the time limit of one run of the stages it
    /// belongs to, not of every stage: here of T.Suite's two tests
    /// (0.10 s alone x 20 + 1 s = 3 s), not of all three (4 s).
    @Test func aLearnedKillersRunHasTheLimitOfTheStageItBelongsTo() throws {
        try withScratch { scratch in
            let output = OutputBox()
            // Other.Suite's test is the mutants' own suite and runs first; T.Suite's two are the second stage, where adds() kills switch-1.
            let (lab, _) = try learnedKillersLab(in: scratch, output: output, ownSuites: "Other.") { configuration in
                configuration.jobs = 1
                configuration.timeoutMultiplier = 20
                configuration.timeoutConstant = 1
            }
            let report = try lab.run()
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
            #expect(byName["switch-1"]?.killedBy == ["T.Suite/adds()"] && byName["switch-2"]?.status == .survived, "\(output.text)")
            let log = try String(contentsOf: lab.logs.appendingPathComponent("switch-2.log"), encoding: .utf8)
            #expect(log.contains("mutate: 1 test(s) that killed other mutants of its file(s) in this run run first, on their own\n"
                + "mutate: running the 1 test(s) that reach this mutant: T.Suite/adds()\n"
                + "mutate: Swift Testing, 1 test(s), time limit 3s\n"), "\(log)")
        }
    }
}

extension LabCoverageTests {
    /// A learned killer slower alone than the budget does not run first:
    /// the mutant's tests run as usual, with the same verdicts.
    @Test func aLearnedKillerOverTheBudgetWaitsForItsWave() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _) = try learnedKillersLab(in: scratch, output: output, ownSuites: "Other.")
            lab.learnedKillerSeconds = 0.04
            let report = try lab.run()
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
            #expect(byName["switch-1"]?.killedBy == ["T.Suite/adds()"] && byName["switch-2"]?.status == .survived, "\(output.text)")
            let log = try String(contentsOf: lab.logs.appendingPathComponent("switch-2.log"), encoding: .utf8)
            #expect(!log.contains("that killed other mutants"), "adds() takes 0.05 s alone, over 0.04 s: \(log)")
            #expect(log.contains("mutate: the 1 test(s) of the suites named after its file(s) run first\n"), "\(log)")
        }
    }
}

extension LabCoverageTests {
    /// A mutant that survives its first wave and hangs in the second keeps
    /// the second run's verdict: its reason names the test that hung, not
    /// the bare time limit.
    @Test func aStallInTheSecondWaveIsReportedWithTheTestThatHung() throws {
        let (report, runner, _, logs) = try run(mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b")], configure: { runner in
            runner.reaches = Dictionary(uniqueKeysWithValues: Self.allTests.map { ($0, ["add"]) })
            runner.chosenHang = true
        }, configureLab: { $0.stallConstant = 0.2 }, lab: { $0.firstWaveSeconds = 0.01 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(Array(runner.binaryRuns.dropFirst(3)) == [["Other.Suite/unrelated()"], ["T.Suite/adds()", "T.Suite/other()"]],
                "the first wave passes, the second hangs: \(runner.binaryRuns)")
        let subtracts = try #require(report.mutants.first)
        #expect(subtracts.status == .timeout)
        #expect(subtracts.reason?.hasPrefix("T.Suite/adds() hung: no test started or ended for 0.") == true, "\(subtracts.reason ?? "")")
    }
}
