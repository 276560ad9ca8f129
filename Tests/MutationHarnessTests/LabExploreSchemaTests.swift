import Foundation
import Testing
@testable import MutationHarness

/// `explore`'s schema on its way in: its check with every switch off, the
/// switch pass's figures, the order the loop keeps, and a second run on
/// the same copy.
extension LabCoverageTests {
    /// A schema text that is red with every switch off: `add` subtracts.
    static let redSchema = source.replacingOccurrences(of: "a + b", with: "a - b") + "// SCHEMA\n"

    /// A schema builder of `redSchema` holding `names`, numbered in order.
    static func redSchemaBuilder(_ names: [String]) -> (Set<String>) -> Schema {
        { _ in
            Schema(numbers: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) }),
                   files: ["Sources/Tiny/Arithmetic.swift": redSchema], support: ["Sources/Tiny": "// switch\n"])
        }
    }

    /// The check with every switch off hangs: a placed mutant's covering
    /// test is stopped as hung (the reason names it); a mutant the map cannot
    /// place runs every test that could run its code, as the whole suite
    /// does, and with no baseline silences runs to its time limit. Either
    /// way the check runs twice, then the schema is given up.
    @Test(arguments: [(4, "with every switch off the tests are not green (T.Suite/adds() hung: "),
                      (6, "with every switch off the tests are not green (the tests ran past the time limit and were killed)")])
    func aSchemaWhoseCheckHangsIsGivenUpWithTheReason(line: Int, said: String) throws {
        try withScratch { scratch in
            let output = OutputBox()
            let edit = line == 4 ? ("        a + b", "        a - b") : ("    public static let zero = 0", "    public static let zero = 1")
            let (lab, _, _) = try exploreLab(in: scratch, output: output, names: ["m"], line: line, edit.0, edit.1,
                                             configureLab: { $0.stallConstant = 0.2 }, configure: { $0.chosenHang = true })
            lab.schemaBuilder = Self.redSchemaBuilder(["m"])
            _ = try lab.run()
            #expect(output.text.contains(said), "\(output.text)")
            #expect(output.text.contains("every mutant runs as a patch"), "\(output.text)")
        }
    }

    /// A red schema whose mutant the map places: the check runs the tests
    /// that reach its functions, and names the one that fails.
    @Test func aRedSchemaIsCheckedByTheTestsThatReachItAndNamesTheFailingOne() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, _) = try exploreLab(in: scratch, output: output, names: ["subtracts"], line: 4, "        a + b", "        a - b")
            lab.schemaBuilder = Self.redSchemaBuilder(["subtracts"])
            let report = try lab.run()
            #expect(output.text.contains("  checking the schema with every switch off: the 1 test(s) that reach its functions"), "\(output.text)")
            #expect(output.text.contains("the schema's own baseline is not green (failing: T.Suite/adds()"), "\(output.text)")
            #expect(report.mutants.first?.status == .killed && report.mutants.first?.buildSeconds ?? 0 > 0, "as a patch")
        }
    }

    /// A red schema whose only mutant the map cannot place and no test
    /// target links is checked by the whole suite: it is found red and
    /// taken out, and the mutant runs as a patch.
    @Test func aRedSchemaOfAMutantWithNoPlanIsCheckedByTheWholeSuite() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, _) = try exploreLab(in: scratch, output: output, names: ["zero-one"], line: 6,
                                             "    public static let zero = 0", "    public static let zero = 1")
            lab.schemaBuilder = Self.redSchemaBuilder(["zero-one"])
            lab.testTargets = { _ in ["Nowhere"] }
            lab.mutatedModule = { _ in "Sources/Nowhere" }
            let report = try lab.run()
            #expect(output.text.contains("every mutant runs as a patch"), "\(output.text)")
            #expect(report.mutants.first?.status == .survived, "\(String(describing: report.mutants.first))")
        }
    }

    /// A schema whose mutants no test reaches needs no check: nothing can
    /// tell it from the package, and the log says so.
    @Test func aSchemaOfMutantsNoTestReachesIsNotChecked() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, configuration, runner) = try exploreLab(in: scratch, output: output, names: ["idle-two"], line: 8, "        1", "        2")
            lab.schemaBuilder = Self.redSchemaBuilder(["idle-two"])
            let report = try lab.run()
            #expect(!output.text.contains("not green"), "\(output.text)")
            #expect(report.mutants.first?.status == .noCoverage && report.mutants.first?.buildSeconds == 0)
            let log = try String(contentsOf: configuration.outputPath.appendingPathComponent("logs/schema.log"), encoding: .utf8)
            #expect(log.contains("mutate: no test reaches a function the schema rewrote: none to run with every switch off"), "\(log)")
            #expect(runner.binaryRuns.count == 3, "the coverage pass only: \(runner.binaryRuns)")
        }
    }

    /// The pass's time is in the report and on the console, with the
    /// switch pass's added: each run of the test executable here takes 0.2 s.
    @Test func theCoverageTimeIsBothPassesAndIsSaid() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _) = try exploreOutsideFunctions(in: scratch, output: output) { runner in
                // Every run but `swift build` and `swift test`: a run of the test executable.
                runner.onRun = { [unowned runner] in if !["build", "test"].contains(runner.calls.last?.command ?? "") { usleep(200_000) } }
            }
            let report = try lab.run()
            #expect(!output.text.contains("tests measured in 0.0s"), "\(output.text)")
            #expect((report.coverageSeconds ?? 0) >= 1.2, "three runs in the pass, three in the switch pass: \(report.coverageSeconds ?? 0)")
        }
    }

    /// With one job, mutants run in their order; the schema's mutants with
    /// chosen tests are not taken ahead of the others.
    @Test func withOneJobTheMutantsRunInTheirOrder() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let package = try package(in: scratch)
            var configuration = LabConfiguration(packagePath: package)
            configuration.jobs = 1
            let runner = ScriptedRunner()
            runner.makesTestBinary = true
            let made = [try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1"),
                        try mutant("subtracts", line: 4, "        a + b", "        a - b")]
            let lab = Lab(configuration: configuration, mutants: [], runner: runner, print: { output.append($0) }) { _ in (run: made, ignored: []) }
            lab.schemaBuilder = { _ in
                Schema(numbers: ["zero-one": 1, "subtracts": 2], files: ["Sources/Tiny/Arithmetic.swift": Self.source + "// SCHEMA\n"],
                       support: ["Sources/Tiny": "// switch\n"])
            }
            // zero-one: a module no test target links and no test ran, so no test can be chosen for it.
            lab.testTargets = { _ in ["Nowhere"] }
            lab.mutatedModule = { _ in "Sources/Nowhere" }
            let llvm = try tools(in: scratch, copy: configuration.scratchPath)
            lab.findLLVM = { _ in llvm }
            lab.coverageWorkers = 1
            let report = try lab.run()
            let first = try #require(output.text.range(of: "[1/2] zero-one: building and testing"), "\(output.text)")
            let second = try #require(output.text.range(of: "[2/2] subtracts: building and testing"), "\(output.text)")
            #expect(first.lowerBound < second.lowerBound, "\(output.text)")
            #expect(output.text.contains("the schema's baseline ran without a record of its switches"),
                    "its check ran the whole suite, which keeps no record: zero-one stays unplaced, and the run says so: \(output.text)")
            #expect(report.mutants.map(\.name) == ["zero-one", "subtracts"])
        }
    }

    /// A second run on the same copy starts each of its logs afresh: a log
    /// that kept the last run's lines would show that run's first error.
    @Test func aSecondRunOnTheSameCopyStartsEachLogAfresh() throws {
        try withScratch { scratch in
            func explore() throws -> URL {
                let (lab, configuration) = try exploreOutsideFunctions(in: scratch, output: OutputBox())
                _ = try lab.run()
                return configuration.outputPath.appendingPathComponent("logs")
            }
            let logs = try explore()
            let names = ["baseline.log", "coverage.log", "schema.log", "switches.log", "zero-one.log"]
            let first = try names.map { try String(contentsOf: logs.appendingPathComponent($0), encoding: .utf8) }
            _ = try explore()
            for (name, text) in zip(names, first) {
                let again = try String(contentsOf: logs.appendingPathComponent(name), encoding: .utf8)
                #expect(!text.isEmpty && again.count < text.count * 3 / 2, "\(name) holds this run's lines only: \(again)")
            }
        }
    }

    /// The switch pass's count: switches the tests ran alone place their
    /// mutants (two here), one no test ran is NoCoverage, one that ran only
    /// with the tests together is left to every test that could run it.
    @Test func theSwitchPassCountsEachKindOfPlace() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, _) = try exploreLab(in: scratch, output: output, names: ["zero-one", "zero-two", "zero-three", "zero-four"], line: 6,
                                             "    public static let zero = 0", "    public static let zero = 1", configure: { runner in
                runner.switchReaches = ["T.Suite/adds()": [1, 2]]
                runner.switchesUnderLoad = [4]
            })
            let report = try lab.run()
            #expect(output.text.contains("2 placed by the tests that ran their switch, 1 whose switch no test ran (NoCoverage), 1 whose switch ran only with the tests together"),
                    "\(output.text)")
            #expect(report.mutants.map(\.status) == [.killed, .survived, .noCoverage, .survived], "\(report.mutants.map(\.status))")
        }
    }

    /// A mutant the schema left out runs as a patch: the switch pass, which
    /// places schema mutants, leaves it to every test that could run its code.
    @Test func aMutantOutOfTheSchemaIsNotPlacedByTheSwitchPass() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _) = try exploreOutsideFunctions(in: scratch, output: output)
            lab.schemaBuilder = { _ in
                Schema(numbers: ["zero-one": 1, "zero-two": 2], files: ["Sources/Tiny/Arithmetic.swift": Self.source + "// SCHEMA\n"],
                       support: ["Sources/Tiny": "// switch\n"])
            }
            let report = try lab.run()
            let three = try #require(report.mutants.first { $0.name == "zero-three" })
            #expect(three.status == .survived, "every test ran it, as a patch, and passed: \(three)")
            #expect(three.buildSeconds > 0)
            #expect(output.text.contains("1 placed by the tests that ran their switch, 1 whose switch no test ran (NoCoverage), 0 whose switch ran only"),
                    "\(output.text)")
        }
    }

    /// A mutant the switch pass placed may sit in a program its killer
    /// starts: the results file keeps no killer's key for it.
    @Test func aMutantTheSwitchPassPlacedKeepsNoKillersKey() throws {
        try withScratch { scratch in
            let (lab, _) = try exploreOutsideFunctions(in: scratch, output: OutputBox())
            let results = scratch.url.appendingPathComponent("results.json")
            lab.incremental = IncrementalRun(file: results, previous: nil, verifyCount: 0)
            _ = try lab.run()
            let zero = try #require(try ResultsFile.load(from: results)?.verdicts["zero-one"])
            #expect(zero.result.status == .killed && zero.killKey == nil, "\(zero)")
        }
    }
}
