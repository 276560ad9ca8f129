import Foundation
import Testing
@testable import MutationHarness

/// The switch pass narrowing the tests of the mutants the coverage map
/// places: only the tests that ran a mutant's own switch run it.
extension LabCoverageTests {
    /// Five schema mutants in `add`, which both `T.Suite/adds()` and
    /// `T.Suite/other()` run, so the map gives each both tests. Alone,
    /// `adds()` runs switches 1 and 5, `other()` 1 and 2; switch 3 runs only
    /// with the tests together, switch 4 never. The odd switches fail `adds()`.
    func exploreNarrowed(in scratch: Scratch, output: OutputBox, narrowing: Bool = true, minimum: Int = 1,
                         configureLab: (inout LabConfiguration) -> Void = { _ in })
        throws -> (lab: Lab, configuration: LabConfiguration, runner: ScriptedRunner)
    {
        let names = (1...5).map { "narrow-\($0)" }
        let (lab, configuration, runner) = try exploreLab(in: scratch, output: output, names: names, line: 4, "        a + b", "        a - b",
                                                          configureLab: { $0.narrowing = narrowing; configureLab(&$0) }, configure: { runner in
            runner.reaches = ["T.Suite/adds()": ["add"], "T.Suite/other()": ["add"], "Other.Suite/unrelated()": []]
            runner.switchReaches = ["T.Suite/adds()": [1, 5], "T.Suite/other()": [1, 2]]
            runner.switchesUnderLoad = [3]
        })
        lab.switchPassMinimumMutants = minimum
        return (lab, configuration, runner)
    }

