import Foundation
import Testing
@testable import MutationHarness

/// `mutate record` on a git repository of the test's own, and `mutate merge`
/// on shard reports. Neither builds anything.
@Suite(.ownThread)
struct RecordTests {
    /// The fixture in a fresh repository, one commit.
    private func repository(in scratch: Scratch) throws -> URL {
        let package = try copyFixture(to: scratch)
        try git(["init", "-q"], in: package)
        try git(["add", "-A"], in: package)
        try git(["commit", "-q", "-m", "fixture"], in: package)
        return package
    }

    private func run(_ arguments: [String], in folder: URL) -> (HarnessExitCode, String) {
        let output = OutputBox()
        let code = Harness(workingDirectory: folder, print: { output.append($0) }).main(arguments)
        return (code, output.text)
    }

    /// A name another mutant file already holds is refused, whatever that
    /// file is called, and nothing is written or restored.
    @Test func refusesANameAnotherFileHolds() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            let mutants = package.appendingPathComponent("mutants")
            try FileManager.default.moveItem(at: mutants.appendingPathComponent("add-subtracts.patch"), to: mutants.appendingPathComponent("subtracts.patch"))
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            let changed = try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "a + b", with: "a * b")
            try changed.write(to: source, atomically: true, encoding: .utf8)
            let (code, console) = run(["record", "add-subtracts", "--description", "d"], in: package)
            #expect(code == .usage)
            #expect(console.contains("a mutant named 'add-subtracts' exists already in "), "\(console)")
            #expect(!FileManager.default.fileExists(atPath: mutants.appendingPathComponent("add-subtracts.patch").path))
            #expect(try String(contentsOf: source, encoding: .utf8) == changed, "nothing restored")
        }
    }

    /// `--mutants` may name a folder that does not exist yet: record makes it.
    @Test func recordMakesTheMutantsFolder() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "a + b", with: "a * b")
                .write(to: source, atomically: true, encoding: .utf8)
            let (code, console) = run(["record", "add-multiplies", "--description", "d", "--mutants", "kept/mutants"], in: package)
            #expect(code == .passed, "\(console)")
            #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent("kept/mutants/add-multiplies.patch").path))
        }
    }

    @Test func turnsTheChangeUnderSourcesIntoAMutantAndRestoresTheSource() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            let original = try String(contentsOf: source, encoding: .utf8)
            try original.replacingOccurrences(of: "a + b", with: "a * b").write(to: source, atomically: true, encoding: .utf8)

            let (code, console) = run(["record", "add-multiplies", "--description", "add multiplies", "--bug", "issue 12",
                                       "--killed-by", "T.Suite/adds()", "--killed-by=T.Suite/sums()"], in: package)
            #expect(code == .passed, "\(console)")
            #expect(console.contains("Recorded \(package.path)/mutants/add-multiplies.patch; those files are back to HEAD. "
                + "Run `swift run mutate --mutant add-multiplies` to see it killed."), "\(console)")
            #expect(try String(contentsOf: source, encoding: .utf8) == original, "the source is back to HEAD")
            let patch = try String(contentsOf: package.appendingPathComponent("mutants/add-multiplies.patch"), encoding: .utf8)
            #expect(patch.hasPrefix("Mutant: add-multiplies\nDescription: add multiplies\nBug: issue 12\nKilled-By: T.Suite/adds() T.Suite/sums()\n\n"
                + "diff --git a/Sources/Tiny/Arithmetic.swift"))
            let mutant = try MutantFileParser.parse(patch, file: "add-multiplies.patch")
            #expect(mutant.killers == ["T.Suite/adds()", "T.Suite/sums()"])
            #expect(try PatchApplier.apply(mutant.diff.files[0], to: original)?.contains("a * b") == true)

            let (again, message) = run(["record", "add-multiplies", "--description", "x"], in: package)
            #expect(again == .usage)
            #expect(message.contains("exists already"))
        }
    }

    /// A file already at the mutant's path is the user's, whatever it holds
    /// (here not a mutant at all): record refuses and leaves it as it was.
    @Test func neverOverwritesAFileAtTheMutantsPath() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            let changed = try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "a + b", with: "a * b")
            try changed.write(to: source, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(at: package.appendingPathComponent("mutants"), withIntermediateDirectories: true)
            let notes = package.appendingPathComponent("mutants/add-multiplies.patch")
            try "my notes, not a mutant\n".write(to: notes, atomically: true, encoding: .utf8)

            let (code, console) = run(["record", "add-multiplies", "--description", "d"], in: package)
            #expect(code == .usage)
            #expect(console.contains("\(notes.path) exists already: choose another name or delete it first"), "\(console)")
            #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes, not a mutant\n", "the user's file is untouched")
            #expect(try String(contentsOf: source, encoding: .utf8) == changed, "nothing is restored when record refuses")
        }
    }

    @Test func refusesAnEmptyChangeAndAChangeToTests() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            var (code, console) = run(["record", "nothing", "--description", "d"], in: package)
            #expect(code == .usage)
            #expect(console.contains("there is no uncommitted change under Sources/"))

            let test = package.appendingPathComponent("Tests/TinyTests/ArithmeticTests.swift")
            try (String(contentsOf: test, encoding: .utf8) + "\n// edited\n").write(to: test, atomically: true, encoding: .utf8)
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            let original = try String(contentsOf: source, encoding: .utf8)
            try original.replacingOccurrences(of: "a + b", with: "a - b").write(to: source, atomically: true, encoding: .utf8)
            (code, console) = run(["record", "with-tests", "--description", "d"], in: package)
            #expect(code == .usage)
            #expect(console.contains("the change touches tests (Tests/TinyTests/ArithmeticTests.swift)"))
            #expect(try String(contentsOf: source, encoding: .utf8) != original, "nothing is restored when record refuses")
            #expect(!FileManager.default.fileExists(atPath: package.appendingPathComponent("mutants/with-tests.patch").path))
        }
    }
}

