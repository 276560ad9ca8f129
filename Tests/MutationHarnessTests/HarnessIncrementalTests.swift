import Foundation
import Testing
@testable import MutationHarness

/// `mutate explore --incremental FILE` through `Harness.main`, with the
/// scripted toolchain of `HarnessCommandTests` (its package: the
/// subtraction is killed, the comment's mutant survives). Each mutant is
/// built on its own (`--no-schema`), so what runs shows in the runner's calls.
extension HarnessCommandTests {
    private func explore(_ scratch: Scratch, _ extra: [String] = [], runner: ScriptedRunner = ScriptedRunner()) -> Outcome {
        mutate(["explore", "--package-path", "pkg", "--no-schema", "--incremental", "results.json"] + extra, in: scratch, runner: runner,
               random: FirstInOrder())
    }

    /// Draws nothing at random: the verdicts checked are the first ones, in the run's order (the subtraction first).
    private struct FirstInOrder: RandomNumberGenerator {
        mutating func next() -> UInt64 { 0 }
    }

    private func saved(_ scratch: Scratch) throws -> ResultsFile? {
        try ResultsFile.load(from: scratch.url.appendingPathComponent("results.json"))
    }

    @Test func verdictsAreKeptAndAnUnchangedPackageRunsOnlyTheOnesChecked() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            let first = explore(scratch)
            #expect(first.code == .passed, "\(first)")
            #expect(first.output.contains("no results in \(scratch.url.path)/results.json yet"), "\(first.output)")
            #expect(first.output.contains("Incremental: 0 verdict(s) reused"), "\(first.output)")
            #expect(try saved(scratch)?.verdicts.count == 2)

