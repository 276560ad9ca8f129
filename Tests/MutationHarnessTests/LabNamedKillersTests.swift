import Foundation
import Testing
@testable import MutationHarness

/// The gate's named mutants whose files name the tests that kill them
/// (`Killed-By:`): those tests run first, alone, by the mutant's switch.
extension LabCoverageTests {
    /// Killed by the test its file names, the mutant needs no coverage
    /// pass: one test process in all after the suite. With `--all-tests`
    /// (every killing test wanted) the pass runs as before.
    @Test func aMutantKilledByTheTestItsFileNamesNeedsNoCoveragePass() throws {
        let subtracts = try mutant("subtracts", line: 4, "        a + b", "        a - b", killedBy: "T.Suite/adds()")
        let (report, runner, output, logs) = try run(mutants: [subtracts], configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        let result = try #require(report.mutants.first)
        #expect(result.status == .killed && result.killedBy == ["T.Suite/adds()"], "\(output)")
        #expect(runner.binaryRuns == [["T.Suite/adds()"], ["T.Suite/adds()"]], "its test alone, the control, and no test alone for a pass")
        #expect(runner.calls.filter { $0.command == "test" }.count == 1, "the suite runs once, as the baseline; the mutant never again")
        #expect(output.components(separatedBy: "subtracts").count == 2, "one line for the mutant, its verdict: \(output)")
        #expect(output.contains("every named mutant was killed by the tests its file names: no coverage pass"), "\(output)")
        #expect(!output.contains("Measuring which tests reach"), "\(output)")
        #expect(output.contains("progress 1/1 (100%), 1 of 1 detected"), "\(output)")
        #expect(output.contains("Running the tests that 1 named mutant file(s) say kill them (Killed-By), each mutant by its switch..."), "\(output)")
        let log = try String(contentsOf: logs.appendingPathComponent("subtracts.log"), encoding: .utf8)
        #expect(log.contains("the test(s) its file names (Killed-By) run first"), "\(log)")
        #expect(log.contains("the control: the same tests, alone, with every switch off"), "\(log)")
        #expect(log.contains(String(format: "1 test(s), time limit %.0fs", report.testTimeoutSeconds)), "the whole suite's limit: \(log)")
        #expect(result.coveredBy == ["T.Suite/adds()"], "the tests run for it")

        let all = try run(allTests: true, mutants: [subtracts], configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: all.logs) }
        #expect(all.output.contains("Measuring which tests reach"), "\(all.output)")
        #expect(all.report.mutants.first?.killedBy == ["T.Suite/adds()"])
        #expect(all.runner.binaryRuns.count == 4, "the pass's three tests alone, then the covering test: \(all.runner.binaryRuns)")
        #expect(!all.output.contains("Killed-By"), "no advice on killers where they are not used: \(all.output)")

        let unnamed = try run(mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b")], configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: unnamed.logs) }
        #expect(unnamed.output.contains("1 named mutant file(s) name no test that kills them (such as mutants/subtracts.patch: T.Suite/adds()): "
            + "with a `Killed-By:` line in each, the gate runs those tests first and needs no coverage pass"), "\(unnamed.output)")
    }

    /// A named test that does not kill the mutant, or that the suite does
    /// not have, changes nothing: the pass runs and chooses the tests as if
    /// the header were not there, and the verdicts are the usual ones.
    @Test func aMutantItsNamedTestsDoNotKillGetsTheTestsThePassChooses() throws {
        let (report, runner, output, logs) = try run(mutants: [
            try mutant("subtracts", line: 4, "        a + b", "        a - b", killedBy: "T.Suite/other()"),
            try mutant("idle-two", line: 8, "        1", "        2", killedBy: "T.Suite/gone()"),
        ], configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        #expect(byName["subtracts"]?.status == .killed && byName["subtracts"]?.killedBy == ["T.Suite/adds()"], "\(output)")
        #expect(byName["subtracts"]?.coveredBy == ["T.Suite/adds()"])
        #expect(byName["idle-two"]?.status == .noCoverage, "\(output)")
        #expect(output.contains("mutants/idle-two.patch: Killed-By names T.Suite/gone(), which the suite does not have"), "\(output)")
        #expect(output.contains("Measuring which tests reach"), "\(output)")
        #expect(runner.binaryRuns.first == ["T.Suite/other()"] && runner.binaryRuns.last == ["T.Suite/adds()"], "\(runner.binaryRuns)")
        #expect(runner.binaryRuns.count == 5, "the named test, the pass's three, the covering one: \(runner.binaryRuns)")
        #expect(output.components(separatedBy: "subtracts: building and testing").count == 2, "announced once, in the loop: \(output)")
        let log = try String(contentsOf: logs.appendingPathComponent("subtracts.log"), encoding: .utf8)
        #expect(log.contains("they did not kill it (survived); the tests the coverage pass chooses run"), "\(log)")
        #expect(log.components(separatedBy: "switched on in the mutant schema").count == 2, "the log goes on: \(log)")
        #expect(output.contains("mutants/subtracts.patch: the tests its Killed-By names did not kill it; T.Suite/adds() did"), "\(output)")
        #expect(!output.contains("name no test that kills them"), "both files name a test, if not the one that kills: \(output)")

        let gone = try run(mutants: [try mutant("idle-two", line: 8, "        1", "        2", killedBy: "T.Suite/gone()")],
                           configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: gone.logs) }
        #expect(!gone.output.contains("Running the tests that"), "no named test the suite has: nothing to run first: \(gone.output)")
    }

    /// A mutant killed with no test to name (its process died after every
    /// test passed) gets no advice: there is no killer to name in a
    /// `Killed-By:` line, and it is not counted among the files that could.
    @Test func aKillWithNoTestToNameGetsNoAdvice() throws {
        let (report, _, output, logs) = try run(mutants: [
            try mutant("subtracts", line: 4, "        a + b", "        a - b"),
            try mutant("idle-two", line: 8, "        1", "        2"),
        ], configure: { $0.reaches["T.Suite/other()"] = ["idle"]; $0.diesSilentlyUnderSwitch = 2 },
           configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        #expect(byName["idle-two"]?.status == .killed && byName["idle-two"]?.killedBy == [], "\(output)")
        #expect(output.contains("1 named mutant file(s) name no test that kills them (such as mutants/subtracts.patch: T.Suite/adds())"),
                "the mutant no test killed is not counted: \(output)")
    }

    /// The progress counts from when the named tests began (not from the
    /// lab's making), and the coverage pass after them counts too; a
    /// mutant they settled gets no advice on its Killed-By.
    @Test func theProgressCountsFromTheNamedTestsOn() throws {
        let (_, _, output, logs) = try run(mutants: [
            try mutant("subtracts", line: 4, "        a + b", "        a - b", killedBy: "T.Suite/adds()"),
            try mutant("idle-two", line: 8, "        1", "        2"),
            try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1"),
        ], configureLab: { $0.schema = true; $0.jobs = 1 }, lab: { lab in
            // As if the copy and the baseline took two hours, and then the coverage pass two more.
            lab.loopStart = Date(timeIntervalSinceNow: -7200)
            let find = lab.findLLVM
            lab.findLLVM = { [unowned lab] swift in
                lab.loopStart = Date(timeIntervalSinceNow: -7200)
                return find(swift)
            }
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        let left = output.split(separator: "\n").filter { $0.hasPrefix("  progress ") }.map { String($0.split(separator: " ").dropLast().last ?? "") }
        #expect(left.count == 3 && left[0].hasSuffix("s"), "subtracts, settled: seconds since the named tests began: \(left)")
        #expect(left.count == 3 && left[1].hasPrefix("1h"), "idle-two: two hours for two mutants, one to go: \(left)")
        #expect(!output.contains("did not kill it"), "\(output)")
    }

    /// Mutants whose files name the same tests share one control run of
    /// them; the second's log says so, and the warning is given once.
    @Test func mutantsThatNameTheSameTestsShareOneControl() throws {
        let (_, _, output, logs) = try run(mutants: [
            try mutant("subtracts", line: 4, "        a + b", "        a - b", killedBy: "T.Suite/other()"),
            try mutant("idle-two", line: 8, "        1", "        2", killedBy: "T.Suite/other()"),
        ], configure: { $0.failsAlone = "T.Suite/other()" }, configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        let second = try String(contentsOf: logs.appendingPathComponent("idle-two.log"), encoding: .utf8)
        #expect(second.contains("mutate: the same tests passed alone with every switch off (checked for another mutant): false"), "\(second)")
        #expect(!second.contains("the control: the same tests, alone"), "\(second)")
        #expect(output.components(separatedBy: "do(es) not pass alone with every switch off").count == 2, "said once: \(output)")
    }

    /// A named test that fails alone whatever the switches (it needs another
    /// test first) settles nothing: its control fails too, which is said,
    /// and the mutant gets the tests it would get without the header.
    @Test func aNamedTestThatFailsWithoutTheMutantTooSettlesNothing() throws {
        let (report, runner, output, logs) = try run(
            mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b", killedBy: "T.Suite/other()")],
            configure: { $0.failsAlone = "T.Suite/other()" }, configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(runner.binaryRuns.prefix(2) == [["T.Suite/other()"], ["T.Suite/other()"]], "the mutant's run and its control: \(runner.binaryRuns)")
        #expect(output.contains("T.Suite/other() (Killed-By of mutants/subtracts.patch) do(es) not pass alone with every switch off (killed): "
            + "it settles nothing, and the mutant runs the tests the coverage pass chooses"), "\(output)")
        #expect(output.contains("Measuring which tests reach"), "not settled: the pass runs (and stops on the test that fails alone): \(output)")
        #expect(report.mutants.first?.status == .killed, "killed by the whole suite: \(output)")
        let log = try String(contentsOf: logs.appendingPathComponent("subtracts.log"), encoding: .utf8)
        #expect(log.contains("they fail or hang without the mutant too: not its doing"), "\(log)")
    }

    /// An interrupt while a named test runs, by the mutant's switch (1) or as
    /// its control (2): exit by `interrupted`, the mutant pending in the
    /// reports, the schema out of the copy, no profile left behind.
    @Test(arguments: [1, 2])
    func anInterruptDuringTheNamedTestsLeavesTheMutantPendingAndTheCopyAsThePackage(at run: Int) throws {
        try withScratch { scratch in
            let (lab, configuration) = try interruptedLab(in: scratch, [try mutant("subtracts", line: 4, "        a + b", "        a - b", killedBy: "T.Suite/adds()")],
                                                          atBinaryRun: run, jobs: 1)
            #expect(throws: LabError.interrupted(signal: SIGINT)) { try lab.run() }
            let results = try ReportWriter.read(from: configuration.outputPath)
            #expect(results.mutants.map(\.status) == [.pending], "no verdict, and the reports are written")
            #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent(".mutate/suite-profile").path))
            #expect(try String(contentsOf: configuration.scratchPath.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                == Self.source, "the schema is out of the copy")
            #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent("Sources/Tiny/" + Schema.supportFileName).path))
        }
    }
}