extension RecordTests {
    /// Record reads the change with git: a folder git does not take as a
    /// work tree, and a git command that fails, each end in a message.
    @Test func aFolderGitCannotReadAndAFailingGitCommandAreReported() throws {
        try withScratch { scratch in
            // A `.git` file that points nowhere: git refuses the folder.
            let broken = try copyFixture(to: scratch, as: "Broken")
            try scratch.write("Broken/.git", "gitdir: \(scratch.url.path)/no-such-repository\n")
            var (code, console) = run(["record", "x", "--description", "d"], in: broken)
            #expect(code == .usage)
            #expect(console == "error: \(broken.path) is not inside a git work tree: record reads the change with git", "\(console)")

            // A repository without a commit: there is no HEAD to diff against.
            let fresh = try copyFixture(to: scratch, as: "Fresh")
            try git(["init", "-q"], in: fresh)
            try git(["add", "-A"], in: fresh)
            (code, console) = run(["record", "x", "--description", "d", "Sources/Tiny/Arithmetic.swift"], in: fresh)
            #expect(code == .usage)
            #expect(console.hasPrefix("error: git diff --no-color --no-ext-diff --relative HEAD -- Sources/Tiny/Arithmetic.swift failed: "), "\(console)")
            #expect(!FileManager.default.fileExists(atPath: fresh.appendingPathComponent("mutants/x.patch").path))
        }
    }

    @Test func recordsOnlyTheNamedFilesListsThemFirstAndKeepsUnrelatedWork() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            let original = try String(contentsOf: source, encoding: .utf8)
            try original.replacingOccurrences(of: "a + b", with: "a * b").write(to: source, atomically: true, encoding: .utf8)
            let unrelated = package.appendingPathComponent("Sources/Tiny/Work.swift")
            try Data("public let unfinished = 1\n".utf8).write(to: unrelated)
            let manifest = package.appendingPathComponent("Package.swift")
            let manifestEdit = try String(contentsOf: manifest, encoding: .utf8) + "// my edit\n"
            try manifestEdit.write(to: manifest, atomically: true, encoding: .utf8)

