import Foundation
import Testing
@testable import MutationHarness

/// Every sub-command through `Harness.main`, as the `mutate` executable
/// runs it, with a scripted toolchain: what it prints on each stream and
/// the exit code it returns. No build and no test process is started, so
/// these run inside a mutate run too and kill mutants in the command layer.
@Suite(.ownThread)
struct HarnessCommandTests {
    struct Outcome {
        var code: HarnessExitCode
        var output: String
        var errors: String
    }

    /// `a + b`, with a comment after it: the generated mutants below are
    /// the subtraction (killed) and a change of the comment (survives).
    static let source = "public enum Arithmetic {\n    public static func add(_ a: Int, _ b: Int) -> Int {\n        a + b // adds\n    }\n}\n"

    static func point(_ text: String, _ replacement: String, _ mutationOperator: MutationOperator) -> MutationPoint {
        let bytes = Array(source.utf8)
        let needle = Array(text.utf8)
        let start = (0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }!
        let lineStart = bytes[..<start].lastIndex(of: UInt8(ascii: "\n"))! + 1
        return MutationPoint(file: "Sources/Tiny/Arithmetic.swift", start: start, end: start + needle.count, line: 3,
                             column: start - lineStart + 1, mutationOperator: mutationOperator, original: text, replacement: replacement)
    }

    static let subtraction = point("+", "-", .arithmetic)
    static let comment = point("adds", "sums", .booleanLiteral)

