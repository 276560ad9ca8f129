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
    /// Every test of the scripted package reaches `add`; each takes 0.05 s
    /// alone and the first wave's budget is 0.01 s, so the first wave is
    /// one test and the second the other two. A wave that kills the mutant
    /// ends its runs; a survivor runs both and its verdict is theirs
    /// together; `--all-tests` runs every test at once.
    @Test(arguments: [false, true])
    func theCoveringTestsRunInWavesUntilOneKills(allTests: Bool) throws {
        let swapped = try mutant("swaps", line: 4, "        a + b", "        b + a")
        let subtracts = try mutant("subtracts", line: 4, "        a + b", "        a - b")
        let (report, runner, _, logs) = try run(allTests: allTests, mutants: [subtracts, swapped], configure: { runner in
            runner.reaches = ["T.Suite/adds()": ["add"], "T.Suite/other()": ["add"], "Other.Suite/unrelated()": ["add"]]
        }, lab: { $0.firstWaveSeconds = 0.01 })
        defer { try? FileManager.default.removeItem(at: logs) }
        let all = ["Other.Suite/unrelated()", "T.Suite/adds()", "T.Suite/other()"]
        let runs = Array(runner.binaryRuns.dropFirst(3)) // after the coverage pass's three
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        let killed = try #require(byName["subtracts"]), survivor = try #require(byName["swaps"])
        #expect(killed.status == .killed && killed.killedBy == ["T.Suite/adds()"])
        #expect(survivor.status == .survived)
        #expect(Set(survivor.coveredBy ?? []) == Set(all))
        if allTests {
            #expect(runs.map(Set.init) == [Set(all), Set(all)], "one run of every test for each mutant: \(runs)")
            #expect(!(try log("swaps", in: logs)).contains("wave"))
            return
        }
        // The fastest first (all alike: by id).
        #expect(runs == [["Other.Suite/unrelated()"], ["T.Suite/adds()", "T.Suite/other()"], ["Other.Suite/unrelated()"], ["T.Suite/adds()", "T.Suite/other()"]],
                "each mutant: the first wave, then the rest: \(runs)")
        #expect(abs(killed.testSeconds - 0.1) < 1e-9, "both of its waves' time: \(killed.testSeconds)")
        let swapsLog = try log("swaps", in: logs)
        for (wave, count, tests) in [(1, 1, "Other.Suite/unrelated()"), (2, 2, "T.Suite/adds() T.Suite/other()")] {
            let said = #"mutate: wave \#(wave) of 2, fastest first: \#(count) test\(s\), 0\.\ds alone\nmutate: running the \#(count) test\(s\) that reach this mutant: "#
            #expect(swapsLog.range(of: said + NSRegularExpression.escapedPattern(for: tests) + "\n", options: .regularExpression) != nil, "\(swapsLog)")
        }
        let swapsResults = try #require(report.mutants.first { $0.name == "swaps" })
        #expect(abs(swapsResults.testSeconds - 0.1) < 1e-9, "both waves' time")
    }
}