            var (code, console) = run(["record", "add-multiplies", "--description", "d", "--dry-run", "Sources/Tiny/Arithmetic.swift"], in: package)
            #expect(code == .passed)
            #expect(console.contains("+        a * b") && console.contains("(dry run: nothing written, nothing restored)"))
            #expect(try String(contentsOf: source, encoding: .utf8).contains("a * b"), "a dry run restores nothing")
            #expect(!FileManager.default.fileExists(atPath: package.appendingPathComponent("mutants/add-multiplies.patch").path))

            (code, console) = run(["record", "add-multiplies", "--description", "d", "Sources/Tiny/Arithmetic.swift"], in: package)
            #expect(code == .passed, "\(console)")
            #expect(console.contains("Recording 1 file(s)") && console.contains("modified Sources/Tiny/Arithmetic.swift"))
            #expect(try String(contentsOf: source, encoding: .utf8) == original)
            #expect(FileManager.default.fileExists(atPath: unrelated.path), "an unrelated new file is kept")
            #expect(try String(contentsOf: manifest, encoding: .utf8) == manifestEdit, "an unrelated edit is kept")
            let patch = try String(contentsOf: package.appendingPathComponent("mutants/add-multiplies.patch"), encoding: .utf8)
            #expect(!patch.contains("Work.swift") && !patch.contains("my edit"))

            (code, console) = run(["record", "other", "--description", "d", "Tests/TinyTests/LegacyTests.swift"], in: package)
            #expect(code == .usage)
            #expect(console.contains("is not under Sources/"))
            (code, console) = run(["record", "other", "--description", "d", "Sources/Tiny/Arithmetic.swift"], in: package)
            #expect(console.contains("Sources/Tiny/Arithmetic.swift has no uncommitted change"))
        }
    }

    @Test func aNewFileUnderSourcesIsPartOfTheMutant() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            let added = package.appendingPathComponent("Sources/Tiny/Shortcut.swift")
            try Data("extension Arithmetic {\n    public static func shortcut() -> Int { 0 }\n}\n".utf8).write(to: added)
            let (code, console) = run(["record", "adds-shortcut", "--description", "d"], in: package)
            #expect(code == .passed, "\(console)")
            #expect(console.contains("new      Sources/Tiny/Shortcut.swift"))
            #expect(!FileManager.default.fileExists(atPath: added.path), "the new file is removed: the patch holds it")
            let text = try String(contentsOf: package.appendingPathComponent("mutants/adds-shortcut.patch"), encoding: .utf8)
            let mutant = try MutantFileParser.parse(text, file: "adds-shortcut.patch")
            #expect(mutant.diff.files.map(\.newPath) == ["Sources/Tiny/Shortcut.swift"])
            #expect(try PatchApplier.apply(mutant.diff.files[0], to: nil)?.contains("shortcut()") == true)
        }
    }
}

struct MergeTests {
    private func shard(_ names: [(String, MutantStatus)], tests: [String], label: String,
                       seconds: (setup: Double, build: Double, test: Double) = (1, 10, 2)) -> LabReport
    {
        LabReport(packagePath: "/pkg", threshold: 100, setupSeconds: seconds.setup, baselineBuildSeconds: seconds.build,
                  baselineTestSeconds: seconds.test,
                  testTimeoutSeconds: 36, tests: tests,
                  mutants: names.map { name, status in
                      MutantResult(name: name, description: "d", bug: nil, status: status, files: ["Sources/A.swift"],
                                   firstLine: 1, lastLine: 1, diff: "", replacement: "", log: "logs/\(name).log")
                  }, shard: label)
    }

