import Foundation
import Testing
@testable import MutationHarness

/// `--incremental` in the lab with a coverage pass (`LabCoverageTests`'
/// scripted test executable and stand-in LLVM tools): a changed file
/// re-measures only the tests that ran it, and re-runs only the mutants
/// whose key it is in.
extension LabCoverageTests {
    /// One run of the gate lab over `pkg` with `subtracts` (in `add`, which
    /// `T.Suite/adds()` runs) and the results file `results.json`.
    /// With `outsideFunctions`, also `zero-one`, on a line the map cannot place.
    private func incrementalRun(_ scratch: Scratch, package: URL, verify: Int = 0, outsideFunctions: Bool = false, extra: [Mutant] = [],
                                scoreCommit: String? = nil, file: URL? = nil, killedBy: String? = nil, configure: (ScriptedRunner) -> Void = { _ in },
                                configureLab: (inout LabConfiguration) -> Void = { _ in }) throws
        -> (LabReport, ScriptedRunner, String)
    {
        var configuration = LabConfiguration(packagePath: package)
        configuration.schema = false
        configureLab(&configuration)
        let runner = ScriptedRunner()
        runner.makesTestBinary = true
        configure(runner)
        let output = OutputBox()
        var mutants = [try mutant("subtracts", line: 4, "        a + b", "        a - b", killedBy: killedBy)]
        if outsideFunctions { mutants.append(try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1")) }
        mutants += extra
        let lab = Lab(configuration: configuration, mutants: mutants, runner: runner, print: { output.append($0) })
        let llvm = try tools(in: scratch, copy: configuration.scratchPath)
        lab.findLLVM = { _ in llvm }
        lab.coverageWorkers = 1
        let file = file ?? scratch.url.appendingPathComponent("results.json")
        lab.incremental = IncrementalRun(file: file, previous: try ResultsFile.load(from: file), verifyCount: verify)
        lab.incremental?.scoreCommit = scoreCommit
        return (try lab.run(), runner, output.text)
    }

    /// The file is rewritten while mutants run (a run killed outright keeps
    /// what it reached): with explore's schema in the copy, it still holds
    /// the package's digests, not the schema's, or the next run would find
    /// the package changed and reuse nothing.
    @Test func aFileSavedWhileTheSchemaIsInTheCopyHoldsThePackagesDigests() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: ["subtracts", "multiplies"], line: 4,
                                                  "        a + b", "        a - b")
            // A schema that changes the code, not only a comment: switch 1 fails `adds()`.
            lab.schemaBuilder = { _ in
                Schema(numbers: ["subtracts": 1, "multiplies": 2],
                       files: ["Sources/Tiny/Arithmetic.swift": Self.source.replacingOccurrences(of: "a + b", with: "a + b + 0")], support: [:])
            }
            let file = scratch.url.appendingPathComponent("results.json")
            var trees: [String] = []
            runner.onRun = { if let saved = try? ResultsFile.load(from: file) { trees.append(saved.tree) } }
            let incremental = IncrementalRun(file: file, previous: nil, verifyCount: 0)
            incremental.saveInterval = 0
            incremental.explored = ResultsFile.Explored(paths: ["Sources"], points: [], compilerVersion: "Swift version 9.9", warnings: [], targets: [
                PackageTargets.Target(name: "Tiny", c99name: "Tiny", type: "library", moduleType: "SwiftTarget", path: "Sources/Tiny",
                                      sources: ["Arithmetic.swift"]),
            ])
            lab.incremental = incremental
            let report = try lab.run()
            #expect(report.mutants.map(\.status) == [.killed, .survived], "\(output.text)")
            #expect(report.mutants.allSatisfy { $0.buildSeconds == 0 }, "both by their switch: the schema was in the copy")
            let final = try #require(try ResultsFile.load(from: file))
            #expect(!trees.isEmpty, "a save while the mutants ran")
            #expect(trees.allSatisfy { $0 == final.tree }, "\(trees) \(final.tree)")
        }
    }

    /// When no test ran a changed file, only the first test is measured (the
    /// build's coverage mapping needs one run), and its fresh time is kept.
    @Test func whenNoTestRanAChangedFileOnlyTheFirstIsMeasuredAndKeepsItsFreshTime() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            _ = try incrementalRun(scratch, package: package, configure: { $0.reaches["T.Suite/adds()"] = [] })
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "1\n    }", with: "2\n    }"))
            let (_, runner, output) = try incrementalRun(scratch, package: package, configure: { runner in
                runner.reaches["T.Suite/adds()"] = []
                runner.secondsAlone["T.Suite/adds()"] = 0.7
            })
            #expect(output.contains("3 test(s) ran no changed file"), "\(output)")
            #expect(runner.binaryRuns.first == ["T.Suite/adds()"] && runner.binaryRuns.dropFirst().first != ["T.Suite/other()"],
                    "one test alone, for the build's mapping: \(runner.binaryRuns)")
            let saved = try #require(try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json"))?.coverage)
            #expect(saved.seconds["T.Suite/adds()"] == 0.7, "\(saved.seconds)")
        }
    }

    /// A results file of two mutants (`subtracts` and the returned one, both
    /// killed) whose verdicts were then made to say they survived, with a
    /// score at c1.
    private func lyingFile(_ scratch: Scratch, package: URL) throws -> (url: URL, more: Mutant) {
        let url = scratch.url.appendingPathComponent("results.json")
        let more = try mutant("subtracts-more", line: 4, "        a + b", "        a - b - 1")
        _ = try incrementalRun(scratch, package: package, extra: [more], scoreCommit: "c1")
        var file = try #require(try ResultsFile.load(from: url))
        for name in ["subtracts", "subtracts-more"] { file.verdicts[name]?.result.status = .survived }
        try file.save(to: url)
        return (url, more)
    }

    /// A run interrupted after a checked verdict came out differently keeps
    /// only its own verdicts: the file lied, so its others and its scores go.
    @Test func anInterruptAfterAWrongVerdictKeepsNothingOfTheFile() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let (url, more) = try lyingFile(scratch, package: package)
            #expect(throws: LabError.interrupted(signal: SIGINT)) {
                try incrementalRun(scratch, package: package, verify: 2, extra: [more], scoreCommit: "c2", configure: { $0.interruptAtBinaryRun = 2 })
            }
            let saved = try #require(try ResultsFile.load(from: url))
            #expect(saved.verdicts["subtracts-more"] == nil && saved.scores == nil, "the file lied: the interrupted save keeps only this run's verdicts")
        }
    }

    /// A reused baseline after a named schema the suite rejected claims no
    /// test time: the suite that ran was the schema's.
    @Test func aReusedBaselineAfterARejectedSchemaClaimsNoTestTime() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, source: Self.source.replacingOccurrences(of: "// adds", with: "// adds SWITCHED-OFF-FAILS"))
            _ = try incrementalRun(scratch, package: package, configureLab: Self.namedSchema)
            let (second, _, output) = try incrementalRun(scratch, package: package, configureLab: Self.namedSchema)
            #expect(second.incremental?.reusedBaseline == true, "\(output)")
            #expect(second.baselineTestSeconds == 0, "the suite that ran was the rejected schema's, not the baseline's")
        }
    }

    /// A results file kept inside the package (under Tests/, say) is not
    /// copied: rewritten every run, it would make the package look changed.
    @Test func aResultsFileInsideThePackageIsNoChangeOfIt() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            try scratch.write("pkg/Tests/T/TTests.swift", "// the tests\n")
            let file = package.appendingPathComponent("Tests/T/results.json")
            _ = try incrementalRun(scratch, package: package, file: file)
            let (second, _, output) = try incrementalRun(scratch, package: package, file: file)
            #expect(!output.contains("the package changed"), "\(output)")
            #expect(second.incremental?.reusedBaseline == true && second.incremental?.ran == 0, "\(output)")
        }
    }

    @Test func aChangedFileMeasuresAgainOnlyTheTestsThatRanIt() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let (first, firstRunner, _) = try incrementalRun(scratch, package: package)
            #expect(first.mutants.first?.status == .killed)
            #expect(firstRunner.binaryRuns.count == 4, "three tests measured, then the mutant's: \(firstRunner.binaryRuns)")
            let map = try #require(try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json"))?.coverage)
            #expect(map.functions.map { "\($0.name) \($0.count)" } == ["add 1", "idle 0"], "how many tests ran each function")

            // A new file of declarations only would be in every key; a new function elsewhere in the same file is not.
            let idle = Self.source.replacingOccurrences(of: "1\n    }", with: "2\n    }")
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", idle)
            let (second, runner, output) = try incrementalRun(scratch, package: package)
            #expect(output.contains("2 test(s) ran no changed file"), "\(output)")
            #expect(runner.binaryRuns == [["T.Suite/adds()"]], "only the test that ran Arithmetic.swift is measured: \(runner.binaryRuns)")
            let saved = try #require(try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json"))?.coverage)
            #expect(Set(saved.seconds.keys) == ["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"],
                    "the tests not measured again keep their time alone (their order and limits): \(saved.seconds)")
            #expect(second.mutants.first?.status == .killed && second.incremental?.ran == 0,
                    "idle changed, and the mutant's test does not run idle: its verdict is reused")

            // An edit inside add, the function the mutant changes and its test runs: it runs again, its killer first.
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", idle.replacingOccurrences(of: "// adds", with: "_ = 0"))
            let (third, again, _) = try incrementalRun(scratch, package: package)
            #expect(third.mutants.first?.status == .killed && third.incremental?.ran == 1)
            #expect(again.binaryRuns.count == 2, "\(again.binaryRuns)")
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/subtracts.log"), encoding: .utf8)
            #expect(log.contains("the test that killed it in the results file runs first: T.Suite/adds()"), "\(log)")
        }
    }

    /// An unchanged package takes its baseline from the file: the same
    /// tests, their files and time limit, no time spent on the suite, and a
    /// verdict checked again runs its covering test by the test executable,
    /// as the first run did.
    @Test func anUnchangedPackageTakesItsBaselineFromTheFile() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let (first, _, _) = try incrementalRun(scratch, package: package)
            let (second, runner, output) = try incrementalRun(scratch, package: package, verify: 1)
            #expect(second.incremental?.reusedBaseline == true && second.incremental?.verified == 1, "\(output)")
            #expect(second.tests == first.tests && second.tests.count == 3)
            #expect(second.testLocations == first.testLocations)
            #expect(second.testTimeoutSeconds == first.testTimeoutSeconds)
            #expect(first.baselineTestSeconds > 0 && second.baselineTestSeconds == 0, "the suite did not run")
            #expect(output.contains("  the suite (3 tests) and the coverage map are taken from results.json; "
                + String(format: "each mutant's tests get %.0fs", first.testTimeoutSeconds)), "\(output)")
            #expect(runner.binaryRuns == [["T.Suite/adds()"]], "only the mutant's covering test, by the executable: \(runner.binaryRuns)")
            #expect(second.mutants.first?.status == .killed && second.mutants.first?.coveredBy == ["T.Suite/adds()"])
            // The tests' libraries come from the file too: the killer runs first, as a Swift Testing test.
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/subtracts.log"), encoding: .utf8)
            #expect(log.contains("the test that killed it in the results file runs first: T.Suite/adds()"), "\(log)")
            #expect(runner.calls.last?.command == "--testing-library", "\(runner.calls.map(\.command))")
        }
    }

    /// A reused verdict keeps its covering tests and says in its log where
    /// it came from and why its test failed; the run counts what it
    /// reused, checked and ran (a checked verdict is reused and checked, not run).
    @Test func aReusedVerdictKeepsItsTestsItsReasonAndTheCounts() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let (first, _, _) = try incrementalRun(scratch, package: package)
            let reason = try #require(first.mutants.first?.reason)
            let (second, runner, output) = try incrementalRun(scratch, package: package)
            #expect(runner.binaryRuns.isEmpty, "nothing ran: \(runner.binaryRuns)")
            #expect(second.mutants.first?.coveredBy == ["T.Suite/adds()"])
            #expect(output.contains("  1 verdict(s) reused from results.json, 0 of them re-run to check the file; 0 mutant(s) to run (new, or their key changed)"),
                    "\(output)")
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/subtracts.log"), encoding: .utf8)
            #expect(log.hasPrefix("mutate: killed, reused from \(scratch.url.path)/results.json (saved "), "\(log)")
            #expect(log.hasSuffix("the mutant, the files it changes, its tests and what they reach are unchanged\nmutate: \(reason)\n"), "\(log)")
            #expect(second.incremental.map { [$0.reused, $0.verified, $0.ran] } == [1, 0, 0])

            let (third, _, checked) = try incrementalRun(scratch, package: package, verify: 1)
            #expect(third.incremental.map { [$0.reused, $0.verified, $0.ran] } == [1, 1, 0], "\(String(describing: third.incremental))")
            #expect(checked.contains("  1 verdict(s) reused from results.json, 1 of them re-run to check the file; 0 mutant(s) to run"), "\(checked)")
            #expect(!checked.contains("wrong verdict(s)"), "the checked verdict held: \(checked)")
        }
    }

    /// The file keeps a killer's key only for a mutant the map placed: one
    /// outside every function may sit in a program its killer starts, so
    /// what that test reaches is not all known. Covering tests are not kept
    /// (the map says them again).
    @Test func aKillerIsKeyedOnlyForAMutantTheMapPlaced() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            // Outside every function, and caught by adds(): the scripted suite fails wherever `a - b` appears.
            let outside = try mutant("zero-noted", line: 6, "    public static let zero = 0", "    public static let zero = 0 // a - b")
            let (report, _, _) = try incrementalRun(scratch, package: package, extra: [outside])
            #expect(report.mutants.map(\.status) == [.killed, .killed], "\(report.mutants.map(\.status))")
            let file = try #require(try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json")))
            #expect(file.verdicts["subtracts"]?.killKey != nil)
            #expect(file.verdicts["zero-noted"].map { $0.result.status == .killed && $0.killKey == nil } == true)
            #expect(file.verdicts.values.allSatisfy { $0.result.coveredBy == nil })
        }
    }

    /// The file keeps what this run did not judge: the verdicts of mutants
    /// it did not select, and the scores of earlier commits, the newest
    /// `scoresKept` of them (for later pull requests' base).
    @Test func theFileKeepsOtherVerdictsAndTheNewestScores() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let url = scratch.url.appendingPathComponent("results.json")
            _ = try incrementalRun(scratch, package: package, outsideFunctions: true, scoreCommit: "c1")
            var file = try #require(try ResultsFile.load(from: url))
            #expect(file.verdicts.keys.sorted() == ["subtracts", "zero-one"])
            #expect(file.scores?.keys.sorted() == ["c1"] && file.scores?["c1"]?.score == 50)
            // 500 older scores, the first ones oldest.
            for index in 0..<500 {
                file.scores?[String(format: "old%03d", index)] = ResultsFile.RecordedScore(
                    score: 1, paths: [], savedAt: String(format: "2000-01-01T00:%02d:%02dZ", index / 60, index % 60))
            }
            try file.save(to: url)

            // A run of one mutant of the two, at another commit.
            let (report, _, _) = try incrementalRun(scratch, package: package, scoreCommit: "c2")
            #expect(report.mutants.map(\.name) == ["subtracts"])
            file = try #require(try ResultsFile.load(from: url))
            #expect(file.verdicts.keys.sorted() == ["subtracts", "zero-one"], "the verdict of the mutant not run is kept")
            let scores = try #require(file.scores)
            #expect(scores.count == 500, "the newest 500 scores, as docs/explore-history.md says")
            #expect(scores["c1"] != nil && scores["c2"]?.score == 100, "the newest kept")
            #expect(scores["old000"] == nil && scores["old001"] == nil && scores["old002"] != nil, "the two oldest dropped: \(scores.keys.sorted().prefix(3))")
        }
    }

    /// A README is in no key; a fixture, which a test may read without
    /// running a line of it, is in every key.
    @Test func aDocumentChangesNoKeyAFixtureChangesEvery() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            _ = try incrementalRun(scratch, package: package)
            try scratch.write("pkg/README.md", "# Tiny\n")
            let (report, runner, output) = try incrementalRun(scratch, package: package)
            #expect(output.contains("the package is as"), "\(output)")
            #expect(report.mutants.first?.status == .killed && report.incremental?.ran == 0 && report.incremental?.reused == 1)
            #expect(runner.calls.map(\.command) == ["build"], "the suite and the pass are the file's: \(runner.calls.map(\.command))")

            try scratch.write("pkg/Tests/TinyTests/Fixture.json", "{}\n")
            let (again, _, changed) = try incrementalRun(scratch, package: package)
            #expect(changed.contains("the package changed (1 file(s): Tests/TinyTests/Fixture.json) since"), "\(changed)")
            #expect(again.incremental?.ran == 1 && again.incremental?.reused == 0, "\(String(describing: again.incremental))")
        }
    }

    /// SwiftPM's test runner is in the map (every test runs it), but the
    /// build writes it, under `.build`, with the copy's absolute path in
    /// it. A copy in another folder, or a fresh checkout's copy that is not
    /// built yet (the baseline is the file's: nothing is built before the
    /// mutants), reuses every verdict all the same: placed or not.
    @Test func theTestRunnerTheBuildWritesIsInNoKey() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = LabConfiguration(packagePath: package).scratchPath.appendingPathComponent(Self.derivedRunner)
            try FileManager.default.createDirectory(at: runner.deletingLastPathComponent(), withIntermediateDirectories: true)
            func main(in folder: String) -> Data { Data("func main() {\n    run(\"\(folder)/.build/debug/testOutput.txt\")\n}\n".utf8) }
            try main(in: package.path).write(to: runner)
            let (first, _, output) = try incrementalRun(scratch, package: package, outsideFunctions: true)
            #expect(first.mutants.map(\.status) == [.killed, .survived], "\(output)")
            let map = try #require(try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json"))?.coverage)
            #expect(map.functions.contains { $0.file == Self.derivedRunner }, "the runner is in the map: \(map.functions.map(\.file))")

            for moved in [main(in: "/elsewhere"), nil] {
                if let moved { try moved.write(to: runner) } else { try FileManager.default.removeItem(at: runner) }
                let (again, _, output) = try incrementalRun(scratch, package: package, outsideFunctions: true)
                #expect(again.incremental?.reused == 2 && again.incremental?.ran == 0, "\(output)")
            }
        }
    }

    /// The test that killed a mutant in the results file runs first, on
    /// its own, when the mutant's key changed. A killer that passes now
    /// decides nothing: the mutant's tests run as usual. One the suite no
    /// longer has is not started at all.
    @Test(arguments: ["T.Suite/other()", "T.Suite/gone()"])
    func theFilesKillerRunsFirstAndDecidesOnlyAKill(killer: String) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            _ = try incrementalRun(scratch, package: package)
            let file = scratch.url.appendingPathComponent("results.json")
            var saved = try #require(try ResultsFile.load(from: file))
            saved.verdicts["subtracts"]?.result.killedBy = [killer]
            saved.verdicts["subtracts"]?.killKey = nil
            try saved.save(to: file)
            // The body of `add` changes: subtracts' key with it.
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "// adds", with: "_ = 0"))
            let (report, runner, _) = try incrementalRun(scratch, package: package)
            #expect(report.mutants.first?.status == .killed, "\(String(describing: report.mutants.first))")
            #expect(!runner.binaryRuns.contains([]), "no run of no test: \(runner.binaryRuns)")
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/subtracts.log"), encoding: .utf8)
            if killer == "T.Suite/other()" {
                #expect(log.contains("mutate: the test that killed it in the results file runs first: T.Suite/other()"), "\(log)")
                #expect(log.contains("mutate: it did not kill it now; the mutant's tests run as usual"), "\(log)")
            } else {
                #expect(!log.contains("runs first"), "\(log)")
            }
        }
    }

    /// An interrupt keeps the file as it was until the run has verdicts to
    /// add: one in the coverage pass leaves it byte for byte; one while a
    /// mutant runs keeps the verdicts of mutants this run did not select
    /// and the scores of earlier commits (only a finished run drops them).
    @Test func anInterruptedRunKeepsWhatTheFileHeld() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let url = scratch.url.appendingPathComponent("results.json")
            _ = try incrementalRun(scratch, package: package, outsideFunctions: true, scoreCommit: "c1")
            let before = try Data(contentsOf: url)
            // `add` changes: its test is measured again (the executable's first run), then subtracts runs (its second).
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "// adds", with: "_ = 0"))
            #expect(throws: LabError.interrupted(signal: SIGINT)) {
                try incrementalRun(scratch, package: package, scoreCommit: "c2", configure: { $0.interruptAtBinaryRun = 1 })
            }
            #expect(try Data(contentsOf: url) == before, "interrupted in the coverage pass: nothing to add, the file untouched")
            #expect(throws: LabError.interrupted(signal: SIGINT)) {
                try incrementalRun(scratch, package: package, scoreCommit: "c2", configure: { $0.interruptAtBinaryRun = 2 })
            }
            let file = try #require(try ResultsFile.load(from: url))
            #expect(file.verdicts["zero-one"] != nil, "the mutant this run did not select keeps its verdict")
            #expect(file.scores?.keys.sorted() == ["c1"], "c1's score kept, none recorded for the interrupted run")
        }
    }

    /// A run interrupted before the verdict it checks was reached has no
    /// disagreement: the file keeps every verdict.
    @Test func aCheckThatDidNotRunDropsNothing() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let url = scratch.url.appendingPathComponent("results.json")
            _ = try incrementalRun(scratch, package: package, outsideFunctions: true)
            #expect(throws: LabError.interrupted(signal: SIGINT)) {
                try incrementalRun(scratch, package: package, verify: 2, outsideFunctions: true, configure: { $0.interruptAtBinaryRun = 1 })
            }
            #expect(try ResultsFile.load(from: url)?.verdicts.keys.sorted() == ["subtracts", "zero-one"])
        }
    }

    /// A file whose checked verdicts come out differently lied: each is
    /// named, in name order, and the file loses its reused verdicts and its
    /// scores, this run's included.
    @Test func aFileThatGaveWrongVerdictsLosesItsScores() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let (url, more) = try lyingFile(scratch, package: package)
            let (_, _, output) = try incrementalRun(scratch, package: package, verify: 2, extra: [more], scoreCommit: "c2")
            let wrong = output.split(separator: "\n").filter { $0.hasPrefix("REUSED VERDICT WRONG: ") }
            #expect(wrong == ["REUSED VERDICT WRONG: subtracts: survived in the file, killed now",
                              "REUSED VERDICT WRONG: subtracts-more: survived in the file, killed now"], "\(output)")
            #expect(try ResultsFile.load(from: url)?.scores == nil, "no score of a run whose file lied, nor the earlier ones")
        }
    }

    /// A verdict reused by its killer's key is saved under this run's key:
    /// the next run finds it there.
    @Test func aVerdictReusedByItsKillerIsSavedUnderTodaysKey() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let url = scratch.url.appendingPathComponent("results.json")
            // other() runs idle too: subtracts' key follows idle; its killer adds() does not.
            _ = try incrementalRun(scratch, package: package, configure: { $0.reaches["T.Suite/other()"] = ["add", "idle"] })
            let before = try #require(try ResultsFile.load(from: url)?.verdicts["subtracts"]?.key)
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "1\n    }", with: "2\n    }"))
            let (report, _, _) = try incrementalRun(scratch, package: package, configure: { $0.reaches["T.Suite/other()"] = ["add", "idle"] })
            #expect(report.incremental?.ran == 0, "reused by its killer's key")
            let after = try #require(try ResultsFile.load(from: url)?.verdicts["subtracts"]?.key)
            #expect(after != before, "saved under today's key")
        }
    }

    /// A mutant no test reaches now is NoCoverage, even if a test killed it
    /// in the results file: that test no longer runs its code, and is not run.
    @Test func aMutantNoTestReachesNowIsNoCoverageWhateverKilledItBefore() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            _ = try incrementalRun(scratch, package: package)
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "// adds", with: "_ = 0"))
            let (report, runner, _) = try incrementalRun(scratch, package: package, configure: { $0.reaches["T.Suite/adds()"] = [] })
            #expect(report.mutants.first?.status == .noCoverage, "\(String(describing: report.mutants.first))")
            #expect(runner.binaryRuns == [["T.Suite/adds()"]], "adds() is measured again, and not run for the mutant: \(runner.binaryRuns)")
        }
    }

    /// A baseline taken from the file brings its time limit and the whole
    /// suite's silences with it: a hung whole-suite run is still stopped as
    /// stalled, on the baseline's figures, and every run has a limit.
    @Test func aReusedBaselineKeepsItsLimitsAndItsSilences() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            func run(verify: Int) throws -> (LabReport, ScriptedRunner) {
                let (report, runner, _) = try incrementalRun(scratch, package: package, verify: verify, outsideFunctions: true,
                                                             configure: { $0.suiteHang = true; $0.suiteQuiet = 0.1 },
                                                             configureLab: { $0.stallConstant = 0.2 })
                return (report, runner)
            }
            _ = try run(verify: 0)
            let (report, runner) = try run(verify: 2)
            #expect(report.incremental?.reusedBaseline == true)
            let zero = try #require(report.mutants.first { $0.name == "zero-one" })
            #expect(zero.reason?.hasPrefix("T.Suite/other() hung") == true, "stopped on the file's silences: \(zero)")
            #expect(!runner.binaryLimits.isEmpty && runner.binaryLimits.allSatisfy { ($0 ?? 0) > 0 }, "\(runner.binaryLimits)")
        }
    }

    /// A survivor's key is its function's and its tests' reach: a change
    /// to another function that its tests do not run reuses it too.
    @Test func aSurvivorIsReusedAfterAChangeItsTestsDoNotRun() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let plusZero = try mutant("adds-zero", line: 4, "        a + b", "        a + b + 0")
            let (first, _, _) = try incrementalRun(scratch, package: package, extra: [plusZero])
            #expect(first.mutants.map(\.status) == [.killed, .survived])
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "1\n    }", with: "2\n    }"))
            let (second, _, _) = try incrementalRun(scratch, package: package, extra: [plusZero])
            #expect(second.incremental?.ran == 0, "idle changed; neither mutant's tests run idle: \(String(describing: second.incremental))")
        }
    }

    /// The gate lab with the named mutants' schema, one mutant at a time.
    private static func namedSchema(_ configuration: inout LabConfiguration) {
        configuration.schema = true
        configuration.jobs = 1
    }

    /// An unchanged package reuses the suite's run and the named mutants'
    /// schema it ran in: a verdict checked again runs by its switch in the
    /// schema just built, with no build of its own.
    @Test func aReusedSuiteStillRunsTheNamedMutantsByTheirSwitches() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let (first, _, _) = try incrementalRun(scratch, package: package, configureLab: Self.namedSchema)
            #expect(first.mutants.first?.status == .killed)
            let (second, runner, output) = try incrementalRun(scratch, package: package, verify: 1, configureLab: Self.namedSchema)
            #expect(second.incremental?.reusedBaseline == true && second.incremental?.verified == 1, "\(output)")
            #expect(runner.buildLimits.count == 1, "the schema's build only, none of the mutant's own: \(runner.calls.map(\.command))")
            #expect(second.mutants.first?.status == .killed && second.mutants.first?.buildSeconds == 0)
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/subtracts.log"), encoding: .utf8)
            #expect(log.contains("switched on in the mutant schema (MUTATE_SCHEMA_ID=1)"), "\(log)")
            let (third, _, thirdOutput) = try incrementalRun(scratch, package: package, configureLab: Self.namedSchema)
            #expect(third.incremental?.reused == 1, "\(thirdOutput)")
            #expect(!thirdOutput.contains("name no test that kills them"), "no advice on a verdict taken from the file: \(thirdOutput)")
        }
    }

    /// With a results file the named killers settle what they kill as
    /// without one, and with no pass the verdict is kept under the key of a
    /// mutant run by the whole suite: an unchanged package reuses it and
    /// runs no test; a changed one runs the named test again, still with no
    /// pass.
    @Test func aResultsFileRunSettledByTheNamedKillersNeedsNoPassNowOrLater() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let (first, firstRunner, firstOutput) = try incrementalRun(scratch, package: package, killedBy: "T.Suite/adds()", configureLab: Self.namedSchema)
            #expect(first.mutants.first?.status == .killed && first.mutants.first?.killedBy == ["T.Suite/adds()"], "\(firstOutput)")
            #expect(firstRunner.binaryRuns == [["T.Suite/adds()"], ["T.Suite/adds()"]], "the named test and its control, no pass: \(firstOutput)")
            let saved = try #require(try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json")))
            #expect(saved.verdicts["subtracts"]?.result.status == .killed && saved.coverage == nil)

            let (second, secondRunner, secondOutput) = try incrementalRun(scratch, package: package, killedBy: "T.Suite/adds()", configureLab: Self.namedSchema)
            #expect(second.incremental?.reusedBaseline == true && second.mutants.first?.status == .killed, "\(secondOutput)")
            #expect(secondRunner.binaryRuns.isEmpty && !secondRunner.calls.contains { $0.command == "test" }, "reused: no test runs")

            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source + "public func twice(_ a: Int) -> Int { a * 2 }\n")
            let (third, thirdRunner, thirdOutput) = try incrementalRun(scratch, package: package, killedBy: "T.Suite/adds()", configureLab: Self.namedSchema)
            #expect(third.incremental?.reusedBaseline == false && third.mutants.first?.status == .killed, "\(thirdOutput)")
            #expect(thirdRunner.binaryRuns == [["T.Suite/adds()"], ["T.Suite/adds()"]], "the named test and its control again, no pass: \(thirdOutput)")
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/subtracts.log"), encoding: .utf8)
            #expect(!log.contains("reused from") && log.contains("(Killed-By) run first"), "the named test starts the log afresh: \(log)")
        }
    }

    /// A named mutant added since the file was saved makes a schema the
    /// suite never ran in: the suite runs again in it before any verdict,
    /// since a schema that breaks the suite would make every mutant look killed.
    @Test func aNamedMutantAddedRunsTheSuiteAgainInTheNewSchema() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            _ = try incrementalRun(scratch, package: package, configureLab: Self.namedSchema)
            let times = try mutant("multiplies", line: 4, "        a + b", "        a * b")
            let (second, runner, output) = try incrementalRun(scratch, package: package, extra: [times], configureLab: Self.namedSchema)
            #expect(second.incremental?.reusedBaseline == false, "\(output)")
            #expect(output.contains("the named mutants' schema is not the build the file's suite ran in"), "\(output)")
            #expect(!output.contains("ran no changed file"), "over the new schema every test is measured: \(output)")
            #expect(runner.calls.contains { $0.command == "test" }, "the suite ran: \(runner.calls.map(\.command))")
        }
    }

    /// `explore --incremental results.json` of `lab` (made by `exploreLab`
    /// or `exploreOutsideFunctions` over `scratch`): the file keeps the
    /// mutants found in `Sources` (so an unchanged package needs no build
    /// before the schema's), and `verify` of its verdicts are checked again.
    private func exploreIncrementally(_ lab: Lab, in scratch: Scratch, verify: Int) throws -> LabReport {
        let file = scratch.url.appendingPathComponent("results.json")
        let incremental = IncrementalRun(file: file, previous: try ResultsFile.load(from: file), verifyCount: verify)
        incremental.explorePaths = ["Sources"]
        incremental.explored = ResultsFile.Explored(paths: ["Sources"], points: [], compilerVersion: "Swift version 9.9", warnings: [], targets: [])
        lab.incremental = incremental
        return try lab.run()
    }

    /// A fresh scratch copy (a new CI machine) of a package the results
    /// file last saw: its baseline and coverage map are the file's and
    /// nothing is built before the schema, so the test executable is the
    /// one the schema's build makes. The schema's check, the switch pass and
    /// each checked verdict run their chosen tests by it, as on the copy
    /// that made the file: `swift test` never runs. The report's coverage
    /// time is the switch pass's alone, the figure its line gives.
    @Test func aFreshCopyReusingTheFilesMapRunsTheChosenTestsByTheExecutableTheSchemasBuildMakes() throws {
        try withScratch { scratch in
            let (lab, configuration) = try exploreOutsideFunctions(in: scratch, output: OutputBox())
            let first = try exploreIncrementally(lab, in: scratch, verify: 0)
            let expected: [String: MutantStatus] = ["zero-one": .killed, "zero-two": .noCoverage, "zero-three": .killed]
            #expect(Dictionary(uniqueKeysWithValues: first.mutants.map { ($0.name, $0.status) }) == expected)

            // A fresh copy: nothing of the last run's build is left in it, the test executable included.
            try FileManager.default.removeItem(at: configuration.scratchPath)
            let output = OutputBox()
            let (again, _) = try exploreOutsideFunctions(in: scratch, output: output)
            let runner = try #require(again.runner as? ScriptedRunner)
            let second = try exploreIncrementally(again, in: scratch, verify: 3)
            let text = output.text
            #expect(text.contains("its baseline, coverage map and mutants are reused"), "\(text)")
            #expect(second.incremental?.reusedBaseline == true && second.incremental?.verified == 3, "\(text)")
            #expect(runner.calls.filter { $0.command == "build" }.count == 1, "the schema's build is the first: \(runner.calls.map(\.command))")
            #expect(!runner.calls.contains { $0.command == "test" },
                    "every run is of chosen tests, by the executable the schema's build made: \(runner.calls.map(\.command))")
            #expect(text.contains("  checking the schema with every switch off: the 3 test(s) that reach its functions"), "\(text)")
            #expect(text.contains("Measuring which tests run the switches of the 3 mutant(s) the map cannot place (3 tests, each on its own)"), "\(text)")
            #expect(Dictionary(uniqueKeysWithValues: second.mutants.map { ($0.name, $0.status) }) == expected, "the checked verdicts hold: \(text)")

            // The map's pass did not run in this run: the coverage time is the switch pass's, as its line says.
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("  switch pass: ") }, "\(text)")
            let seconds = try #require(second.coverageSeconds)
            #expect(line == String(format: "  switch pass: %.1fs", seconds), "the report's \(seconds)s against the switch pass's line: \(line)")
        }
    }

    /// `--no-coverage` is the reference: no test executable is started,
    /// even when an unchanged package reuses its baseline and the kept copy
    /// holds one from the last run. A verdict checked again runs the whole
    /// suite through `swift test`, as every mutant of such a run does, not
    /// the file's killer by the executable first.
    @Test func withoutCoverageACheckedVerdictRunsTheWholeSuiteThroughSwiftTest() throws {
        try withScratch { scratch in
            func explore(verify: Int) throws -> (report: LabReport, runner: ScriptedRunner, output: String, configuration: LabConfiguration) {
                let output = OutputBox()
                let (lab, configuration, runner) = try exploreLab(in: scratch, output: output, names: ["subtracts"], line: 4,
                                                                  "        a + b", "        a - b", configureLab: { $0.coverage = false })
                let report = try exploreIncrementally(lab, in: scratch, verify: verify)
                return (report, runner, output.text, configuration)
            }
            let (first, _, _, configuration) = try explore(verify: 0)
            #expect(first.mutants.first?.status == .killed)
            #expect(TestBinary.find(in: configuration.scratchPath) != nil, "the kept copy holds the test executable the last run's builds made")

            let (second, runner, output, _) = try explore(verify: 1)
            #expect(second.incremental?.reusedBaseline == true && second.incremental?.verified == 1, "\(output)")
            #expect(second.mutants.first?.status == .killed, "\(output)")
            #expect(runner.binaryRuns.isEmpty, "no test executable started: \(runner.binaryRuns)")
            #expect(runner.calls.last?.command == "test", "the checked mutant ran the whole suite through swift test: \(runner.calls.map(\.command))")
            let log = try String(contentsOf: configuration.outputPath.appendingPathComponent("logs/subtracts.log"), encoding: .utf8)
            #expect(!log.contains("the test that killed it in the results file runs first"), "\(log)")
        }
    }

    /// An unchanged package whose test executable is gone takes its map
    /// from the file but has nothing to start: each mutant runs the whole
    /// suite through `swift test`, and a crash there names every test of the
    /// suite it cut off, not only those the map would have chosen.
    @Test func aMapWithoutAnExecutableRunsTheWholeSuiteAndACrashThereNamesEveryTestItCutOff() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let crashes = try mutant("crashes", line: 4, "        a + b", "        a - b // CRASH")
            let (first, _, _) = try incrementalRun(scratch, package: package, extra: [crashes])
            #expect(first.mutants.map(\.status) == [.killed, .killed], "both by adds(), run by the test executable")
            // The copy's test executable is gone, and the build makes none.
            let executable = LabConfiguration(packagePath: package).scratchPath.appendingPathComponent(".build/debug/PkgPackageTests.xctest")
            try FileManager.default.removeItem(at: executable)
            let (report, runner, output) = try incrementalRun(scratch, package: package, verify: 2, extra: [crashes],
                                                              configure: { $0.makesTestBinary = false })
            #expect(report.incremental?.reusedBaseline == true, "the map is the file's: \(output)")
            #expect(runner.binaryRuns.isEmpty, "no executable to start: \(runner.binaryRuns)")
            #expect(runner.calls.filter { $0.command == "test" }.count == 2, "each mutant's whole suite, through swift test: \(runner.calls.map(\.command))")
            let crashed = try #require(report.mutants.first { $0.name == "crashes" })
            #expect(crashed.status == .killed && crashed.killedBy == ["T.Legacy/testAdds"], "\(crashed)")
            #expect(crashed.notRun == ["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"],
                    "the whole suite ran: every test it cut off, not only adds(), the map's choice: \(String(describing: crashed.notRun))")
        }
    }

    /// An unchanged package whose last run could make no coverage map (no
    /// LLVM tools) reuses its baseline: the test executable is there, the
    /// map is not. Schema mutants then run the whole suite through `swift
    /// test`, one at a time whatever `--jobs` says, never two `swift test`
    /// runs in the one copy at once.
    @Test func schemaMutantsWithAnExecutableButNoMapRunTheWholeSuiteOneAtATime() throws {
        try withScratch { scratch in
            let file = scratch.url.appendingPathComponent("results.json")
            func explore(verify: Int) throws -> (report: LabReport, runner: ScriptedRunner, output: String) {
                let output = OutputBox()
                let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: ["zero-two", "zero-four"], line: 6,
                                                      "    public static let zero = 0", "    public static let zero = 1",
                                                      configureLab: { $0.jobs = 2 }, configure: { $0.meetsASecondSwitchedRun = verify > 0 })
                // Even switches: the scripted suite passes with either on, so neither has a killer in the file to run first.
                lab.schemaBuilder = { _ in
                    Schema(numbers: ["zero-two": 2, "zero-four": 4], files: ["Sources/Tiny/Arithmetic.swift": Self.source + "// SCHEMA\n"],
                           support: ["Sources/Tiny": "// switch\n"])
                }
                lab.findLLVM = { _ in nil }
                lab.incremental = IncrementalRun(file: file, previous: try ResultsFile.load(from: file), verifyCount: verify)
                return (try lab.run(), runner, output.text)
            }
            let first = try explore(verify: 0)
            #expect(first.output.contains("llvm-profdata and llvm-cov are neither beside swift nor on PATH"), "\(first.output)")
            #expect(first.report.mutants.map(\.status) == [.survived, .survived], "\(first.output)")

            let (report, runner, output) = try explore(verify: 2)
            #expect(report.incremental?.reusedBaseline == true, "\(output)")
            #expect(report.mutants.map(\.status) == [.survived, .survived], "\(output)")
            #expect(runner.binaryRuns.isEmpty, "no map: no test chosen, nothing started directly: \(runner.binaryRuns)")
            #expect(runner.schemaIDs.filter { !$0.isEmpty }.sorted() == ["2", "4"], "each by its switch, through swift test: \(runner.schemaIDs)")
            #expect(runner.mostSwitchedAtOnce == 1, "never two swift test runs at once, even with two jobs")
        }
    }

    /// The test that killed a mutant in the results file, an XCTest test
    /// run first on its own, says on the mutant's log that it passed; when
    /// it runs again with the mutant's other tests, that line is not read
    /// again: the survivor's reason counts each test that ran once.
    @Test func anXCTestKillerRunFirstIsNotCountedAgainWithTheMutantsTests() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let addsZero = try mutant("adds-zero", line: 4, "        a + b", "        a + b + 0")
            func anXCTestTestRunsAdd(_ runner: ScriptedRunner) {
                runner.xctestTests = ["Other.Suite/unrelated()"]
                runner.reaches["Other.Suite/unrelated()"] = ["add"]
            }
            let (first, _, _) = try incrementalRun(scratch, package: package, extra: [addsZero], configure: anXCTestTestRunsAdd)
            #expect(first.mutants.first { $0.name == "adds-zero" }?.reason == "all 2 tests passed")
            // The file says the XCTest test killed it (a killer that passes now decides nothing).
            let file = scratch.url.appendingPathComponent("results.json")
            var saved = try #require(try ResultsFile.load(from: file))
            saved.verdicts["adds-zero"]?.result.status = .killed
            saved.verdicts["adds-zero"]?.result.killedBy = ["Other.Suite/unrelated()"]
            saved.verdicts["adds-zero"]?.killKey = nil
            try saved.save(to: file)
            // The body of `add` changes: adds-zero's key with it.
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "// adds", with: "_ = 0"))
            let (report, _, _) = try incrementalRun(scratch, package: package, extra: [addsZero], configure: anXCTestTestRunsAdd)
            let survivor = try #require(report.mutants.first { $0.name == "adds-zero" })
            #expect(survivor.status == .survived, "\(survivor)")
            #expect(survivor.reason == "all 2 tests passed", "adds() and unrelated() once each, not the killer's run again: \(survivor.reason ?? "")")
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/adds-zero.log"), encoding: .utf8)
            #expect(log.contains("mutate: the test that killed it in the results file runs first: Other.Suite/unrelated()"), "\(log)")
            #expect(log.contains("mutate: it did not kill it now; the mutant's tests run as usual"), "\(log)")
            #expect(log.components(separatedBy: "Test Case 'Suite.unrelated()' passed").count == 3, "its console in the log twice: \(log)")
        }
    }

    /// Only a finished run records its score: a save before the end (on an
    /// interrupt, say at the first report of a run whose verdicts were all
    /// reused, or the minute's save while mutants run) records none, even
    /// with every verdict in; the save at the end does.
    @Test func onlyTheSaveOfAFinishedRunRecordsItsScore() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let url = scratch.url.appendingPathComponent("results.json")
            var configuration = LabConfiguration(packagePath: package)
            configuration.schema = false
            let runner = ScriptedRunner()
            runner.makesTestBinary = true
            let lab = Lab(configuration: configuration, mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b")],
                          runner: runner, print: { _ in })
            let llvm = try tools(in: scratch, copy: configuration.scratchPath)
            lab.findLLVM = { _ in llvm }
            lab.coverageWorkers = 1
            lab.incremental = IncrementalRun(file: url, previous: nil, verifyCount: 0)
            let report = try lab.run()
            #expect(report.mutants.map(\.status) == [.killed])
            #expect(try ResultsFile.load(from: url)?.scores == nil, "no commit to record it under")
            // Every verdict in, none disagreeing: all a score needs but the end of the run.
            lab.incremental?.scoreCommit = "c1"
            try lab.saveIncremental()
            #expect(try ResultsFile.load(from: url)?.scores == nil, "a save before the end records no score")
            try lab.saveIncremental(finished: true)
            #expect(try ResultsFile.load(from: url)?.scores?["c1"]?.score == 100, "the finished run's save does")
        }
    }

    /// A named mutant whose code did not type-check in this run's schema (a
    /// misfit, run as a patch) may no longer compile: it runs again even when
    /// the results file holds its verdict under the same key, while the
    /// mutant the schema holds has its verdict reused.
    @Test func aNamedMutantTheSchemaLeftOutRunsAgainWhateverTheFileHolds() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let url = scratch.url.appendingPathComponent("results.json")
            let file = "Sources/Tiny/Arithmetic.swift"
            func gate() throws -> (LabReport, ScriptedRunner, String) {
                var configuration = LabConfiguration(packagePath: package)
                // No schema planned from the patches: the test's own, below, is built with the baseline.
                configuration.schema = false
                configuration.jobs = 1
                let runner = ScriptedRunner()
                runner.makesTestBinary = true
                let output = OutputBox()
                let lab = Lab(configuration: configuration, mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b"),
                                                                      try mutant("fragile", line: 4, "        a + b", "        a - b // fragile")],
                              runner: runner, print: { output.append($0) })
                lab.patchSchemaBuilder = { excluded in
                    let names = ["subtracts", "fragile"].filter { !excluded.contains($0) }
                    let fragileIn = names.contains("fragile")
                    return Schema(numbers: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) }),
                                  files: [file: Self.source + (fragileIn ? "// SCHEMA-FAILS-AT-LINE 4\n" : "// NAMED SCHEMA\n")],
                                  support: ["Sources/Tiny": "// switch\n"],
                                  bodySites: fragileIn ? [Schema.Site(id: "fragile", file: file, lines: 4...4)] : [])
                }
                let llvm = try tools(in: scratch, copy: configuration.scratchPath)
                lab.findLLVM = { _ in llvm }
                lab.coverageWorkers = 1
                lab.incremental = IncrementalRun(file: url, previous: try ResultsFile.load(from: url), verifyCount: 0, named: true)
                return (try lab.run(), runner, output.text)
            }
            let (first, _, firstOutput) = try gate()
            #expect(firstOutput.contains("1 named mutants run by switch, 1 built on their own"), "\(firstOutput)")
            #expect(first.mutants.map(\.status) == [.killed, .killed], "\(firstOutput)")
            #expect(try ResultsFile.load(from: url)?.schemaMisfits == ["fragile"])

            // Nothing changed: the schema leaves fragile out again; subtracts' verdict is reused, fragile runs.
            let (second, runner, output) = try gate()
            #expect(second.incremental?.reusedBaseline == true, "the same schema: the suite is the file's: \(output)")
            #expect(second.incremental.map { [$0.reused, $0.ran] } == [1, 1], "\(String(describing: second.incremental))")
            #expect(runner.calls.filter { $0.command == "build" }.count == 3,
                    "the schema's two attempts, then fragile's own build: \(runner.calls.map(\.command))")
            #expect(second.mutants.map(\.status) == [.killed, .killed])
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/fragile.log"), encoding: .utf8)
            #expect(!log.hasPrefix("mutate: killed, reused from"), "\(log)")
            #expect(log.contains("mutate: the test that killed it in the results file runs first: T.Suite/adds()"), "\(log)")
        }
    }

    /// Findings of the results file that no longer fit the build (a test it
    /// says ran a function this build does not have) stop the pass that
    /// trusted them: the run says why, measures every test again, and keeps
    /// the fresh map.
    @Test func earlierFindingsThatNoLongerFitTheBuildAreMeasuredAgainAndTheRunSaysWhy() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let url = scratch.url.appendingPathComponent("results.json")
            _ = try incrementalRun(scratch, package: package)
            var saved = try #require(try ResultsFile.load(from: url))
            let map = try #require(saved.coverage)
            var reached = map.reached
            reached["T.Suite/other()"] = [map.functions.count]
            let ghost = CoverageMap.Function(name: "ghost", file: "Sources/Tiny/Gone.swift", firstLine: 1, lastLine: 3, count: 1)
            saved.coverage = CoverageMap(functions: map.functions + [ghost], reached: reached, seconds: map.seconds, suiteOnly: map.suiteOnly)
            try saved.save(to: url)

            // idle changes: adds() ran Arithmetic.swift and is measured; other() and unrelated() are taken from the file.
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "1\n    }", with: "2\n    }"))
            let (_, runner, output) = try incrementalRun(scratch, package: package)
            #expect(output.contains("  2 test(s) ran no changed file: what they reach is taken from results.json"), "\(output)")
            #expect(output.contains("  1 function(s) the tests ran are not in the coverage mapping (such as ghost): the profiles and the build disagree: "
                + "every test is measured again"), "\(output)")
            #expect(runner.binaryRuns.first == ["T.Suite/adds()"], "the pass that trusted the file: \(runner.binaryRuns)")
            #expect(Set(runner.binaryRuns.dropFirst().prefix(3)) == [["T.Suite/adds()"], ["T.Suite/other()"], ["Other.Suite/unrelated()"]],
                    "then every test alone: \(runner.binaryRuns)")
            let fresh = try #require(try ResultsFile.load(from: url)?.coverage)
            #expect(!fresh.functions.contains { $0.name == "ghost" } && fresh.reached["T.Suite/other()"] == [], "\(fresh.functions.map(\.name))")
        }
    }
}

