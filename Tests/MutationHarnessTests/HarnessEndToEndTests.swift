import Foundation
import Testing
import MutationHarness
import TestSupport

/// Runs the real harness (real `swift build` and `swift test`) on a copy of
/// the fixture package in a folder of the test's own. Disabled inside a
/// harness run (`MUTATE_RUNNING`), so mutating this package never starts a
/// harness within a harness.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MUTATE_RUNNING"] == nil, "skipped inside a mutate run"),
       .serialized, .ownThread)
struct HarnessEndToEndTests {
    /// One scratch copy for every run in this suite (kept between test runs,
    /// under `.build/test-scratch`), so the fixture is built once, not once
    /// per test: each run re-syncs it and builds incrementally.
    static let sharedScratch = TestScratch.root.appendingPathComponent("shared-harness-scratch", isDirectory: true)

    private func run(_ arguments: [String], in scratch: Scratch) -> (HarnessExitCode, String) {
        runHarness(arguments, in: scratch, sharedScratch: Self.sharedScratch)
    }

    /// A package `Dep` beside `package`, which `package` depends on by a
    /// relative path, as `.package(path: "../Dep")`.
    private func addPathDependency(to package: URL, in scratch: Scratch) throws {
        try scratch.write("Dep/Package.swift", """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "Dep", products: [.library(name: "Dep", targets: ["Dep"])], targets: [.target(name: "Dep")])

            """)
        try scratch.write("Dep/Sources/Dep/Dep.swift", "public let depValue = 1\n")
        let manifest = package.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: "    targets: [\n        .target(name: \"Tiny\"),",
                                  with: "    dependencies: [.package(path: \"../Dep\")],\n    targets: [\n        .target(name: \"Tiny\", dependencies: [\"Dep\"]),")
        #expect(text.contains("../Dep"))
        try text.write(to: manifest, atomically: true, encoding: .utf8)
    }

    @Test func classifiesKilledSurvivedStaleUnviableAndHangingMutants() throws {
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            try addPathDependency(to: package, in: scratch)
            let before = Scratch.snapshot(of: package)
            // The hanging mutant spins a core until this limit; the other mutants' tests take a tenth of a second.
            let (code, console) = run(["--package-path", "Tiny", "--timeout", "8", "--output", "report"], in: scratch)

            #expect(code == .survived, "a survivor puts the score under 100%")
            #expect(console.contains("[1/6] killed    add-crashes"))
            #expect(console.contains("[2/6] killed    add-subtracts"))
            #expect(console.contains("by TinyTests."))
            #expect(console.contains("[3/6] timeout   countdown-hangs"))
            #expect(console.contains("[4/6] noCoverage describe-changed"), "no test runs `description`: known without a test run")
            #expect(console.contains("[5/6] unviable  does-not-compile"))
            #expect(console.contains("[6/6] stale     stale-context"))
            #expect(console.contains("Score: 75.0% (threshold 100%)"))
            #expect(console.contains("Gate FAILED: 1 reached by no test (describe-changed); score 75.0% is under the threshold 100%"))
            #expect(console.contains("Measuring which tests reach which code (4 tests, each on its own)"), "\(console)")
            #expect(console.contains("progress 6/6 (100%), 3 of 4 detected (75.0%)"), "\(console)")

            let reportFolder = scratch.url.appendingPathComponent("report")
            let results = try ReportWriter.read(from: reportFolder)
            let byName = Dictionary(uniqueKeysWithValues: results.mutants.map { ($0.name, $0) })
            let crash = try #require(byName["add-crashes"])
            #expect(crash.status == .killed)
            #expect(crash.reason?.contains("Precondition failed: lock() failed") == true, "\(crash.reason ?? "")")
            #expect(crash.killedBy.allSatisfy { $0.contains("addsTwoNumbers") || $0.contains("testAddIsCommutative") },
                    "only a test that was running when the process died: \(crash.killedBy)")
            #expect(byName["add-subtracts"]?.status == .killed)
            let covering = ["TinyTests.ArithmeticTests/addsTwoNumbers()", "TinyTests.LegacyTests/testAddIsCommutative"]
            #expect(Set(byName["add-subtracts"]?.coveredBy ?? []) == Set(covering), "the two tests that call add, and no other")
            #expect(byName["add-subtracts"]?.killedBy == [covering[0]], "stopped at the first failure: the Swift Testing test runs first")
            #expect(Set(byName["does-not-compile"]?.coveredBy ?? []) == Set(covering), "a broken build still reports what would have run")
            #expect(byName["countdown-hangs"]?.status == .timeout, "\(console)")
            #expect(byName["describe-changed"]?.status == .noCoverage)
            #expect(byName["describe-changed"]?.testSeconds == 0, "no test ran for it")
            #expect(byName["does-not-compile"]?.status == .unviable)
            #expect(byName["does-not-compile"]?.reason?.contains("Sources/Tiny/Arithmetic.swift:4:9: error: cannot convert") == true)
            #expect(byName["stale-context"]?.status == .stale)
            #expect(byName["stale-context"]?.reason == "Sources/Tiny/Arithmetic.swift: hunk '@@ -3,3 +3,3 @@' does not match the current source")
            #expect(results.tests.count == 4)

            for file in ["report.md", "report.json", "junit.xml", "logs/add-subtracts.log", "logs/baseline.log"] {
                #expect(FileManager.default.fileExists(atPath: reportFolder.appendingPathComponent(file).path), "\(file) is written")
            }
            let markdown = try String(contentsOf: reportFolder.appendingPathComponent("report.md"), encoding: .utf8)
            #expect(markdown.contains("### noCoverage: describe-changed"))
            #expect(markdown.contains("## Code no test reaches\n\n| file | lines | mutants |\n|---|---|---|\n| `Sources/Tiny/Arithmetic.swift` |"), "\(markdown)")
            let log = try String(contentsOf: reportFolder.appendingPathComponent("logs/add-subtracts.log"), encoding: .utf8)
            // "Test run started", not the run's last line: the run stops at the first failure, and may be stopped before its summary.
            #expect(log.contains("Compiling") && log.contains("Test run started"), "build and test output both kept: \(log)")

            #if os(Linux)
            let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { entry in
                guard Int(entry) != nil, let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
                return String(decoding: command, as: UTF8.self).contains(Self.sharedScratch.path)
            }
            #expect(leftovers.isEmpty, "the hanging test runner is killed with its whole process tree")
            #endif

            #expect(Scratch.snapshot(of: package) == before, "the package's files are byte-identical afterwards")
            let scratchSource = Self.sharedScratch.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            #expect(FileManager.default.contents(atPath: scratchSource.path) == before["Sources/Tiny/Arithmetic.swift"],
                    "the scratch copy is restored after each mutant")
        }
    }

    @Test func badInputGetsAClearMessageAndTheDocumentedExitCode() throws {
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            let before = Scratch.snapshot(of: package)

            var (code, console) = run(["--package-path", "Tiny", "--mutant", "nope"], in: scratch)
            #expect(code == .usage)
            #expect(console.contains("no mutant named 'nope'; available: add-crashes, add-subtracts, countdown-hangs"))

            (code, console) = run(["--package-path", "Tiny", "--mutants", "missing"], in: scratch)
            #expect(code == .usage)
            #expect(console.contains("no mutants folder at"))

            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
            (code, console) = run(["--package-path", "Tiny", "--mutants", "empty"], in: scratch)
            #expect(code == .usage)
            #expect(console.contains("holds no .patch file"))

            try scratch.write("nameless/a.patch", "Description: d\n\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
            (code, console) = run(["--package-path", "Tiny", "--mutants", "nameless"], in: scratch)
            #expect(code == .usage)
            #expect(console.contains("a.patch: missing 'Mutant: <name>' header line"))

            (code, console) = run(["--package-path", "nowhere"], in: scratch)
            #expect(code == .usage)
            #expect(console.contains("no Package.swift in"))

            (code, console) = run(["check", "--package-path", "Tiny"], in: scratch)
            #expect(code == .brokenMutant)
            #expect(console.contains("stale  stale-context"))
            #expect(console.contains("5 of 6 mutants apply"))

            #expect(Scratch.snapshot(of: package) == before, "bad input writes nothing to the package")
            #expect(!FileManager.default.fileExists(atPath: package.appendingPathComponent(".build").path))
        }
    }
}

/// The real harness run in `scratch` on the scratch copy `sharedScratch`
/// (`check` needs none), with what it printed.
func runHarness(_ arguments: [String], in scratch: Scratch, sharedScratch: URL) -> (HarnessExitCode, String) {
    let output = OutputBox()
    let shared = arguments.first == "check" ? [] : ["--scratch", sharedScratch.path, "--wait"]
    let code = Harness(workingDirectory: scratch.url, print: { output.append($0) }).main(arguments + shared)
    return (code, output.text)
}

extension Scratch {
    /// Every file below `folder` (skipping `.build`) with its bytes.
    static func snapshot(of folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let base = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [:] }
        for case let file as URL in walker {
            if file.lastPathComponent == ".build" { walker.skipDescendants(); continue }
            if (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files[String(file.standardizedFileURL.path.dropFirst(base.count + 1))] = FileManager.default.contents(atPath: file.path)
            }
        }
        return files
    }
}