    func package(in scratch: Scratch, mutants: [String: String] = [:]) throws -> URL {
        try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\n")
        try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source)
        try scratch.write("pkg/mutants/.keep", "")
        for (name, change) in mutants {
            try scratch.write("pkg/mutants/\(name).patch", """
                Mutant: \(name)
                Description: \(name) in a user's words

                --- a/Sources/Tiny/Arithmetic.swift
                +++ b/Sources/Tiny/Arithmetic.swift
                @@ -3 +3 @@
                -        a + b // adds
                +\(change)

                """)
        }
        return scratch.url.appendingPathComponent("pkg")
    }

    func mutate(_ arguments: [String], in scratch: Scratch, runner: ScriptedRunner = ScriptedRunner(),
                        points: [MutationPoint] = [subtraction, comment], warnings: [String] = [], failing: (any Error)? = nil,
                        random: (any RandomNumberGenerator)? = nil) -> Outcome
    {
        let output = OutputBox()
        let errors = OutputBox()
        var harness = Harness(workingDirectory: scratch.url, print: { output.append($0) }, printError: { errors.append($0) })
        harness.toolchain.runner = runner
        harness.headCommit = { _ in "abc1234" }
        if let random { harness.makeRandom = { random } }
        harness.toolchain.findPoints = { explorer, _, print in
            print("  reading Tiny (1 file(s))")
            if let failing { throw failing }
            let wanted = points.filter { point in explorer.paths.contains { Explorer.isWithin(point.file, $0) } }
            return Explorer.Found(points: wanted, compilerVersion: "Swift version 9.9", warnings: warnings, targets: [
                PackageTargets.Target(name: "Tiny", c99name: "Tiny", type: "library", moduleType: "SwiftTarget", path: "Sources/Tiny",
                                      sources: ["Arithmetic.swift"]),
            ])
        }
        let code = harness.main(arguments)
        return Outcome(code: code, output: output.text, errors: errors.text)
    }

    func builds(_ runner: ScriptedRunner) -> Int { runner.calls.filter { $0.command == "build" }.count }

    // MARK: - run

    /// `--jobs N` is the lab's number of jobs, and no spare ones; without
    /// it, one per core and three spare per job (while a core is idle).
    @Test func jobsGivenOnTheCommandLineAreTheLabsJobs() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            let harness = Harness(workingDirectory: scratch.url, print: { _ in }, printError: { _ in })
            for jobs in [1, 3] {
                guard case .run(let options) = try OptionParser.parse(["--package-path", "pkg", "--jobs", "\(jobs)"]) else {
                    Issue.record("expected run")
                    return
                }
                #expect(harness.configuration(options)?.jobs == jobs, "\(ProcessInfo.processInfo.activeProcessorCount) cores here")
                #expect(harness.configuration(options)?.spareJobs == 0, "--jobs is kept exact")
            }
            guard case .run(let plain) = try OptionParser.parse(["--package-path", "pkg"]) else { return }
            #expect(harness.configuration(plain)?.jobs == ProcessInfo.processInfo.activeProcessorCount)
            #expect(harness.configuration(plain)?.spareJobs == 3 * ProcessInfo.processInfo.activeProcessorCount)
        }
    }

    @Test func aRunPrintsWhatItRunsTheVerdictAndWhereTheReportsAre() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds"])
            let runner = ScriptedRunner()
            let outcome = mutate(["--package-path", "pkg"], in: scratch, runner: runner)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(runner.watched == [false, true], "the baseline runs to the end; a mutant's run stops at its first failure: \(runner.watched)")
            #expect(outcome.output.contains("Running 1 mutant(s) from \(package.path)/mutants\n"), "\(outcome.output)")
            #expect(outcome.output.contains("\n  2 file(s) updated in the scratch copy\n"), "progress while copying: \(outcome.output)")
            #expect(outcome.output.contains("Mutants: 1 killed\nScore: 100.0% (threshold 100%)"), "\(outcome.output)")
            #expect(outcome.output.contains("Gate PASSED: 1 of 1 mutants detected"), "\(outcome.output)")
            #expect(outcome.output.hasSuffix("Reports: \(package.path)/.build/mutation-report/report.md, report.json, junit.xml, logs/"))
            #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent(".build/mutation-report/report.json").path))
            #expect(outcome.errors.isEmpty, "\(outcome.errors)")
        }
    }

    /// The whole of what a run prints, times and paths aside: a line added,
    /// lost or moved shows here, not only a missing phrase.
    @Test func aRunPrintsThisAndNothingElse() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds"])
            let outcome = mutate(["--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(Self.normalized(outcome.output, package: package) == """
                Running 1 mutant(s) from PKG/mutants
                Copying PKG to PKG/.build/mutate/scratch
                  2 file(s) updated in the scratch copy
                Building the unmutated package with the named mutants' schema (1 mutants in one build, attempt 1)...
                  built in N.Ns; running the tests...
                  3 tests passed in N.Ns; each mutant's tests get N.Ns
                  1 named mutants run by switch, 0 built on their own
                  no test executable to start directly in PKG/.build/mutate/scratch/.build/debug: every mutant runs the whole suite
                [1/1] subtracts: building and testing...
                [1/1] killed    subtracts  N.Ns (build N.Ns, tests N.Ns)  by T.Suite/adds()
                  progress 1/1 (100%), 1 of 1 detected (100.0%), about N.Ns left
                Mutants: 1 killed
                Score: 100.0% (threshold 100%)
                Gate PASSED: 1 of 1 mutants detected; score 100.0% meets the threshold 100%.
                Reports: PKG/.build/mutation-report/report.md, report.json, junit.xml, logs/
                """, "\(outcome.output)")
            #expect(outcome.errors.isEmpty, "\(outcome.errors)")
        }
    }

    /// The whole of what explore, check and list print, times and paths aside.
    @Test func exploreCheckAndListPrintThisAndNothingElse() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds"])
            var outcome = mutate(["explore", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(Self.normalized(outcome.output, package: package) == """
                Copying PKG to PKG/.build/mutate/scratch
                  2 file(s) updated in the scratch copy
                Building the unmutated package (the first build of a fresh scratch copy takes longest)...
                  built in N.Ns; running the tests...
                  3 tests passed in N.Ns; each mutant's tests get N.Ns
                  no test executable to start directly in PKG/.build/mutate/scratch/.build/debug: every mutant runs the whole suite
                Reading the compiler's syntax tree of Sources...
                  reading Tiny (1 file(s))
                Building the mutant schema (2 mutants in one build, attempt 1)...
                  built in N.Ns
                  2 mutants run by switch, 0 as patches
                [1/2] ff1cb234: building and testing...
                [1/2] killed    ff1cb234  N.Ns (build N.Ns, tests N.Ns)  by T.Suite/adds()
                  progress 1/2 (50%), 1 of 1 detected (100.0%), about N.Ns left
                [2/2] d66a059a: building and testing...
                [2/2] survived  d66a059a  N.Ns (build N.Ns, tests N.Ns)  boolean-literal at Sources/Tiny/Arithmetic.swift:3:18: `adds` -> `sums` (Sources/Tiny/Arithmetic.swift:3; diff in report.md)
                  progress 2/2 (100%), 1 of 2 detected (50.0%), about N.Ns left
                Mutants: 1 killed, 1 survived
                Score: 50.0% (threshold 100%)
                Compiler: Swift version 9.9
                survived  d66a059a  boolean-literal at Sources/Tiny/Arithmetic.swift:3:18: `adds` -> `sums`
                Reports: PKG/.build/mutation-report/explore/report.md, report.json, junit.xml, summary.md, logs/
                Kill a survivor with a test, then keep it: `swift run mutate promote ID NAME --description TEXT`; or list it in mutants/explore-ignore with a reason.
                """, "\(outcome.output)")
            #expect(outcome.errors.isEmpty, "\(outcome.errors)")
            outcome = mutate(["check", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(outcome.output == "ok     subtracts\n1 of 1 mutants apply to the current source" && outcome.errors.isEmpty, "\(outcome)")
            outcome = mutate(["list", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(outcome.output == "subtracts: subtracts in a user's words" && outcome.errors.isEmpty, "\(outcome)")
        }
    }

    /// `output` with the package's path as `PKG` and every duration as `N.Ns`.
    static func normalized(_ output: String, package: URL) -> String {
        output.replacingOccurrences(of: package.path, with: "PKG")
            .replacingOccurrences(of: #"\b\d+(\.\d+)?s\b"#, with: "N.Ns", options: .regularExpression)
    }

    @Test func aSurvivorFailsTheGateAndASelectedOrShardedRunSaysSo() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds", "harmless": "        a + b // sums"])
            var outcome = mutate(["--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .survived)
            #expect(outcome.output.contains("Gate FAILED: 1 mutant(s) survived (harmless)"), "\(outcome.output)")

            // A run of chosen mutants keeps its own report, not the full run's.
            outcome = mutate(["--package-path", "pkg", "--mutant", "subtracts"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(outcome.output.contains("Running 1 mutant(s)"), "\(outcome.output)")
            #expect(outcome.output.contains("Reports: \(package.path)/.build/mutation-report/selected/report.md"), "\(outcome.output)")

            let runner = ScriptedRunner()
            outcome = mutate(["--package-path", "pkg", "--shard", "1/2"], in: scratch, runner: runner)
            #expect(outcome.output.contains("Running 1 mutant(s) from \(package.path)/mutants (shard 1/2)"), "\(outcome.output)")
            #expect(builds(runner) == 1, "the baseline, with the shard's one mutant behind its switch")
            #expect(outcome.output.contains("named mutants' schema (1 mutants in one build"), "only the shard's mutant: \(outcome.output)")
        }
    }

    @Test func whatStopsARunEndsInItsOwnExitCodeAndMessage() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds"])

            let interrupting = ScriptedRunner()
            interrupting.interruptAtTest = 2
            var outcome = mutate(["--package-path", "pkg"], in: scratch, runner: interrupting)
            #expect(outcome.code == .interrupted)
            #expect(outcome.errors.hasPrefix("interrupted by signal \(SIGINT): no verdict for the mutant that was running; "
                + "\(package.path)/.build/mutation-report/report.md lists the mutants that finished"), "\(outcome.errors)")

            let lockFolder = package.appendingPathComponent(".build/mutate/scratch")
            try FileManager.default.createDirectory(at: lockFolder, withIntermediateDirectories: true)
            do {
                let lock = try ScratchLock(root: lockFolder, wait: false) {}
                outcome = mutate(["--package-path", "pkg"], in: scratch)
                #expect(outcome.code == .locked, "\(outcome)")
                #expect(outcome.errors.hasPrefix("error: "), "\(outcome.errors)")
                withExtendedLifetime(lock) {}
            }

            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "a + b", with: "BROKEN"))
            outcome = mutate(["--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .baselineFailed, "\(outcome)")
            #expect(outcome.errors.hasPrefix("error: "), "\(outcome.errors)")

            // explore says the same on standard error, with the same codes.
            outcome = mutate(["explore", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .baselineFailed, "\(outcome)")
            #expect(outcome.errors.hasPrefix("error: "), "\(outcome.errors)")
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source)
            let interruptingExplore = ScriptedRunner()
            interruptingExplore.interruptAtTest = 2
            outcome = mutate(["explore", "--package-path", "pkg"], in: scratch, runner: interruptingExplore)
            #expect(outcome.code == .interrupted)
            #expect(outcome.errors.hasPrefix("interrupted by signal \(SIGINT): no verdict for the mutant that was running; "
                + "\(package.path)/.build/mutation-report/explore/report.md lists the mutants that finished"),
                    "\(outcome.errors)")
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "a + b", with: "BROKEN"))

            // A scratch folder that is a file cannot be made a workspace.
            try scratch.write("elsewhere/file", "")
            outcome = mutate(["--package-path", "pkg", "--scratch", "elsewhere/file"], in: scratch)
            #expect(outcome.code == .usage, "\(outcome)")
            #expect(outcome.errors.hasPrefix("error: "), "\(outcome.errors)")
        }
    }

    // MARK: - rebase

    /// `subtracts` recorded when `a + b` sat on line 3 of a shorter file.
    private func staleAfterARefactor(in scratch: Scratch) throws -> URL {
        let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds"])
        try scratch.write("pkg/Sources/Tiny/Arithmetic.swift",
                          "import Foundation\n\npublic enum Arithmetic {\n    public enum Integers {\n        public static func add(_ a: Int, _ b: Int) -> Int {\n            a + b // adds\n        }\n    }\n}\n")
        return package
    }

    @Test func rebaseCarriesAStaleMutantWritesItsFileAndCheckThenPasses() throws {
        try withScratch { scratch in
            let package = try staleAfterARefactor(in: scratch)
            let file = package.appendingPathComponent("mutants/subtracts.patch")
            let before = try String(contentsOf: file, encoding: .utf8)
            var outcome = mutate(["check", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .brokenMutant)
            #expect(outcome.output.contains("\n       `mutate rebase subtracts` can carry it: Sources/Tiny/Arithmetic.swift '@@ -3 +3 @@' -> Sources/Tiny/Arithmetic.swift:6 (by its lines)\n"),
                    "\(outcome.output)")

            outcome = mutate(["rebase", "--dry-run", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome.errors)")
            #expect(try String(contentsOf: file, encoding: .utf8) == before, "--dry-run writes nothing")
            #expect(outcome.output.contains("\n  --        a + b // adds\n"), "the old patch: \(outcome.output)")
            #expect(outcome.output.contains("\n  +-            a + b // adds\n  ++            a - b // adds\n"), "the new patch, re-indented: \(outcome.output)")
            #expect(outcome.output.hasSuffix("1 would be rebased, 0 left stale, 0 already apply"), "\(outcome.output)")
            // The file's diff, its blank line kept as context: the header gains one line, nothing else moves.
            #expect(outcome.output.contains("\n   Description: subtracts in a user's words\n  +Rebased: "), "\(outcome.output)")
            #expect(outcome.output.contains(" onto abc1234\n   \n  +diff --git a/Sources/Tiny/Arithmetic.swift"), "\(outcome.output)")

            let printed = OutputBox(), progress = OutputBox()
            var harness = Harness(workingDirectory: scratch.url, print: { printed.append($0) }, printError: { progress.append($0) })
            harness.now = { Date(timeIntervalSince1970: 1_800_000_000) } // 2027-01-15
            harness.headCommit = { _ in nil }
            let builds = ScriptedRunner()
            harness.toolchain.runner = builds
            #expect(harness.main(["rebase", "subtracts", "--package-path", "pkg"]) == .passed)
            #expect(builds.calls.map(\.command) == ["build", "build"], "the package, then the carried mutant; no test")
            #expect(progress.text.contains("\n[1/1] subtracts: building...\n"), "\(progress.text)")
            #expect(builds.calls.last?.source.contains("            a - b // adds") == true, "built with the new patch applied")
            #expect(printed.text == """
                rebased  subtracts: Sources/Tiny/Arithmetic.swift '@@ -3 +3 @@' -> Sources/Tiny/Arithmetic.swift:6 (by its lines)
                1 rebased, 0 left stale, 0 already apply; run the gate on them (`swift run mutate --mutant NAME`) to see each one killed
                """, "\(printed.text)")
            #expect(progress.text.hasPrefix("Building each carried mutant on today's source (1), in the scratch copy:\n"), "\(progress.text)")
            let after = try String(contentsOf: file, encoding: .utf8)
            #expect(after.hasPrefix("Mutant: subtracts\nDescription: subtracts in a user's words\nRebased: 2027-01-15\n\n"), "\(after)")
            outcome = mutate(["check", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed, "\(outcome.output)")
            outcome = mutate(["rebase", "--package-path", "pkg"], in: scratch)
            #expect(outcome.output == "ok       subtracts: applies as it is\n0 rebased, 0 left stale, 1 already apply")
        }
    }

    /// A patch carried to a place where it does not compile is not written:
    /// a rebased mutant that cannot build would be unviable in every gate.
    @Test func rebaseLeavesAMutantThatDoesNotBuildWhereItWasCarriedStale() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        BROKEN // adds"])
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift",
                              "import Foundation\n\npublic enum Arithmetic {\n    public enum Integers {\n        public static func add(_ a: Int, _ b: Int) -> Int {\n            a + b // adds\n        }\n    }\n}\n")
            let file = package.appendingPathComponent("mutants/subtracts.patch")
            let before = try String(contentsOf: file, encoding: .utf8)
            for arguments in [["rebase", "--dry-run", "--package-path", "pkg"], ["rebase", "--package-path", "pkg"]] {
                let runner = ScriptedRunner()
                let outcome = mutate(arguments, in: scratch, runner: runner)
                #expect(outcome.code == .brokenMutant, "\(outcome)")
                #expect(outcome.output == """
                    stale    subtracts: carried (Sources/Tiny/Arithmetic.swift '@@ -3 +3 @@' -> Sources/Tiny/Arithmetic.swift:6 (by its lines)) \
                    but it does not build there: Sources/Tiny/Arithmetic.swift:4:9: error: cannot find 'BROKEN' in scope; its file is unchanged
                    0 \(arguments.contains("--dry-run") ? "would be rebased" : "rebased"), 1 left stale, 0 already apply
                    """, "\(outcome.output)")
                #expect(outcome.errors.contains("[1/1] does not build subtracts"), "progress on standard error: \(outcome.errors)")
                #expect(runner.calls.map(\.command) == ["build", "build"])
                #expect(try String(contentsOf: file, encoding: .utf8) == before, "the file is unchanged")
                let copy = try String(contentsOf: package.appendingPathComponent(".build/mutate/scratch/Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                #expect(!copy.contains("BROKEN"), "the copy is put back")
            }
            let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/rebase/logs/subtracts.log"), encoding: .utf8)
            #expect(log.components(separatedBy: "cannot find 'BROKEN'").count == 2, "the second run's log holds its own build only: \(log)")
        }
    }

    @Test func rebaseLeavesAMutantWhoseLinesAreGoneStaleAndItsFileUntouched() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds"])
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source.replacingOccurrences(of: "a + b // adds", with: "b + a // adds"))
            let file = package.appendingPathComponent("mutants/subtracts.patch")
            let before = try String(contentsOf: file, encoding: .utf8)
            let runner = ScriptedRunner()
            var outcome = mutate(["rebase", "--package-path", "pkg"], in: scratch, runner: runner)
            #expect(outcome.code == .brokenMutant)
            #expect(runner.calls.isEmpty, "nothing was carried: nothing is built")
            #expect(outcome.errors.isEmpty, "no build, so no progress: \(outcome.errors)")
            #expect(outcome.output.hasSuffix("\n0 rebased, 1 left stale, 0 already apply"), "\(outcome.output)")
            #expect(outcome.output.hasPrefix("stale    subtracts: Sources/Tiny/Arithmetic.swift: the lines hunk '@@ -3 +3 @@' changes are gone ('a + b // adds'), "
                + "and no line like it holds its `+` among the same neighbours; nearest: Sources/Tiny/Arithmetic.swift:3 ("),
                    "\(outcome.output)")
            #expect(try String(contentsOf: file, encoding: .utf8) == before)
            outcome = mutate(["check", "--package-path", "pkg"], in: scratch)
            #expect(outcome.output.contains("\n       rebase cannot carry it: "), "\(outcome.output)")

            outcome = mutate(["rebase", "Not_A_Name", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .usage)
            outcome = mutate(["rebase", "missing", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .usage)
            #expect(outcome.errors.contains("missing"), "\(outcome.errors)")
        }
    }

    // MARK: - list and check

    @Test func aFolderWithoutAPackageIsRefusedByEveryCommandThatReadsIt() throws {
        try withScratch { scratch in
            try scratch.write("nowhere/.keep", "")
            let expected = "error: no Package.swift in \(scratch.url.appendingPathComponent("nowhere").path): pass the package folder with --package-path"
            for arguments in [["list"], ["check"], [], ["explore"], ["promote", "12345678", "name", "--description", "d"]] {
                let outcome = mutate(arguments + ["--package-path", "nowhere"], in: scratch)
                #expect(outcome.code == .usage, "\(arguments)")
                #expect(outcome.errors == expected, "\(arguments): \(outcome.errors)")
                #expect(outcome.output.isEmpty, "\(arguments): \(outcome.output)")
            }
        }
    }

    @Test func listAndCheckPrintEachMutantAndRefuseOneThatReachesOutsideTheCopy() throws {
        try withScratch { scratch in
            let package = try package(in: scratch, mutants: ["subtracts": "        a - b // adds"])
            var outcome = mutate(["list", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed)
            #expect(outcome.output == "subtracts: subtracts in a user's words")
            outcome = mutate(["check", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed)
            #expect(outcome.output == "ok     subtracts\n1 of 1 mutants apply to the current source")

            // Old and new path are the same refused file: one line for it, then the rule.
            try scratch.write("pkg/mutants/escapes.patch", """
                Mutant: escapes
                Description: writes into the build folder

                --- a/.build/cache.swift
                +++ b/.build/cache.swift
                @@ -1 +1 @@
                -old
                +new

                """)
            outcome = mutate(["list", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .usage)
            let lines = outcome.errors.split(separator: "\n")
            #expect(lines.count == 2, "\(outcome.errors)")
            #expect(lines.first?.hasPrefix("error: \(package.path)/mutants/escapes.patch: ") == true, "\(outcome.errors)")
            #expect(lines.last == "A mutant may change only files the scratch copy holds: the package's non-hidden files outside .build/ and mutants/, not through a symbolic link.")

            try FileManager.default.removeItem(at: package.appendingPathComponent("mutants/escapes.patch"))
            try scratch.write("pkg/mutants/unreadable.patch", "no header here\n")
            outcome = mutate(["check", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .usage)
            #expect(outcome.errors.hasPrefix("error: ") && outcome.errors.contains("unreadable.patch"), "\(outcome.errors)")

            // A mutant whose hunk no longer matches the source is stale: named, counted, and the exit says so.
            try FileManager.default.removeItem(at: package.appendingPathComponent("mutants/unreadable.patch"))
            try scratch.write("pkg/mutants/stale.patch", "Mutant: stale\nDescription: d\n\n--- a/Sources/Tiny/Arithmetic.swift\n+++ b/Sources/Tiny/Arithmetic.swift\n@@ -3 +3 @@\n-        a * b\n+        a / b\n")
            outcome = mutate(["check", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .brokenMutant)
            #expect(outcome.output.hasPrefix("stale  stale: "), "\(outcome.output)")
            #expect(outcome.output.hasSuffix("\nok     subtracts\n1 of 2 mutants apply to the current source"), "\(outcome.output)")
        }
    }

    // MARK: - explore

    @Test func exploreRunsTheGeneratedMutantsAndNamesEachSurvivor() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            var outcome = mutate(["explore", "--package-path", "pkg", "--no-schema"], in: scratch, runner: runner)
            #expect(outcome.code == .passed, "explore reports, it does not gate: \(outcome)")
            #expect(outcome.output.contains("Reading the compiler's syntax tree of Sources...\n  reading Tiny (1 file(s))"), "\(outcome.output)")
            #expect(outcome.output.contains("Mutants: 1 killed, 1 survived"), "\(outcome.output)")
            #expect(outcome.output.contains("Compiler: Swift version 9.9"), "\(outcome.output)")
            let survivor = outcome.output.split(separator: "\n").filter { $0.hasPrefix("survived  ") }
            #expect(survivor.count == 1 && survivor[0].hasPrefix("survived  \(Self.comment.id)  ") && survivor[0].contains("Arithmetic.swift:3:"),
                    "\(outcome.output)")
            #expect(!outcome.output.contains("survived  \(Self.subtraction.id)"), "\(outcome.output)")
            #expect(outcome.output.contains("Reports: \(package.path)/.build/mutation-report/explore/report.md"), "\(outcome.output)")
            #expect(!outcome.output.contains("Gate "), "no verdict without --threshold")
            #expect(outcome.output.hasSuffix("Kill a survivor with a test, then keep it: `swift run mutate promote ID NAME --description TEXT`; "
                + "or list it in mutants/explore-ignore with a reason."), "\(outcome.output)")
            #expect(builds(runner) == 3, "without the schema: the baseline, then one build per mutant")
            #expect(runner.watched.first == false && runner.watched.count > 1 && runner.watched.dropFirst().allSatisfy { $0 },
                    "explore stops each mutant's test run at its first failure, never the baseline's: \(runner.watched)")

            // With --threshold it gates like a run.
            outcome = mutate(["explore", "--package-path", "pkg", "--no-schema", "--threshold", "100"], in: scratch)
            #expect(outcome.code == .survived)
            #expect(outcome.output.contains("Gate FAILED: 1 mutant(s) survived (\(Self.comment.id))"), "\(outcome.output)")
            outcome = mutate(["explore", "--package-path", "pkg", "--no-schema", "--threshold", "50"], in: scratch)
            #expect(outcome.code == .passed)
        }
    }

    @Test func exploreBuildsOneSchemaForAllItsMutants() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            let runner = ScriptedRunner()
            let outcome = mutate(["explore", "--package-path", "pkg"], in: scratch, runner: runner)
            #expect(outcome.code == .passed)
            #expect(outcome.output.contains("Mutants: 1 killed, 1 survived"), "\(outcome.output)")
            #expect(builds(runner) == 2, "the baseline and the schema: \(runner.calls.map(\.command))")
            #expect(runner.schemaIDs.contains("1") && runner.schemaIDs.contains("2"), "\(runner.schemaIDs)")
        }
    }

    /// When the syntax tree cannot be read, explore stops with the reason and
    /// the usage code; no mutant runs.
    @Test func exploreThatCannotReadTheSyntaxTreeSaysWhy() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            let runner = ScriptedRunner()
            let outcome = mutate(["explore", "--package-path", "pkg"], in: scratch, runner: runner,
                                 failing: ASTDumpError(reason: "the compiler printed no syntax tree"))
            #expect(outcome.code == .usage, "\(outcome)")
            #expect(outcome.errors.contains("error: the compiler printed no syntax tree"), "\(outcome.errors)")
            #expect(runner.calls.map(\.command) == ["build", "test"], "the baseline only")
        }
    }

    @Test func exploreListPrintsOnlyTheMutantsOnStandardOutput() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            try scratch.write("pkg/mutants/explore-ignore", "\(Self.comment.id) equivalent: a comment\n")
            let runner = ScriptedRunner()
            let outcome = mutate(["explore", "--list", "--package-path", "pkg"], in: scratch, runner: runner,
                                 warnings: ["Other: the compiler could not dump it"])
            #expect(outcome.code == .passed)
            #expect(outcome.output == """
                \(Self.subtraction.id)  \(Self.subtraction.summary)
                \(Self.comment.id)  \(Self.comment.summary)  (ignored: equivalent: a comment)
                2 mutant(s) generated by Swift version 9.9
                """)
            #expect(outcome.errors.contains("Reading the compiler's syntax tree"), "progress goes to standard error: \(outcome.errors)")
            #expect(outcome.errors.contains("Building the unmutated package (the first build of a fresh scratch copy takes longest)...\n  built in 0.1s\n"),
                    "\(outcome.errors)")
            #expect(outcome.errors.contains("warning: Other: the compiler could not dump it"), "\(outcome.errors)")
            #expect(runner.calls.map(\.command) == ["build"], "a list builds the baseline and runs nothing")
            #expect(!outcome.errors.contains("no test executable to start directly"), "nor looks for one: \(outcome.errors)")
        }
    }

    /// `--list --json`: one object per line and mutant, from which a script
    /// rebuilds the mutated file; `--json` alone is a usage error.
    @Test func exploreListInJSONGivesWhatRebuildsEachMutant() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            try scratch.write("pkg/mutants/explore-ignore", "\(Self.comment.id) equivalent: a comment\n")
            let outcome = mutate(["explore", "--list", "--json", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed)
            var lines = outcome.output.split(separator: "\n").map(String.init)
            #expect(lines.popLast() == "2 mutant(s) generated by Swift version 9.9")
            let listed = try lines.map { try JSONDecoder().decode(ListedMutant.self, from: Data($0.utf8)) }
            #expect(listed.map(\.id) == [Self.subtraction.id, Self.comment.id])
            #expect(listed.map(\.ignored) == [nil, "equivalent: a comment"])
            let source = Array(Self.source.utf8)
            for (mutant, point) in zip(listed, [Self.subtraction, Self.comment]) {
                #expect(String(decoding: source[mutant.start..<mutant.end], as: UTF8.self) == mutant.original, "\(mutant)")
                #expect((mutant.file, mutant.line, mutant.column, mutant.operator, mutant.replacement)
                    == (point.file, point.line, point.column, point.mutationOperator.rawValue, point.replacement))
            }
            #expect(lines[0].hasPrefix("{\"column\":"), "keys sorted: \(lines[0])")

            let alone = mutate(["explore", "--json", "--package-path", "pkg"], in: scratch)
            #expect(alone.code == .usage)
            #expect(alone.errors.hasPrefix("error: --json is the form of --list's output: give it with --list"), "\(alone.errors)")
        }
    }

    /// An ignore entry that names no mutant any more (its line was edited)
    /// is reported with its line number, so the judgement is not lost
    /// silently; one naming a mutant is not. Ids are checked only when the
    /// whole of Sources was read; a place when its file was.
    @Test func exploreWarnsOfIgnoreEntriesThatNameNoMutant() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            try scratch.write("pkg/mutants/explore-ignore", """
                \(Self.comment.id)  equivalent: a comment
                0badc0de  equivalent: a line that was edited since
                Sources/Tiny/Arithmetic.swift:9 logical  a line that was removed
                Sources/Other/Far.swift:1 logical  a file only the whole of Sources reads

                """)
            var outcome = mutate(["explore", "--list", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .passed)
            let warnings = outcome.errors.split(separator: "\n").filter { $0.contains("names no generated mutant") }
            let stale: [(line: Int, key: String)] = [(2, "0badc0de"), (3, "Sources/Tiny/Arithmetic.swift:9 logical"), (4, "Sources/Other/Far.swift:1 logical")]
            let expected: [String] = stale.map { entry in
                "warning: mutants/explore-ignore:\(entry.line) names no generated mutant (\(entry.key)): the line it judged was edited or removed; "
                    + "find the mutant again with `mutate explore --list`, or drop the entry"
            }
            #expect(warnings.map(String.init) == expected, "\(outcome.errors)")
            #expect(outcome.output.contains("\(Self.comment.id)  \(Self.comment.summary)  (ignored: equivalent: a comment)"), "\(outcome.output)")

            outcome = mutate(["explore", "--list", "--package-path", "pkg", "Sources/Tiny"], in: scratch)
            #expect(outcome.errors.split(separator: "\n").filter { $0.contains("names no generated mutant") }.count == 1,
                    "a part of Sources checks the places in its own files only: \(outcome.errors)")
        }
    }

    @Test func exploreSelectsBySampleAndIdAndWarnsOfAnUnknownId() throws {
        try withScratch { scratch in
            _ = try package(in: scratch)
            let first = [Self.subtraction, Self.comment].min { $0.id < $1.id }!
            var outcome = mutate(["explore", "--list", "--package-path", "pkg", "--sample", "1"], in: scratch)
            #expect(outcome.output.hasPrefix("\(first.id)  "), "\(outcome.output)")
            #expect(outcome.output.hasSuffix("1 mutant(s) generated by Swift version 9.9"), "\(outcome.output)")
            #expect(outcome.errors.contains("  1 of 2 generated mutants selected"), "\(outcome.errors)")

            outcome = mutate(["explore", "--list", "--package-path", "pkg", "--id", Self.comment.id, "--id", "0badc0de"], in: scratch)
            #expect(outcome.output.hasPrefix("\(Self.comment.id)  "), "\(outcome.output)")
            #expect(outcome.errors.contains("warning: no generated mutant has the id 0badc0de in Sources; "
                + "an id changes when its line is edited: `mutate explore --list` shows today's"), "\(outcome.errors)")
            #expect(!outcome.errors.contains("warning: no generated mutant has the id \(Self.comment.id)"))

            outcome = mutate(["explore", "--list", "--package-path", "pkg"], in: scratch)
            #expect(!outcome.errors.contains("generated mutants selected"), "all selected: no selection line")
        }
    }

    @Test func exploreRefusesAMissingPathABadIgnoreFileAndAnUnknownRef() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            var outcome = mutate(["explore", "Sources/Nope", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .usage)
            #expect(outcome.errors == "error: Sources/Nope does not exist in \(package.path)")

            outcome = mutate(["explore", "--package-path", "pkg", "--in-diff", "no-such-ref"], in: scratch)
            #expect(outcome.code == .usage)
            #expect(outcome.errors.hasPrefix("error: "), "\(outcome.errors)")

            try scratch.write("pkg/mutants/explore-ignore", "12345678\n")
            outcome = mutate(["explore", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .usage)
            #expect(outcome.errors.hasPrefix("error: ") && outcome.errors.contains("explore-ignore:1: expected 'ID reason'"), "\(outcome.errors)")
        }
    }

    // MARK: - promote

    @Test func promoteWritesTheGeneratedMutantAsANamedOneOnce() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let arguments = ["promote", Self.subtraction.id, "sum-subtracts", "--description", "totals come out as differences", "--package-path", "pkg"]
            var outcome = mutate(arguments, in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            let target = package.appendingPathComponent("mutants/sum-subtracts.patch")
            #expect(outcome.output.contains("Promoted \(Self.subtraction.id) (\(Self.subtraction.summary)) to \(target.path); "
                + "`swift run mutate --mutant sum-subtracts` runs it in the gate."), "\(outcome.output)")
            let text = try String(contentsOf: target, encoding: .utf8)
            #expect(text.hasPrefix("Mutant: sum-subtracts\nDescription: totals come out as differences\nPromoted-From: explore \(Self.subtraction.id)"))
            #expect(text.contains("-        a + b // adds\n+        a - b // adds\n"), "\(text)")
            // The promoted mutant is killed in a run.
            #expect(mutate(["--package-path", "pkg"], in: scratch).code == .passed)

            outcome = mutate(arguments, in: scratch)
            #expect(outcome.code == .usage)
            #expect(outcome.errors == "error: a mutant named 'sum-subtracts' exists already in \(package.path)/mutants")

            // The same name in another file is taken too.
            try FileManager.default.moveItem(at: target, to: package.appendingPathComponent("mutants/other-file.patch"))
            outcome = mutate(arguments, in: scratch)
            #expect(outcome.errors == "error: a mutant named 'sum-subtracts' exists already in \(package.path)/mutants", "\(outcome.errors)")
            #expect(!FileManager.default.fileExists(atPath: target.path))

            // A package's first named mutant: the folder is made for it.
            try FileManager.default.removeItem(at: package.appendingPathComponent("mutants"))
            outcome = mutate(arguments, in: scratch)
            #expect(outcome.code == .passed, "\(outcome)")
            #expect(FileManager.default.fileExists(atPath: target.path))
        }
    }

    @Test func promoteRefusesAnUnknownIdAndAMutantsPathThatIsAFile() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            var outcome = mutate(["promote", "0badc0de", "new-name", "--description", "d", "--package-path", "pkg"], in: scratch)
            #expect(outcome.code == .usage)
            #expect(outcome.errors.hasSuffix("\nerror: no generated mutant with id '0badc0de' in Sources: run `swift run mutate explore --list`"),
                    "\(outcome.errors)")

            try scratch.write("pkg/not-a-folder", "user's file\n")
            let runner = ScriptedRunner()
            outcome = mutate(["promote", Self.subtraction.id, "new-name", "--description", "d", "--package-path", "pkg",
                              "--mutants", "pkg/not-a-folder"], in: scratch, runner: runner)
            #expect(outcome.code == .usage)
            #expect(outcome.errors == "error: cannot write \(package.path)/not-a-folder/new-name.patch: \(package.path)/not-a-folder is a file, not a folder")
            #expect(runner.calls.isEmpty, "refused before the build")
            #expect(try String(contentsOf: package.appendingPathComponent("not-a-folder"), encoding: .utf8) == "user's file\n")
        }
    }
}