extension LabCoverageTests {
    /// The mutants whose verdicts are reused from the file are left out of
    /// explore's schema: its builder is asked for the mutants that run.
    @Test func theReusedMutantsAreLeftOutOfTheSchema() throws {
        try withScratch { scratch in
            let (first, _, _) = try exploreLab(in: scratch, output: OutputBox(), names: ["switch-1", "switch-2"], line: 4,
                                               "        a + b", "        a - b")
            _ = try exploreIncrementally(first, in: scratch, verify: 0)

            // A new mutant beside the two the file knows: only it runs.
            let output = OutputBox()
            let names = ["switch-1", "switch-2", "switch-3"]
            let (lab, _, _) = try exploreLab(in: scratch, output: output, names: names, line: 4, "        a + b", "        a - b")
            var asked: [Set<String>] = []
            lab.schemaBuilder = { excluded in
                asked.append(excluded)
                let kept = names.filter { !excluded.contains($0) }
                return Schema(numbers: Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, $0 + 1) }),
                              files: ["Sources/Tiny/Arithmetic.swift": Self.source + "// SCHEMA\n"], support: ["Sources/Tiny": "// switch\n"])
            }
            let report = try exploreIncrementally(lab, in: scratch, verify: 0)
            #expect(report.incremental?.reused == 2, "\(output.text)")
            #expect(asked == [["switch-1", "switch-2"]], "\(asked)")
            #expect(output.text.contains("  1 mutants run by switch, 0 as patches"), "\(output.text)")
        }
    }
}

