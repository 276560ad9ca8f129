import Foundation
import Testing
@testable import MutationHarness

/// `mutate --incremental FILE`: the gate keeps its named mutants' verdicts
/// as explore keeps its own, through `Harness.main` with the scripted
/// toolchain of `HarnessCommandTests` (`a - b` is killed, `a + b // sums`
/// survives). The named mutants run by their switch in one schema build,
/// as in a real gate; the scripted package has no test executable to
/// start, so each mutant runs the whole suite and its key holds the whole package.
extension HarnessCommandTests {
    private func gate(_ scratch: Scratch, _ extra: [String] = [], runner: ScriptedRunner = ScriptedRunner()) -> Outcome {
        mutate(["--package-path", "pkg", "--incremental", "gate.json"] + extra, in: scratch, runner: runner)
    }

    private func kept(_ scratch: Scratch, _ name: String = "gate.json") throws -> ResultsFile? {
        try ResultsFile.load(from: scratch.url.appendingPathComponent(name))
    }

    private static let mutants = ["subtracts": "        a - b // adds", "harmless": "        a + b // sums"]

    @Test func theGateKeepsItsVerdictsAndAnUnchangedPackageRunsNoTest() throws {
        try withScratch { scratch in
            _ = try package(in: scratch, mutants: Self.mutants)
            let first = gate(scratch)
            #expect(first.code == .survived, "\(first)")
            #expect(first.output.contains("no results in \(scratch.url.path)/gate.json yet"), "\(first.output)")
            let file = try #require(try kept(scratch))
            #expect(file.holdsNamedMutants, "the file says whose verdicts it keeps")
            #expect(file.verdicts["subtracts"]?.result.status == .killed && file.verdicts["harmless"]?.result.status == .survived)
            #expect(file.baseline?.schema != nil, "the suite ran in the named mutants' schema, and the file says which")

            // Nothing changed: the schema is built (the copy is put back after each run), no test runs.
            let quiet = ScriptedRunner()
            let second = gate(scratch, ["--verify-reused", "0"], runner: quiet)
            #expect(second.code == .survived, "a reused survivor fails the gate as a fresh one does: \(second)")
            #expect(quiet.calls.map(\.command) == ["build"], "\(quiet.calls.map(\.command))")
            #expect(second.output.contains("its baseline and coverage map are reused if the named mutants' schema is the same build"), "\(second.output)")
            #expect(second.output.contains("Gate FAILED: 1 mutant(s) survived (harmless)"), "\(second.output)")
            #expect(second.output.contains("Incremental: 2 verdict(s) reused from \(scratch.url.path)/gate.json (0 re-run to check it, all the same), "
                + "0 mutant(s) run; the package was unchanged"), "\(second.output)")
            #expect(second.output.contains("  2 named mutants run by switch, 0 built on their own"), "the switches still known: \(second.output)")

            // Checked: the verdict drawn runs by its switch; the suite is still the file's.
            let checking = ScriptedRunner()
            let third = gate(scratch, ["--verify-reused", "1"], runner: checking)
            #expect(third.code == .survived, "\(third)")
            #expect(checking.calls.map(\.command) == ["build", "test"], "\(checking.calls.map(\.command))")
            #expect(third.output.contains("(1 re-run to check it, all the same), 0 mutant(s) run"), "\(third.output)")
        }
    }

    /// A mutant edited rewrites the schema: the suite has not been seen
    /// green in that build, so it runs again, and only the edited mutant's
    /// key changed. Its new verdict (killed) replaces the old one.
    @Test func anEditedMutantRunsTheSuiteAgainAndOnlyItself() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: Self.mutants)
            #expect(gate(scratch).code == .survived)
            let patch = package.appendingPathComponent("mutants/harmless.patch")
            let text = try String(contentsOf: patch, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "+        a + b // sums", with: "+        a - b // sums").utf8).write(to: patch)
            let runner = ScriptedRunner()
            let outcome = gate(scratch, ["--verify-reused", "0"], runner: runner)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(runner.calls.map(\.command) == ["build", "test", "test"], "the schema, the suite, the edited mutant: \(runner.calls.map(\.command))")
            #expect(outcome.output.contains("the package is as \(scratch.url.path)/gate.json last saw it"), "\(outcome.output)")
            #expect(outcome.output.contains("the named mutants' schema is not the build the file's suite ran in"), "\(outcome.output)")
            #expect(outcome.output.contains("Incremental: 1 verdict(s) reused"), "\(outcome.output)")
            #expect(try kept(scratch)?.verdicts["harmless"]?.result.status == .killed)

            // A change to the package's code: each key holds the whole package (no coverage map here), so both run.
            try scratch.write("pkg/Sources/Tiny/More.swift", "enum More {}\n")
            let changed = ScriptedRunner()
            let again = gate(scratch, ["--verify-reused", "0"], runner: changed)
            #expect(again.code == .passed, "\(again)")
            #expect(changed.calls.map(\.command) == ["build", "test", "test", "test"], "\(changed.calls.map(\.command))")
            #expect(again.output.contains("the package changed (1 file(s): Sources/Tiny/More.swift)"), "\(again.output)")
        }
    }

    /// Explore's file and the gate's keep different mutants: each command
    /// refuses the other's file before any build and leaves it as it was.
    @Test func eachCommandRefusesTheOthersResultsFileAndLeavesItAlone() throws {
        try withScratch { scratch in
            _ = try package(in: scratch, mutants: Self.mutants)
            #expect(gate(scratch).code == .survived)
            let gateFile = try Data(contentsOf: scratch.url.appendingPathComponent("gate.json"))
            let runner = ScriptedRunner()
            let explore = mutate(["explore", "--package-path", "pkg", "--incremental", "gate.json"], in: scratch, runner: runner)
            #expect(explore.code == .usage, "\(explore)")
            #expect(explore.errors.contains("\(scratch.url.path)/gate.json keeps the verdicts of the gate's named mutants, written by `mutate --incremental`: "
                + "not touched; give each command its own file"), "\(explore.errors)")
            #expect(try Data(contentsOf: scratch.url.appendingPathComponent("gate.json")) == gateFile)

            #expect(mutate(["explore", "--package-path", "pkg", "--no-schema", "--incremental", "explore.json"], in: scratch).code == .passed)
            let exploreFile = try Data(contentsOf: scratch.url.appendingPathComponent("explore.json"))
            #expect(try kept(scratch, "explore.json")?.holdsNamedMutants == false)
            let refused = mutate(["--package-path", "pkg", "--incremental", "explore.json"], in: scratch, runner: runner)
            #expect(refused.code == .usage, "\(refused)")
            #expect(refused.errors.contains("explore.json keeps the verdicts of explore's generated mutants, written by `mutate explore --incremental`"),
                    "\(refused.errors)")
            #expect(try Data(contentsOf: scratch.url.appendingPathComponent("explore.json")) == exploreFile)
            #expect(runner.calls.isEmpty, "refused before any build: \(runner.calls.map(\.command))")
        }
    }
}