            // Nothing changed, nothing checked: no build, no test.
            let quiet = ScriptedRunner()
            let second = explore(scratch, ["--verify-reused", "0"], runner: quiet)
            #expect(second.code == .passed, "\(second)")
            #expect(quiet.calls.isEmpty, "\(quiet.calls.map(\.command))")
            #expect(second.output.contains("The mutants of Sources are the results file's (the package is unchanged)\n"), "\(second.output)")
            #expect(second.output.contains("Mutants: 1 killed, 1 survived"), "a reused verdict is reported like a fresh one: \(second.output)")
            #expect(second.output.contains("Incremental: 2 verdict(s) reused from \(scratch.url.path)/results.json (0 re-run to check it, all the same), 0 mutant(s) run; the package was unchanged"),
                    "\(second.output)")
            let reusedLog = try String(contentsOf: scratch.url.appendingPathComponent("pkg/.build/mutation-report/explore/logs/\(Self.subtraction.id).log"), encoding: .utf8)
            #expect(reusedLog.contains("killed, reused from \(scratch.url.path)/results.json"), "\(reusedLog)")

            // Both checked: each built and tested, no baseline.
            let checking = ScriptedRunner()
            let third = explore(scratch, ["--verify-reused", "5"], runner: checking)
            #expect(third.code == .passed, "\(third)")
            #expect(checking.calls.map(\.command) == ["build", "test", "build", "test"], "\(checking.calls.map(\.command))")
            #expect(third.output.contains("(2 re-run to check it, all the same)"), "\(third.output)")
        }
    }

    /// A verdict the key cannot protect (here a test weakened where the
    /// harness does not look) is caught by the check: the run fails with
    /// its own code, and the file keeps only the verdicts just reached.
    @Test func aReusedVerdictThatComesOutDifferentlyFailsTheRunAndIsDropped() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            #expect(explore(scratch).code == .passed)
            let weakened = ScriptedRunner()
            weakened.testsWeakened = true
            let checked = explore(scratch, ["--verify-reused", "2"], runner: weakened)
            #expect(checked.code == .reusedVerdictWrong, "\(checked)")
            #expect(checked.output.contains("REUSED VERDICT WRONG: \(Self.subtraction.id): killed in the file, survived now"), "\(checked.output)")
            #expect(checked.errors.contains("came out differently when run again"), "\(checked.errors)")
            #expect(checked.output.contains("gave 1 wrong verdict(s) of 2 checked: every verdict reused from it is dropped from it; "
                + "only this run's own are kept"), "\(checked.output)")
            let file = try #require(try saved(scratch))
            #expect(file.verdicts[Self.subtraction.id]?.result.status == .survived, "the fresh verdict replaces the wrong one")

            // Verdicts reused but not checked go too: the file lied once.
            #expect(explore(scratch, ["--verify-reused", "0"]).code == .passed, "the file's verdicts, unchecked")
            #expect(explore(scratch, ["--verify-reused", "2"]).code == .reusedVerdictWrong, "the subtraction is caught again")
            let restored = try #require(try saved(scratch))
            #expect(restored.verdicts[Self.subtraction.id]?.result.status == .killed)
            let again = explore(scratch, ["--verify-reused", "1"], runner: weakened)
            #expect(again.code == .reusedVerdictWrong, "the subtraction is the one checked: \(again)")
            let kept = try #require(try saved(scratch))
            #expect(Array(kept.verdicts.keys) == [Self.subtraction.id], "the unchecked comment's verdict is dropped with the rest")
        }
    }

    /// A comment added in place changes no compiled code: the baseline and
    /// its map are the file's, the mutants are found again (their places
    /// are byte offsets), and no verdict's key changed.
    @Test func aCommentAddedInPlaceReusesTheBaselineAndEveryVerdict() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            #expect(explore(scratch).code == .passed)
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "    }\n}", with: "    } // add\n}"))
            let runner = ScriptedRunner()
            let outcome = explore(scratch, ["--verify-reused", "0"], runner: runner)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(outcome.output.contains("the package's code is as \(scratch.url.path)/results.json last saw it"), "\(outcome.output)")
            #expect(outcome.output.contains("Reading the compiler's syntax tree"), "the mutants are found again: \(outcome.output)")
            #expect(runner.calls.map(\.command) == ["build"], "the baseline's build; its tests are the file's: \(runner.calls.map(\.command))")
            #expect(outcome.output.contains("Incremental: 2 verdict(s) reused"), "\(outcome.output)")

            // The same comment on a line of its own moves the code below it: the baseline runs again.
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "public enum", with: "// Sums.\npublic enum"))
            let moved = explore(scratch, ["--verify-reused", "0"])
            #expect(moved.output.contains("the package changed (1 file(s): Sources/Tiny/Arithmetic.swift) since \(scratch.url.path)/results.json was written"),
                    "\(moved.output)")
        }
    }

    @Test func aChangedPackageRunsItsBaselineAgainAndTheMutantsWhoseKeyChanged() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            #expect(explore(scratch).code == .passed)
            // Without a coverage map each mutant runs the whole suite: any change re-runs it.
            try scratch.write("pkg/Sources/Tiny/More.swift", "enum More {}\n")
            let runner = ScriptedRunner()
            let outcome = explore(scratch, ["--verify-reused", "0"], runner: runner)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(outcome.output.contains("the package changed (1 file(s): Sources/Tiny/More.swift) since \(scratch.url.path)/results.json was written"),
                    "\(outcome.output)")
            #expect(runner.calls.map(\.command) == ["build", "test", "build", "test", "build", "test"], "\(runner.calls.map(\.command))")
            #expect(outcome.output.contains("Incremental: 0 verdict(s) reused"), "\(outcome.output)")
        }
    }

    /// Another compiler can give another verdict: nothing is reused, and the log says why.
    @Test func anotherToolchainReusesNothingAndSaysSo() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            #expect(explore(scratch).code == .passed)
            let same = ScriptedRunner()
            #expect(explore(scratch, ["--verify-reused", "0"], runner: same).output.contains("Incremental: 2 verdict(s) reused"), "the same toolchain")
            let upgraded = ScriptedRunner()
            upgraded.toolchain = "Swift version 10.0 (scripted)"
            let outcome = explore(scratch, ["--verify-reused", "0"], runner: upgraded)
            #expect(outcome.output.contains("the toolchain (now Swift version 10.0 (scripted)), the harness or the options changed since"), "\(outcome.output)")
            #expect(outcome.output.contains("Incremental: 0 verdict(s) reused"), "\(outcome.output)")
        }
    }

    /// An interrupted run keeps the verdicts it reached; the next one reuses them.
    @Test func anInterruptedRunKeepsTheVerdictsItReached() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            let runner = ScriptedRunner()
            runner.interruptAtTest = 3 // the baseline, the first mutant, then the second's tests
            #expect(explore(scratch, runner: runner).code == .interrupted)
            #expect(try saved(scratch)?.verdicts.count == 1)
            let next = ScriptedRunner()
            let outcome = explore(scratch, ["--verify-reused", "0"], runner: next)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(next.calls.map(\.command) == ["build", "test"], "only the mutant without a verdict runs: \(next.calls.map(\.command))")
            #expect(outcome.output.contains("1 verdict(s) reused"), "\(outcome.output)")
        }
    }

    /// What cannot be a results file is refused before any build, and left as it was.
    @Test func aResultsFileThatCannotBeUsedIsRefusedBeforeAnyBuild() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            try scratch.write("results.json", "{\"theme\": \"dark\"}")
            let runner = ScriptedRunner()
            let outcome = explore(scratch, runner: runner)
            #expect(outcome.code == .usage)
            #expect(outcome.errors.contains("is not a results file of `mutate --incremental` or `mutate explore --incremental`: not touched"), "\(outcome.errors)")
            #expect(runner.calls.isEmpty)
            #expect(try String(contentsOf: scratch.url.appendingPathComponent("results.json"), encoding: .utf8) == "{\"theme\": \"dark\"}")

            let inCopy = mutate(["explore", "--package-path", "pkg", "--incremental", "pkg/.build/mutate/scratch/results.json"], in: scratch)
            #expect(inCopy.code == .usage)
            #expect(inCopy.errors.contains("lies in the scratch copy"), "\(inCopy.errors)")
            for arguments in [["--verify-reused", "2"], ["--incremental", "r.json", "--verify-reused", "-1"], ["--incremental", "r.json", "--list"]] {
                let refused = mutate(["explore", "--package-path", "pkg"] + arguments, in: scratch)
                #expect(refused.code == .usage, "\(arguments): \(refused)")
            }
        }
    }
}

extension HarnessCommandTests {
    /// Draws the last choice every time: of two verdicts, the shuffle puts the second first.
    private struct LastInOrder: RandomNumberGenerator {
        mutating func next() -> UInt64 { .max }
    }

    /// The verdicts re-run to check the file are drawn at random, not the first ones in the run's order.
    @Test func theVerdictsCheckedAreDrawnAtRandom() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            #expect(explore(scratch).code == .passed)
            let checking = ScriptedRunner()
            let checked = mutate(["explore", "--package-path", "pkg", "--no-schema", "--incremental", "results.json", "--verify-reused", "1"],
                                 in: scratch, runner: checking, random: LastInOrder())
            #expect(checked.code == .passed, "\(checked)")
            let sources = checking.calls.map(\.source)
            #expect(!sources.isEmpty && sources.allSatisfy { $0.contains("a + b // sums") },
                    "the comment's mutant, drawn first, is the one re-run, not the subtraction: \(sources)")
        }
    }
}