    /// A mutant runs only the map's tests that ran its switch (narrow-2 and
    /// narrow-5); a switch no test ran, alone or together, is `NoCoverage`
    /// (narrow-4); one that ran only with the tests together keeps the map's
    /// tests (narrow-3). The verdicts mean what the map's tests give them
    /// (`--no-narrowing`, the reference), where narrow-4 survives.
    @Test func theSwitchPassNarrowsTheMapsTestsToThoseThatRanTheSwitch() throws {
        let both = ["T.Suite/adds()", "T.Suite/other()"]
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, configuration, _) = try exploreNarrowed(in: scratch, output: output)
            let report = try lab.run()
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
            #expect(byName.mapValues(\.status) == ["narrow-1": .killed, "narrow-2": .survived, "narrow-3": .killed, "narrow-4": .noCoverage,
                                                   "narrow-5": .killed], "\(output.text)")
            #expect(byName["narrow-1"]?.coveredBy.map(Set.init) == Set(both))
            #expect(byName["narrow-2"]?.coveredBy == ["T.Suite/other()"])
            #expect(byName["narrow-3"]?.coveredBy.map(Set.init) == Set(both), "its switch ran only under load: the map's tests")
            #expect(byName["narrow-5"]?.coveredBy == ["T.Suite/adds()"])
            #expect(output.text.contains("Measuring which tests run the switches of the 0 mutant(s) the map cannot place and of the 5 it places (2 tests, each on its own)"),
                    "\(output.text)")
            #expect(output.text.contains("2 of the 5 mutant(s) the map places narrowed to the tests that ran their switch (2 tests in all, where the map gave them 4), "
                + "1 whose switch no test ran (NoCoverage)"), "\(output.text)")
            #expect(!output.text.contains("placed by the tests that ran their switch"), "none to place, no line of them: \(output.text)")
            let log = try String(contentsOf: configuration.outputPath.appendingPathComponent("logs/narrow-2.log"), encoding: .utf8)
            #expect(log.contains("the switch pass narrowed the coverage map's 2 test(s) to the 1 that ran this mutant's switch"), "\(log)")
            let none = try String(contentsOf: configuration.outputPath.appendingPathComponent("logs/narrow-4.log"), encoding: .utf8)
            #expect(none.contains("the switch pass narrowed the coverage map's 2 test(s) to the 0 that ran this mutant's switch")
                && none.contains("NoCoverage, no test run"), "\(none)")
        }
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, _) = try exploreNarrowed(in: scratch, output: output, narrowing: false)
            let report = try lab.run()
            #expect(Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0.status) })
                == ["narrow-1": .killed, "narrow-2": .survived, "narrow-3": .killed, "narrow-4": .survived, "narrow-5": .killed], "\(output.text)")
            #expect(report.mutants.allSatisfy { $0.coveredBy.map(Set.init) == Set(both) }, "every one runs the map's tests")
            #expect(!output.text.contains("Measuring which tests run the switches"), "no switch pass: \(output.text)")
        }
    }

    /// A narrowed mutant's runs get the time limits the map's tests would
    /// have given it: `T.Suite/other()` takes 3 s alone, so narrow-5's run
    /// of `T.Suite/adds()` (0.05 s) alone has the limit of both, capped by
    /// the whole suite's, as every other run here.
    @Test func aNarrowedMutantsRunsGetTheMapsTimeLimits() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, configuration, runner) = try exploreNarrowed(in: scratch, output: output, configureLab: { $0.timeoutConstant = 1 })
            runner.secondsAlone = ["T.Suite/other()": 3]
            let report = try lab.run()
            #expect(report.mutants.first { $0.name == "narrow-5" }?.coveredBy == ["T.Suite/adds()"], "\(output.text)")
            let limits = runner.binaryLimits.compactMap { $0 }
            #expect(limits.count == runner.binaryLimits.count && limits.allSatisfy { abs($0 - report.testTimeoutSeconds) < 0.001 },
                    "\(limits) against the suite's \(report.testTimeoutSeconds)")
            let log = try String(contentsOf: configuration.outputPath.appendingPathComponent("logs/narrow-5.log"), encoding: .utf8)
            #expect(log.contains("their time limits are those of the map's"), "\(log)")
        }
    }

    /// A mutant of a narrowing run left out of the schema (it runs as a
    /// patch) has no switch to narrow it by: it runs the map's tests, and
    /// `adds()` kills it, where narrowing it would have found no record of
    /// it and made it `NoCoverage`.
    @Test func aMutantOutOfTheSchemaIsNotNarrowed() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, _) = try exploreNarrowed(in: scratch, output: output)
            let names = (1...4).map { "narrow-\($0)" }
            lab.schemaBuilder = { _ in
                Schema(numbers: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) }),
                       files: ["Sources/Tiny/Arithmetic.swift": Self.source + "// SCHEMA\n"], support: ["Sources/Tiny": "// switch\n"])
            }
            let report = try lab.run()
            let patch = try #require(report.mutants.first { $0.name == "narrow-5" })
            #expect(patch.status == .killed, "\(output.text)")
            #expect(patch.coveredBy.map(Set.init) == ["T.Suite/adds()", "T.Suite/other()"], "the map's tests: \(output.text)")
        }
    }

    /// A test the map gives fewer of the schema's mutants than the lab's
    /// minimum does not run in the pass: with none to run, there is no pass.
    @Test func testsOfTooFewMutantsRunNoSwitchPass() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, _) = try exploreNarrowed(in: scratch, output: output, minimum: 6)
            let report = try lab.run()
            #expect(!output.text.contains("Measuring which tests run the switches"), "\(output.text)")
            #expect(report.mutants.first { $0.name == "narrow-4" }?.status == .survived, "the map's tests ran: \(output.text)")
        }
    }

    /// A test that fails alone in the pass narrows nothing: every mutant
    /// runs the map's tests.
    @Test func aTestThatFailsAloneInTheSwitchPassNarrowsNothing() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, runner) = try exploreNarrowed(in: scratch, output: output)
            runner.failsWithSwitchRecordAlone = "T.Suite/other()"
            let report = try lab.run()
            #expect(output.text.contains("switch pass stopped: T.Suite/other() failed"), "\(output.text)")
            #expect(report.mutants.first { $0.name == "narrow-4" }?.status == .survived, "\(output.text)")
            #expect(report.mutants.allSatisfy { $0.coveredBy?.count == 2 }, "every one runs the map's tests")
        }
    }
}