    @Test func combinesShardReportsAndGatesOnTheTotal() throws {
        try withScratch { scratch in
            try ReportWriter.write(shard([("b", .killed), ("d", .killed)], tests: ["M.S/a()"], label: "1/2", seconds: (0.5, 0.25, 0.75)), to: scratch.url.appendingPathComponent("s1"),
                                   packagePath: scratch.url, isCI: false)
            try ReportWriter.write(shard([("a", .survived), ("c", .timeout)], tests: ["M.S/a()", "M.S/b()"], label: "2/2"),
                                   to: scratch.url.appendingPathComponent("s2"), packagePath: scratch.url, isCI: false)
            try ReportWriter.write(shard([("e", .killed)], tests: [], label: "2/2", seconds: (0.25, 0.5, 0.25)), to: scratch.url.appendingPathComponent("fast"),
                                   packagePath: scratch.url, isCI: false)
            // Each shard's logs, which report.html links to, come along.
            try scratch.write("s1/logs/b.log", "b's log\n")
            try scratch.write("s2/logs/a.log", "a's log\n")
            let output = OutputBox()
            let code = Harness(workingDirectory: scratch.url, print: { output.append($0) }).main(["merge", "--output", "all", "s1", "s2"])
            #expect(try String(contentsOf: scratch.url.appendingPathComponent("all/logs/b.log"), encoding: .utf8) == "b's log\n")
            #expect(try String(contentsOf: scratch.url.appendingPathComponent("all/logs/a.log"), encoding: .utf8) == "a's log\n")
            #expect(code == .survived)
            #expect(output.text.contains("Score: 75.0% (threshold 100%)"))
            #expect(output.text.hasSuffix("Gate FAILED: 1 mutant(s) survived (a); score 75.0% is under the threshold 100%. "
                + "Add a test that fails on each, never weaken the mutant."), "\(output.text)")
            let merged = try ReportWriter.read(from: scratch.url.appendingPathComponent("all"))
            #expect(merged.mutants.map(\.name) == ["a", "b", "c", "d"])
            #expect(merged.tests == ["M.S/a()", "M.S/b()"])
            #expect(merged.shard == nil)
            // The shards ran side by side: the setups add up, the baseline took as long as the slowest.
            #expect(merged.setupSeconds == 1.5)
            #expect(merged.baselineBuildSeconds == 10)
            #expect(merged.baselineTestSeconds == 2)
            #expect(Harness(workingDirectory: scratch.url, print: { _ in }).main(["merge", "--output", "quick", "s1", "fast"]) == .passed)
            let quick = try ReportWriter.read(from: scratch.url.appendingPathComponent("quick"))
            #expect(quick.baselineBuildSeconds == 0.5 && quick.baselineTestSeconds == 0.75, "under a second is kept as it is")

            let lowered = Harness(workingDirectory: scratch.url, print: { _ in }).main(["merge", "--output", "all", "--threshold", "70", "s1", "s2"])
            #expect(lowered == .passed)
            let overlapping = Harness(workingDirectory: scratch.url, print: { _ in }).main(["merge", "--output", "all", "s1", "s1"])
            #expect(overlapping == .usage)