extension LabCoverageTests {
    /// The files the keys count in a copy of the package with a C file in a
    /// top-level folder of its own (`Lib/Core/core.c`), for a run that has
    /// `previous` results.
    private func countedFiles(named: Bool, previous: ResultsFile?) throws -> [String] {
        try withScratch { scratch in
            let package = try package(in: scratch)
            try scratch.write("pkg/Lib/Core/core.c", "int core(void) { return 1; }\n")
            let lab = Lab(configuration: LabConfiguration(packagePath: package), mutants: [], runner: ScriptedRunner(), print: { _ in })
            lab.incremental = IncrementalRun(file: scratch.url.appendingPathComponent("results.json"), previous: previous, verifyCount: 0, named: named)
            let lock = try lab.prepareCopy()
            defer { withExtendedLifetime(lock) {} }
            try lab.fingerprintCopy()
            return lab.incremental?.rawFiles.keys.sorted() ?? []
        }
    }

    /// The gate has no target list: a file in a top-level folder that holds
    /// source code (a target declared with a path of its own) counts in its
    /// keys. Explore takes its targets' folders from the package's
    /// description (kept in the results file): a folder of code that is no
    /// target of the package counts in none of its keys.
    @Test func theGateCountsEveryTopLevelFolderOfCodeAndExploreItsTargetsFolders() throws {
        let gate = try countedFiles(named: true, previous: nil)
        #expect(gate.contains("Lib/Core/core.c"), "\(gate)")
        var previous = ResultsFile(harness: "1", commit: nil, savedAt: "now", tree: "t", common: "c", baseline: nil, coverage: nil,
                                   explored: nil, verdicts: [:])
        previous.explored = ResultsFile.Explored(paths: ["Sources"], points: [], compilerVersion: "Swift version 9.9", warnings: [], targets: [
            PackageTargets.Target(name: "Tiny", c99name: "Tiny", type: "library", moduleType: "SwiftTarget", path: "Sources/Tiny",
                                  sources: ["Arithmetic.swift"]),
        ])
        let explore = try countedFiles(named: false, previous: previous)
        #expect(!explore.contains("Lib/Core/core.c") && explore.contains("Sources/Tiny/Arithmetic.swift"), "\(explore)")
    }
}

extension LabCoverageTests {
    /// A verdict the named killers settle in this run is this run's own,
    /// even when the file holds it under the same key: it is not also
    /// counted as reused, and its log is the named test's.
    @Test func aVerdictTheNamedKillersSettleIsNotAlsoReused() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            _ = try incrementalRun(scratch, package: package, outsideFunctions: true, killedBy: "T.Suite/adds()", configureLab: Self.namedSchema)
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "1\n    }", with: "2\n    }"))
            let (report, _, output) = try incrementalRun(scratch, package: package, outsideFunctions: true, killedBy: "T.Suite/adds()",
                                                         configureLab: Self.namedSchema)
            #expect(report.incremental?.reusedBaseline == false && report.incremental?.reused == 0, "\(output)")
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/subtracts.log"), encoding: .utf8)
            #expect(log.contains("the test(s) its file names (Killed-By) run first") && !log.contains("reused from"), "\(log)")
        }
    }

    /// Without a map but with the test executable, the results file's
    /// killer runs first with the limit of no time alone.
    @Test func aKillerRunFirstWithoutAMapHasTheLimitOfNoTimeAlone() throws {
        try withScratch { scratch in
            let file = scratch.url.appendingPathComponent("results.json")
            func explore(verify: Int) throws -> (report: LabReport, runner: ScriptedRunner, output: String) {
                let output = OutputBox()
                let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: ["switch-1"], line: 4, "        a + b", "        a - b",
                                                      configureLab: { $0.jobs = 1; $0.timeoutMultiplier = 20; $0.timeoutConstant = 1 })
                lab.findLLVM = { _ in nil }
                lab.incremental = IncrementalRun(file: file, previous: try ResultsFile.load(from: file), verifyCount: verify)
                return (try lab.run(), runner, output.text)
            }
            let first = try explore(verify: 0)
            #expect(first.report.mutants.first?.killedBy == ["T.Suite/adds()"], "\(first.output)")
            let (report, runner, output) = try explore(verify: 1)
            #expect(report.incremental?.reusedBaseline == true && report.mutants.first?.status == .killed, "\(output)")
            #expect(runner.binaryRuns == [["T.Suite/adds()"]], "its killer in the file, by the executable: \(runner.binaryRuns)")
            #expect(runner.binaryLimits == [1], "\(runner.binaryLimits)")
        }
    }
}