            // A matrix of one machine: its one shard merges into itself.
            try ReportWriter.write(shard([("z", .killed)], tests: ["M.S/a()"], label: "1/1"), to: scratch.url.appendingPathComponent("only"),
                                   packagePath: scratch.url, isCI: false)
            #expect(Harness(workingDirectory: scratch.url, print: { _ in }).main(["merge", "--output", "one", "only"]) == .passed)
            #expect(try ReportWriter.read(from: scratch.url.appendingPathComponent("one")).mutants.map(\.name) == ["z"])
        }
    }

    @Test func refusesAMergeThatLacksShards() throws {
        try withScratch { scratch in
            for (folder, label) in [("s1", "1/3"), ("s3", "3/3"), ("t2", "2/4")] {
                try ReportWriter.write(shard([(folder, .killed)], tests: ["M.S/a()"], label: label),
                                       to: scratch.url.appendingPathComponent(folder), packagePath: scratch.url, isCI: false)
            }
            func merge(_ folders: [String]) -> (HarnessExitCode, String) {
                let output = OutputBox()
                let code = Harness(workingDirectory: scratch.url, print: { output.append($0) }).main(["merge", "--output", "all"] + folders)
                return (code, output.text)
            }
            var (code, text) = merge(["s3"])
            #expect(code == .usage)
            #expect(text.contains("shard(s) 1/3, 2/3 missing"), "\(text)")
            (code, text) = merge(["s1", "s3"])
            #expect(text.contains("shard(s) 2/3 missing"))
            (code, text) = merge(["s1", "t2"])
            #expect(code == .usage)
            #expect(text.contains("different splits (3 and 4 shards)"))
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("all").path), "nothing is written")
        }
    }

    /// A shard label must be exactly K/N with 1 <= K <= N, as `--shard`
    /// takes it: anything else is named, whatever its first two numbers say.
    @Test(arguments: ["1/3/5", "1", "one/3", "4/3", "0/2"])
    func anUnreadableShardLabelIsNamed(label: String) {
        #expect(Shard.problem(merging: [("s1", label)]) == "s1 has an unreadable shard label '\(label)'")
    }

    @Test func aShardGivenTwiceIsNamedEvenWithEveryShardThere() {
        #expect(Shard.problem(merging: [("s1", "1/2"), ("again", "1/2"), ("s2", "2/2")]) == "shard 1/2 is given twice (s1 and again)")
    }

    /// Without --threshold the merged report gates at the highest shard's
    /// threshold; test locations are united and coverage time added up; a
    /// mutant in two shards is refused.
    @Test func theMergedReportTakesEachShardsFigures() throws {
        var one = shard([("a", .killed)], tests: ["M.S/a()"], label: "1/2")
        one.threshold = 70
        one.coverageSeconds = 3
        one.testLocations = ["M.S/a()": TestLocation(file: "Tests/A.swift", line: 3)]
        var two = shard([("b", .killed)], tests: ["M.S/b()"], label: "2/2")
        two.threshold = 60
        two.coverageSeconds = 4
        two.testLocations = ["M.S/b()": TestLocation(file: "Tests/B.swift", line: 5)]
        let merged = try ReportMerger.merge([("s1", one), ("s2", two)], threshold: nil).get()
        #expect(merged.threshold == 70)
        #expect(merged.coverageSeconds == 7)
        #expect(merged.testLocations == ["M.S/a()": TestLocation(file: "Tests/A.swift", line: 3), "M.S/b()": TestLocation(file: "Tests/B.swift", line: 5)])
        var overlap = two
        overlap.mutants = one.mutants
        guard case .failure(let refusal) = ReportMerger.merge([("s1", one), ("s2", overlap)], threshold: nil) else {
            Issue.record("a mutant in two shards must be refused")
            return
        }
        #expect(refusal.message == "the shard reports overlap: a mutant appears in more than one")
    }
}

extension RecordTests {
    /// Without named files only the change under Sources/ is recorded: an
    /// edit of the manifest made alongside is neither in the mutant nor
    /// restored.
    @Test func withoutNamedFilesOnlyTheChangeUnderSourcesIsRecorded() throws {
        try withScratch { scratch in
            let package = try repository(in: scratch)
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "a + b", with: "a * b")
                .write(to: source, atomically: true, encoding: .utf8)
            let manifest = package.appendingPathComponent("Package.swift")
            let manifestEdit = try String(contentsOf: manifest, encoding: .utf8) + "// my edit\n"
            try manifestEdit.write(to: manifest, atomically: true, encoding: .utf8)

            let recorder = MutantRecorder(package: package, mutants: package.appendingPathComponent("mutants"))
            let plan = try recorder.plan(name: "add-multiplies", description: "d", bug: nil, paths: [])
            #expect(plan.files.map(\.path) == ["Sources/Tiny/Arithmetic.swift"])
            #expect(!plan.text.contains("Package.swift") && !plan.text.contains("my edit"), "\(plan.text)")
            try recorder.write(plan)
            #expect(try String(contentsOf: manifest, encoding: .utf8) == manifestEdit, "the manifest edit is kept")
        }
    }
}
