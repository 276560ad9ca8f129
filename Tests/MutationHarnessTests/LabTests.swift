import Foundation
import Testing
@testable import MutationHarness

/// The lab's loop (apply, build, test, restore, classify) driven by a
/// scripted command runner: no toolchain, so these run inside a mutate run
/// too and kill mutants in the loop itself.
@Suite(.ownThread)
struct LabTests {
    /// The lab of these tests builds each mutant on its own (the named
    /// mutants' schema has its tests in `LabCoverageTests`).
    static func patchesOnly(_ package: URL) -> LabConfiguration {
        var configuration = LabConfiguration(packagePath: package)
        configuration.schema = false
        return configuration
    }

    static let original = "public enum Arithmetic {\n    public static func add(_ a: Int, _ b: Int) -> Int {\n        // adds\n        a + b\n    }\n}\n"

    private func mutant(_ name: String, _ old: String, _ new: String) throws -> Mutant {
        try MutantFileParser.parse("""
            Mutant: \(name)
            Description: \(name)

            --- a/Sources/Tiny/Arithmetic.swift
            +++ b/Sources/Tiny/Arithmetic.swift
            @@ -4 +4 @@
            -\(old)
            +\(new)

            """, file: "\(name).patch")
    }

    private func package(in scratch: Scratch) throws -> URL {
        try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\n")
        try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.original)
        try scratch.write("pkg/mutants/.keep", "")
        return scratch.url.appendingPathComponent("pkg")
    }

    /// With the named mutants' schema too: the hint reads the package's
    /// text, not the schema's rewrite of it that the copy holds meanwhile.
    @Test(arguments: [false, true]) func aStaleMutantRebaseCouldCarrySaysSoAndStillFailsTheGate(schema: Bool) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            // Recorded when the comment above `a + b` said "sums".
            let moved = try MutantFileParser.parse("""
                Mutant: moved
                Description: moved

                --- a/Sources/Tiny/Arithmetic.swift
                +++ b/Sources/Tiny/Arithmetic.swift
                @@ -3,2 +3,2 @@
                     // sums
                -        a + b
                +        a - b

                """, file: "moved.patch")
            var configuration = Self.patchesOnly(package)
            configuration.schema = schema
            // By switch: the schema rewrites Arithmetic.swift while the stale ones are judged.
            let bySwitch = schema ? [try mutant("subtracts", "        a + b", "        a - b")] : []
            let report = try Lab(configuration: configuration, mutants: [moved, try mutant("stale", "        a * b", "        a / b")] + bySwitch,
                                 runner: ScriptedRunner(), print: { _ in }).run()
            #expect(report.mutants.map(\.status) == [.stale, .stale] + (schema ? [.killed] : []), "the gate never rebases")
            #expect(report.mutants[0].reason?.hasSuffix("; `swift run mutate rebase moved` would carry it onto today's source") == true,
                    "\(report.mutants[0].reason ?? "")")
            #expect(report.mutants[1].reason?.contains("rebase") == false, "one whose lines are gone gets no such hint")
            #expect(HarnessExitCode.gate(report) == .brokenMutant)
            // The hint follows why it is stale; each stale mutant's log says why, and only that.
            let reason = try #require(report.mutants[1].reason)
            #expect(report.mutants[0].reason?.hasPrefix("Sources/Tiny/Arithmetic.swift: ") == true, "\(report.mutants[0].reason ?? "")")
            let logs = configuration.outputPath.appendingPathComponent("logs")
            #expect(try String(contentsOf: logs.appendingPathComponent("stale.log"), encoding: .utf8) == "stale: \(reason)\n")
        }
    }

    @Test func classifiesEachOutcomeAndRestoresTheCopyAfterEveryMutant() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let mutants = [
                try mutant("subtracts", "        a + b", "        a - b"),
                try mutant("comment-only", "        a + b", "        a + b // harmless"),
                try mutant("broken", "        a + b", "        BROKEN"),
                try mutant("hangs", "        a + b", "        a + b // HANG"),
                try mutant("crashes", "        a + b", "        a + b // CRASH"),
                try mutant("crashes-then-hangs", "        a + b", "        a + b // CRASH-THEN-HANG"),
                try mutant("stale", "        a * b", "        a / b"),
            ]
            let runner = ScriptedRunner()
            var configuration = Self.patchesOnly(package)
            configuration.isCI = false
            configuration.stopAtFirstFailure = false // --all-tests
            let output = OutputBox()
            let report = try Lab(configuration: configuration, mutants: mutants, runner: runner, print: { output.append($0) }).run()
            let verdictLines = output.text.split(separator: "\n").filter { $0.hasPrefix("[") && !$0.hasSuffix("building and testing...") }
            #expect(verdictLines.map { String($0.prefix(5)) } == ["[1/7]", "[2/7]", "[3/7]", "[4/7]", "[5/7]", "[6/7]", "[7/7]"],
                    "each verdict line counts the mutants from 1: \(verdictLines)")
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })

            #expect(byName["subtracts"]?.status == .killed)
            #expect(byName["subtracts"]?.killedBy == ["T.Suite/adds()"])
            #expect(byName["subtracts"]?.reason == "T.Suite/adds(): Expectation failed: 2 + 3 → -1", "the first failure names its test")
            #expect(byName["comment-only"]?.status == .survived)
            #expect(byName["broken"]?.status == .unviable)
            #expect(byName["broken"]?.reason == "Sources/Tiny/Arithmetic.swift:4:9: error: cannot find 'BROKEN' in scope", "the path is made relative")
            #expect(byName["hangs"]?.status == .timeout)
            #expect(byName["crashes"]?.status == .killed)
            #expect(byName["crashes"]?.killedBy == ["T.Legacy/testAdds"])
            #expect(byName["crashes"]?.reason == "crash: Tiny/Arithmetic.swift:4: Fatal error: boom (signal 4) while T.Legacy/testAdds ran")
            #expect(byName["crashes"]?.notRun == ["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"],
                    "a crash ends the test process: the report names the tests it never reached")
            #expect(byName["crashes-then-hangs"]?.status == .timeout)
            #expect(byName["crashes-then-hangs"]?.notRun == nil, "only a crash that kills names the tests it cut off; a timeout reports none")
            #expect(byName["stale"]?.status == .stale)
            #expect(report.tests == ["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"])
            #expect(report.score.map { Int($0.rounded()) } == 80)
            #expect(runner.filters.allSatisfy { $0.isEmpty }, "without a test executable to start (no coverage pass) the gate runs the whole suite")
            #expect(runner.stoppedEarly == 0 && !runner.watched.contains(true), "and with --all-tests lets every test finish")
            #expect(output.text.contains("no test executable to start directly"), "the run says why it chooses no tests: \(output.text)")
            #expect(byName["subtracts"]?.notRun == nil, "a failure, not a crash: no test is missing from its report")
            #expect(report.threshold == 100, "a lab gates at 100% unless told otherwise")
            #expect(!Self.patchesOnly(package).isCI, "a lab is not on CI unless its caller says so (report.json's system.ci)")
            #expect(configuration.testTimeout(baselineSeconds: 10) == 60, "three times the baseline's tests, plus 30 s")

            // Baseline build and tests, then build and tests per viable mutant; nothing for the stale one.
            #expect(runner.calls.map(\.command) == ["build", "test", "build", "test", "build", "test", "build", "build", "test", "build", "test", "build", "test"])
            // Every command saw either the original or exactly one mutant: each was restored before the next.
            for call in runner.calls {
                let changed = call.source.split(separator: "\n").filter { !Self.original.split(separator: "\n").contains($0) }
                #expect(changed.count <= 1, "\(call.source)")
            }
            let copy = try String(contentsOf: package.appendingPathComponent(".build/mutate/scratch/Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
            #expect(copy == Self.original, "the copy is restored after the last mutant")
            #expect(output.text.contains("  3 tests passed in 0.3s; each mutant's tests get "), "\(output.text)")

            // Every mutant finished: the next run has nothing to rebuild from scratch.
            let again = OutputBox()
            _ = try Lab(configuration: configuration, mutants: [], runner: ScriptedRunner(), print: { again.append($0) }).run()
            #expect(!again.text.contains("cut short"), "\(again.text)")
            #expect(try String(contentsOf: package.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8) == Self.original)
        }
    }

    /// A baseline that cannot be trusted stops the run before any mutant,
    /// each with its own error: tests past their time limit, or no test at all.
    @Test(arguments: [(" // HANG", "timedOut"), (" // NO-TESTS", "noTests"), (" // CRASH", "crashed")])
    func aBaselineThatTimesOutOrHasNoTestsStopsTheRun(marker: String, expected: String) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.original.replacingOccurrences(of: "a + b", with: "a + b" + marker))
            let runner = ScriptedRunner()
            let output = OutputBox()
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [try mutant("m", "        a + b" + marker, "        a - b")],
                          runner: runner, print: { output.append($0) })
            do {
                _ = try lab.run()
                Issue.record("the run must stop")
            } catch LabError.baselineTimedOut {
                #expect(expected == "timedOut")
            } catch LabError.noTests {
                #expect(expected == "noTests")
            } catch let LabError.baselineTestsFailed(tests, _, _) {
                #expect(expected == "crashed" && tests.isEmpty, "a crash before any test reported is a red suite, not one without tests")
            }
            #expect(runner.calls.count == 2, "no mutant ran")
            #expect(output.text.hasPrefix("Copying "), "\(output.text)")
            #expect(output.text.contains("Building the unmutated package (the first build of a fresh scratch copy takes longest)...\n"))
        }
    }

    /// A lab told nothing about waiting refuses a scratch copy another run
    /// holds at once, rather than waiting for it.
    @Test func aLockedScratchIsRefusedAtOnceByDefault() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let configuration = Self.patchesOnly(package)
            try FileManager.default.createDirectory(at: configuration.scratchPath, withIntermediateDirectories: true)
            try Data("A scratch copy made by `mutate`; the harness may delete anything in this folder.\n".utf8)
                .write(to: configuration.scratchPath.appendingPathComponent(ScratchRules.marker))
            var held: ScratchLock? = try ScratchLock(root: configuration.scratchPath, wait: false) {}
            let outcome = Locked<String?>(nil)
            let thread = Thread {
                do { _ = try Lab(configuration: configuration, mutants: [], runner: ScriptedRunner(), print: { _ in }).run(); outcome.set("ran") }
                catch { outcome.set("\(error)") }
            }
            thread.start()
            let ended = waitUntil(10) { outcome.value != nil }
            withExtendedLifetime(held) {}
            held = nil // lets a waiting lab go on, so the test ends either way
            _ = waitUntil(10) { outcome.value != nil }
            #expect(ended, "refused at once, not waited for")
            #expect(outcome.value == "\(LabError.locked(configuration.scratchPath.path))", "\(outcome.value ?? "")")
        }
    }

    /// A build killed at its time limit was cut short like an interrupted
    /// one: the mutant is unviable, and the next run rebuilds its module.
    @Test func aBuildPastItsTimeLimitIsUnviableAndItsModuleRebuiltNextTime() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [try mutant("slow", "        a + b", "        a + b // BUILD-HANG")],
                          runner: ScriptedRunner(), print: { _ in })
            let report = try lab.run()
            #expect(report.mutants.map(\.status) == [.unviable])
            #expect(report.mutants.first?.reason == "the build ran past its time limit")
            let output = OutputBox()
            _ = try Lab(configuration: Self.patchesOnly(package), mutants: [], runner: ScriptedRunner(), print: { output.append($0) }).run()
            #expect(output.text.contains("the last run was cut short mid-mutant: rebuilding Tiny from scratch"), "\(output.text)")
        }
    }

    @Test func anInterruptedMutantGetsNoVerdictAndIsRestored() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            runner.interruptAtTest = 2 // the baseline's tests are the first
            let mutants = [try mutant("subtracts", "        a + b", "        a - b"), try mutant("other", "        a + b", "        b + a")]
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: mutants, runner: runner, print: { _ in })
            #expect(throws: LabError.interrupted(signal: SIGINT)) { try lab.run() }
            let results = try ReportWriter.read(from: package.appendingPathComponent(".build/mutation-report"))
            #expect(results.mutants.map(\.status) == [.pending, .pending], "no verdict for the interrupted mutant or the next")
            let copy = try String(contentsOf: package.appendingPathComponent(".build/mutate/scratch/Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
            #expect(copy == Self.original)

            // The next run rebuilds the mutated module from scratch: its objects may be the mutant's.
            let objects = package.appendingPathComponent(".build/mutate/scratch/.build/debug/Tiny.build")
            try FileManager.default.createDirectory(at: objects, withIntermediateDirectories: true)
            let output = OutputBox()
            _ = try Lab(configuration: Self.patchesOnly(package), mutants: [], runner: ScriptedRunner(), print: { output.append($0) }).run()
            #expect(output.text.contains("the last run was cut short mid-mutant: rebuilding Tiny from scratch"))
            #expect(!FileManager.default.fileExists(atPath: objects.path))
        }
    }

    /// `minus` in `add` (its test catches it) and `fragile`, which the
    /// schema of `fragileSchemaLab` cannot build with.
    private static let minus = MutationPoint(file: "Sources/Tiny/Arithmetic.swift", start: 96, end: 97, line: 4, column: 11,
                                             mutationOperator: .arithmetic, original: "+", replacement: "-")
    private static let fragile = MutationPoint(file: "Sources/Tiny/Arithmetic.swift", start: 40, end: 41, line: 2, column: 5,
                                               mutationOperator: .booleanLiteral, original: "x", replacement: "y")

    /// A lab whose explore makes `minus` and `fragile` (a harmless patch):
    /// its schema fails to build while `fragile` is in it. `building` sees
    /// each attempt before it is made.
    private func fragileSchemaLab(_ package: URL, runner: ScriptedRunner, output: OutputBox, building: @escaping () -> Void = {}) -> Lab {
        let (minus, fragile) = (Self.minus, Self.fragile)
        let lab = Lab(configuration: Self.patchesOnly(package), mutants: [], runner: runner, print: { output.append($0) }) { _ in
            (run: [try self.mutant(minus.id, "        a + b", "        a - b"), try self.mutant(fragile.id, "        a + b", "        a + b // harmless")],
             ignored: [])
        }
        lab.schemaBuilder = { excluded in
            building()
            let points = [minus, fragile].filter { !excluded.contains($0.id) }
            let marker = points.contains(fragile) ? "// SCHEMA-BROKEN\n" : "// SCHEMA\n"
            return Schema(numbers: Dictionary(uniqueKeysWithValues: points.enumerated().map { ($1.id, $0 + 1) }),
                          files: [minus.file: Self.original + marker], support: ["Sources/Tiny": "// switch\n"], points: points)
        }
        return lab
    }

    /// A lab whose explore makes `minus` alone, with the schema `source`
    /// gives for the points not `excluded` (the file's text, or nil for no
    /// schema file): the one-mutant labs of the schema's fallbacks.
    private func minusLab(_ package: URL, runner: ScriptedRunner, output: OutputBox,
                          source: @escaping (_ excluded: Set<String>) -> String) -> Lab {
        let minus = Self.minus
        let lab = Lab(configuration: Self.patchesOnly(package), mutants: [], runner: runner, print: { output.append($0) }) { _ in
            (run: [try self.mutant(minus.id, "        a + b", "        a - b")], ignored: [])
        }
        lab.schemaBuilder = { excluded in
            let points = [minus].filter { !excluded.contains($0.id) }
            return Schema(numbers: Dictionary(uniqueKeysWithValues: points.map { ($0.id, 1) }),
                          files: [minus.file: source(excluded)], support: [:], points: points)
        }
        return lab
    }

    /// Generated mutants: one build for the schema (a point that does not
    /// type-check is left out and runs as a patch), each mutant by its
    /// switch, and the copy back to the original at the end.
    @Test func generatedMutantsRunByTheirSchemaSwitchAndTheRestAsPatches() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let file = Self.minus.file
            let runner = ScriptedRunner()
            let output = OutputBox()
            var sourcesRead: [String] = []
            let support = package.appendingPathComponent(".build/mutate/scratch/Sources/Tiny/__MutateSchema.swift")
            let seen = Locked<[String]>([])
            runner.onRun = { seen.withLock { $0.append((try? String(contentsOf: support, encoding: .utf8)) ?? "") } }
            let lab = fragileSchemaLab(package, runner: runner, output: output) {
                // Like the real builder, read the file from the scratch copy: every attempt must see the original.
                let copy = package.appendingPathComponent(".build/mutate/scratch").appendingPathComponent(file)
                sourcesRead.append((try? String(contentsOf: copy, encoding: .utf8)) ?? "")
            }
            let report = try lab.run()
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
            #expect(byName[Self.minus.id]?.status == .killed)
            #expect(byName[Self.minus.id]?.buildSeconds == 0, "no build of its own: the schema's switch")
            #expect(byName[Self.fragile.id]?.status == .survived)
            // Baseline; schema attempt 1 fails on the fragile point, attempt 2
            // builds; the schema's own baseline; the switch; then the patch.
            #expect(runner.calls.map(\.command) == ["build", "test", "build", "build", "test", "test", "build", "test"])
            #expect(runner.schemaIDs == ["", "", "1", ""])
            #expect(sourcesRead == [Self.original, Self.original], "the second attempt is built from the original, not the first attempt's rewrite")
            #expect(runner.calls[3].source.hasSuffix("// SCHEMA\n"))
            #expect(runner.calls[6].source.contains("// harmless") && !runner.calls[6].source.contains("SCHEMA"),
                    "the schema is gone before the patch runs")
            #expect(output.text.contains("1 mutants run by switch, 1 as patches"))
            #expect(seen.value.count == 8 && seen.value[3] == "// switch\n", "the schema's build has its switch file: \(seen.value)")
            let copy = package.appendingPathComponent(".build/mutate/scratch")
            #expect(try String(contentsOf: copy.appendingPathComponent(file), encoding: .utf8) == Self.original)
            #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("Sources/Tiny/__MutateSchema.swift").path))
        }
    }

    /// The progress line's time left counts from the first mutant, not
    /// from the run's start (the copy, the baseline): here the baseline's
    /// tests take 2 s and the mutants next to none.
    @Test func theTimeLeftCountsFromTheFirstMutant() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            runner.onRun = { [unowned runner] in if runner.calls.count == 2 { usleep(2_000_000) } }
            let output = OutputBox()
            let mutants = [try mutant("m1", "        a + b", "        a + b // 1"), try mutant("m2", "        a + b", "        a + b // 2")]
            _ = try Lab(configuration: Self.patchesOnly(package), mutants: mutants, runner: runner, print: { output.append($0) }).run()
            let first = try #require(output.text.split(separator: "\n").first { $0.hasPrefix("  progress 1/2 (50%)") })
            let left = first.split(separator: " ").dropLast().last.flatMap { Int($0.dropLast()) }
            #expect(left.map { $0 <= 1 } == true, "counted from the first mutant, not the 2 s baseline: \(first)")
        }
    }

    /// A mutant the schema's build blamed is kept in the results file and
    /// left out of the next run's schema from its first attempt: one schema
    /// build, not two; it runs as a patch with the same verdict.
    @Test func aSchemaMisfitIsLeftOutOfTheNextRunsFirstAttempt() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let file = Self.minus.file
            let results = scratch.url.appendingPathComponent("results.json")
            func run() throws -> (LabReport, ScriptedRunner, String) {
                let runner = ScriptedRunner()
                let output = OutputBox()
                let lab = fragileSchemaLab(package, runner: runner, output: output)
                lab.incremental = IncrementalRun(file: results, previous: try ResultsFile.load(from: results), verifyCount: 0)
                return (try lab.run(), runner, output.text)
            }
            let (_, _, first) = try run()
            #expect(first.contains("attempt 2"), "\(first)")
            #expect(first.contains("s: 1 mutant(s) blamed for its compiler errors\n"), "each attempt says how it went: \(first)")
            #expect(first.contains("  built in 0.1s\n"), "\(first)")
            #expect(try ResultsFile.load(from: results)?.schemaMisfits == [Self.fragile.id])

            // A code change every key holds (no coverage map here): both mutants run again.
            try scratch.write("pkg/\(file)", Self.original + "public let changed = 1\n")
            let (report, runner, second) = try run()
            #expect(second.contains("Building the mutant schema (1 mutants in one build, attempt 1)"), "\(second)")
            #expect(!second.contains("attempt 2"), "the misfit was left out from the start")
            #expect(runner.calls.filter { $0.command == "build" }.count == 3, "the baseline, the schema, the misfit's patch")
            #expect(report.mutants.map(\.status).sorted { $0.rawValue < $1.rawValue } == [.killed, .survived])
            #expect(report.incremental?.ran == 2)
            #expect(try ResultsFile.load(from: results)?.schemaMisfits == [Self.fragile.id], "still a misfit: kept")

            // Nothing changed: every verdict reused, no schema built, and the misfit still kept for a later run.
            let (_, _, third) = try run()
            #expect(!third.contains("Building the mutant schema"), "\(third)")
            #expect(try ResultsFile.load(from: results)?.schemaMisfits == [Self.fragile.id], "kept while its mutant exists")

            // A run that does not select the misfit's mutant (a sample, --id) keeps its misfit: the mutant still exists.
            let lab = minusLab(package, runner: ScriptedRunner(), output: OutputBox()) { _ in Self.original + "// SCHEMA\n" }
            lab.incremental = IncrementalRun(file: results, previous: try ResultsFile.load(from: results), verifyCount: 0)
            lab.incremental?.explored = ResultsFile.Explored(paths: ["Sources"], points: [Self.minus, Self.fragile], compilerVersion: "Swift version 9.9",
                                                             warnings: [], targets: [])
            _ = try lab.run()
            #expect(try ResultsFile.load(from: results)?.schemaMisfits == [Self.fragile.id], "a mutant found but not selected keeps its misfit")
        }
    }

    /// A mutant's build and the schema's get ten times the baseline build's
    /// time and never less than ten minutes; the baseline has no limit.
    @Test(arguments: [(0.1, 600.0), (59.0, 600.0), (100.0, 1_000.0)])
    func aMutantBuildMayTakeTenTimesTheBaselineAndNeverLessThanTenMinutes(baseline: Double, limit: Double) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let file = "Sources/Tiny/Arithmetic.swift"
            let minus = MutationPoint(file: file, start: 96, end: 97, line: 4, column: 11, mutationOperator: .arithmetic, original: "+", replacement: "-")
            let runner = ScriptedRunner()
            runner.buildSeconds = baseline
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [], runner: runner, print: { _ in }) { _ in
                (run: [try self.mutant(minus.id, "        a + b", "        a - b"), try self.mutant("patch", "        a + b", "        a + b // harmless")],
                 ignored: [])
            }
            lab.schemaBuilder = { _ in
                Schema(numbers: [minus.id: 1], files: [file: Self.original + "// SCHEMA\n"], support: ["Sources/Tiny": "// switch\n"], points: [minus])
            }
            _ = try lab.run()
            #expect(runner.buildLimits == [nil, limit, limit], "the baseline, the schema, the patch")
        }
    }

    /// Schema mutants run first, whatever order they come in: the schema is
    /// taken out once, before the first patch.
    @Test func schemaMutantsRunBeforeThePatchesWhateverTheirOrder() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let file = "Sources/Tiny/Arithmetic.swift"
            let minus = MutationPoint(file: file, start: 96, end: 97, line: 4, column: 11, mutationOperator: .arithmetic, original: "+", replacement: "-")
            let runner = ScriptedRunner()
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [], runner: runner, print: { _ in }) { _ in
                (run: [try self.mutant("a-patch", "        a + b", "        a + b // harmless"), try self.mutant(minus.id, "        a + b", "        a - b")],
                 ignored: [])
            }
            lab.schemaBuilder = { excluded in
                let points = [minus].filter { !excluded.contains($0.id) }
                return Schema(numbers: Dictionary(uniqueKeysWithValues: points.map { ($0.id, 1) }),
                              files: [file: Self.original + "// SCHEMA\n"], support: [:], points: points)
            }
            let report = try lab.run()
            #expect(report.mutants.map(\.name) == ["a-patch", minus.id], "the report keeps the given order")
            #expect(report.mutants.map(\.status) == [.survived, .killed])
            // Baseline; the schema's build and baseline; the switch, in the schema; then the patch, without it.
            #expect(runner.calls.map(\.command) == ["build", "test", "build", "test", "test", "build", "test"])
            #expect(runner.schemaIDs == ["", "", "1", ""])
            #expect(runner.calls[4].source.hasSuffix("// SCHEMA\n"), "the switch runs in the schema")
            #expect(!runner.calls[5].source.contains("SCHEMA"), "the patch builds without it")
        }
    }

    /// A schema error on a line where no mutant sits is blamed on its file
    /// (here the only one: patches at once); one in a file without mutants
    /// cannot be blamed at all: no second attempt, it would fail the same way.
    @Test(arguments: ["// SCHEMA-BROKEN\n", "// SCHEMA-ELSEWHERE\n"])
    func aSchemaErrorNoMutantExplainsFallsBackToPatchesAfterOneBuild(marker: String) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            let output = OutputBox()
            // The scripted build fails at line 2 of this file, or in another file; the mutant is on line 4.
            let lab = minusLab(package, runner: runner, output: output) { _ in Self.original + marker }
            let report = try lab.run()
            #expect(report.mutants.first?.status == .killed)
            #expect(runner.calls.map(\.command) == ["build", "test", "build", "build", "test"], "\(output.text)")
            #expect(!output.text.contains("attempt 2"))
        }
    }

    /// Which mutants a failed schema build leaves out: those on an error's
    /// line; for an error on a line without one (a `missing return` at a
    /// closing brace), the mutants of that file; none for an error in a file
    /// without mutants (then the schema is given up).
    @Test func schemaErrorsAreBlamedOnTheirLineOrElseTheirFile() {
        let sites = [Schema.Site(id: "a4", file: "Sources/M/A.swift", lines: 4...4), Schema.Site(id: "a9", file: "Sources/M/A.swift", lines: 9...9),
                     Schema.Site(id: "b2", file: "Sources/M/B.swift", lines: 2...2)]
        func blamed(_ failing: Set<String>) -> [String] { Lab.blamed(sites, for: failing) }
        #expect(blamed(["Sources/M/A.swift:4"]) == ["a4"])
        #expect(blamed(["Sources/M/A.swift:7"]) == ["a4", "a9"])
        #expect(blamed(["Sources/M/A.swift:4", "Sources/M/B.swift:5"]) == ["a4", "b2"])
        #expect(blamed(["Sources/M/C.swift:1"]) == [])
        #expect(blamed([]) == [])
        // An error is explained only by a site of its own file, and blames only the sites of its file.
        let a = Schema.Site(id: "a", file: "A.swift", lines: 1...5), b = Schema.Site(id: "b", file: "B.swift", lines: 2...2)
        #expect(Lab.blamed([a, b], for: ["B.swift:4"]) == ["b"], "A's site holds line 4 of A, not of B: B's mutants are blamed")
        #expect(Lab.blamed([a, b], for: ["B.swift:2"]) == ["b"], "A's lines also hold 2, but not B's 2")
    }

    /// A named mutant's site is the lines of the body it swaps (and a body
    /// two mutants share is both their sites): an error anywhere in it
    /// leaves out each of them, once, and no other.
    @Test func aSchemaErrorInsideASwappedBodyIsBlamedOnEveryMutantOfThatBody() {
        let sites = [Schema.Site(id: "first", file: "Sources/M/A.swift", lines: 3...12), Schema.Site(id: "second", file: "Sources/M/A.swift", lines: 3...12),
                     Schema.Site(id: "first", file: "Sources/M/B.swift", lines: 1...4), Schema.Site(id: "third", file: "Sources/M/A.swift", lines: 20...25)]
        #expect(Lab.blamed(sites, for: ["Sources/M/A.swift:12"]) == ["first", "second"])
        #expect(Lab.blamed(sites, for: ["Sources/M/A.swift:13"]) == ["first", "second", "third"])
        #expect(Lab.blamed(sites, for: ["Sources/M/B.swift:2", "Sources/M/A.swift:21"]) == ["first", "third"])
        #expect(Lab.blamed(sites, for: ["Sources/M/A.swift:5", "Sources/M/B.swift:2"]) == ["first", "second"], "a mutant with a site in two files, once")
    }

    /// Each failed schema build leaves out the mutants its errors name and
    /// tries again, five builds at most; then every mutant runs as a patch.
    @Test func aSchemaIsBuiltAtMostFiveTimes() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let points = (1...7).map { line in
                MutationPoint(file: "Sources/Tiny/Arithmetic.swift", start: line, end: line + 1, line: line, column: 1,
                              mutationOperator: .arithmetic, original: "+", replacement: "-")
            }
            let runner = ScriptedRunner()
            let output = OutputBox()
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [], runner: runner, print: { output.append($0) }) { _ in
                (run: try points.map { try self.mutant($0.id, "        a + b", "        a + b // \($0.line)") }, ignored: [])
            }
            // Every attempt fails on the line of the first mutant still in it.
            lab.schemaBuilder = { excluded in
                let left = points.filter { !excluded.contains($0.id) }
                return Schema(numbers: Dictionary(uniqueKeysWithValues: left.enumerated().map { ($1.id, $0 + 1) }),
                              files: ["Sources/Tiny/Arithmetic.swift": Self.original + "// SCHEMA-FAILS-AT-LINE \(left[0].line)\n"],
                              support: [:], points: left)
            }
            let report = try lab.run()
            #expect(output.text.contains("Building the mutant schema (7 mutants in one build, attempt 1)..."), "\(output.text)")
            #expect(output.text.contains("Building the mutant schema (3 mutants in one build, attempt 5)..."))
            #expect(!output.text.contains("attempt 6"))
            #expect(runner.calls.filter { $0.command == "build" }.count == 1 + 5 + 7, "baseline, five schema builds, then seven patches")
            #expect(report.mutants.allSatisfy { $0.status == .survived })
            let copy = package.appendingPathComponent(".build/mutate/scratch/Sources/Tiny/Arithmetic.swift")
            #expect(try String(contentsOf: copy, encoding: .utf8) == Self.original)
        }
    }

    @Test func compilerErrorsAreReadAsPlacesInsideTheCopy() {
        let log = """
            /copy/Sources/M/A.swift:3:5: error: cannot find 'x' in scope
            Sources/M/B.swift:4:2: error: already relative
            /elsewhere/Sources/M/C.swift:7:1: error: outside the copy
            /copy/Sources/M/A.swift:9:1: warning: not an error
            error: no place at all
            swift-build: error: a tool's own error, no place either
            """
        #expect(Lab.errorLines(in: log, root: "/copy") == ["Sources/M/A.swift:3", "Sources/M/B.swift:4", "/elsewhere/Sources/M/C.swift:7"])
    }

    /// What the lab's commands inherit: homes and temporary files inside the
    /// scratch copy, the harness marked as running, and no schema switch of an
    /// outer run (a harness test inside a mutate run would otherwise run its
    /// own baseline with one of the outer run's mutants switched on), nor the
    /// outer switch pass's record (its own schema's numbers would land there).
    @Test func commandsGetTheScratchHomesAndNoOuterSchemaSwitch() {
        let temporary = URL(fileURLWithPath: "/copy/.mutate/tmp")
        let home = URL(fileURLWithPath: "/copy/.mutate/home")
        let parent = ["PATH": "/usr/bin", "HOME": "/root", "TMPDIR": "/tmp", Schema.variable: "17", "MUTATE_TEST_PAUSE": "sync",
                      Schema.reachedVariable: "/outer/.mutate/switches/3/reached"]
        let environment = Lab.childEnvironment(inheriting: parent, temporary: temporary, home: home)
        #expect(environment == [
            "PATH": "/usr/bin", "HOME": "/copy/.mutate/home", "CFFIXED_USER_HOME": "/copy/.mutate/home",
            "XDG_CACHE_HOME": "/copy/.mutate/home/.cache", "TMPDIR": "/copy/.mutate/tmp", "MUTATE_RUNNING": "1",
            "LLVM_PROFILE_FILE": "/dev/null", "SWIFT_BACKTRACE": "symbolicate=fast",
        ], "an instrumented program writes its profile nowhere, except in the coverage pass")
        let chosen = Lab.childEnvironment(inheriting: ["SWIFT_BACKTRACE": "enable=no"], temporary: temporary, home: home)
        #expect(chosen["SWIFT_BACKTRACE"] == "enable=no", "the caller's backtrace settings stand")
    }

    /// Also when the test runner reports the failure but exits 0, and when
    /// the schema's tests crash before any case is reported.
    @Test(arguments: ["", " // EXIT-ZERO", " // CRASH"])
    func aSchemaWhoseOwnBaselineIsRedFallsBackToPatches(runnerExit: String) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            let output = OutputBox()
            // A schema that is red with no switch on (it subtracts).
            let lab = minusLab(package, runner: runner, output: output) { _ in
                Self.original.replacingOccurrences(of: "a + b", with: "a - b" + runnerExit)
            }
            let report = try lab.run()
            #expect(report.mutants.first?.status == .killed)
            #expect(report.mutants.first?.buildSeconds ?? 0 > 0, "it ran as a patch, with a build")
            #expect(runner.calls.map(\.command) == ["build", "test", "build", "test", "test", "build", "test"], "the schema's baseline twice")
            #expect(output.text.contains("with every switch off the tests are not green ("), "\(output.text)")
            #expect(output.text.contains("the schema's own baseline is not green ("), "\(output.text)")
            #expect(output.text.contains("schema.log); every mutant runs as a patch"), "\(output.text)")
            #expect(runner.stoppedEarly == 1, "only the mutant's own run stops at its first failure; the schema's baseline runs to its end and names every failing test")
        }
    }

    /// A schema whose baseline fails once (a test that fails only under
    /// load) is run again, and kept when green: dropping it would cost every
    /// mutant a build of its own.
    @Test func aSchemaBaselineThatFailsOnceIsRunAgainAndKept() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            let output = OutputBox()
            let lab = minusLab(package, runner: runner, output: output) { _ in
                Self.original.replacingOccurrences(of: "a + b", with: "a + b // FLAKY-ONCE")
            }
            let report = try lab.run()
            #expect(report.mutants.first?.status == .killed, "\(output.text)")
            #expect(report.mutants.first?.buildSeconds == 0, "by its switch, no build of its own")
            #expect(runner.calls.map(\.command) == ["build", "test", "build", "test", "test", "test"], "the schema's baseline twice, then the mutant")
            #expect(output.text.contains("with every switch off the tests are not green (failing: T.Suite/adds()): running them once more"), "\(output.text)")
            #expect(!output.text.contains("every mutant runs as a patch"), "\(output.text)")
        }
    }

    /// Each mutant's progress line names its place in the run, padded so the
    /// column lines up: `[ 9/10]`, then `[10/10]`.
    @Test func progressLinesCountEachMutantInAnAlignedColumn() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let mutants = try (1...10).map { try mutant("m\($0)", "        a + b", "        a + b // \($0)") }
            let output = OutputBox()
            _ = try Lab(configuration: Self.patchesOnly(package), mutants: mutants, runner: ScriptedRunner(),
                        print: { output.append($0) }).run()
            let progress = output.text.split(separator: "\n").map(String.init).filter { $0.hasSuffix(": building and testing...") }
            #expect(progress == (1...10).map { "[\($0 < 10 ? " " : "")\($0)/10] m\($0): building and testing..." }, "\(progress)")
        }
    }

    /// Every report holds every mutant, so they are rewritten at most every
    /// `reportInterval` seconds while mutants run (after each one, a whole
    /// run spent most of its time rendering them), and once after the last.
    @Test(arguments: [(0.0, [3, 2, 1]), (3600.0, [3, 3, 3])] as [(Double, [Int])])
    func theReportsAreRewrittenWhenDueAndAfterTheLastMutant(interval: Double, pendingAtEachBuild: [Int]) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let configuration = Self.patchesOnly(package)
            let file = configuration.outputPath.appendingPathComponent("report.json")
            func pending() -> Int {
                (try? String(contentsOf: file, encoding: .utf8)).map { $0.components(separatedBy: #""status" : "Pending""#).count - 1 } ?? -1
            }
            let runner = ScriptedRunner()
            let seen = Locked<[Int]>([])
            runner.onRun = { seen.withLock { $0.append(pending()) } }
            let lab = Lab(configuration: configuration, mutants: try (1...3).map { try mutant("m\($0)", "        a + b", "        a + b // \($0)") },
                          runner: runner, print: { _ in })
            lab.reportInterval = interval
            _ = try lab.run()
            let builds = zip(runner.calls, seen.withLock { $0 }).filter { $0.0.command == "build" }.map(\.1)
            #expect(builds.dropFirst().elementsEqual(pendingAtEachBuild), "the baseline's build, then each mutant's: \(builds)")
            #expect(pending() == 0, "the last write follows the last mutant")
        }
    }

    /// Explore runs the tests of the targets that reach a mutant first; one
    /// they miss is tried against the rest of the suite before it can
    /// survive, and its verdict counts the tests of both runs.
    @Test func testsOfTheChosenTargetsRunFirstAndTheWholeSuiteDecidesASurvivor() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let mutants = [
                try mutant("subtracts", "        a + b", "        a - b"),
                try mutant("comment-only", "        a + b", "        a + b // harmless"),
            ]
            for (targets, expectedFilters, expectedSkips) in [
                (["T"], ["", #"^(T)\."#, #"^(T)\."#, ""], ["", "", "", #"^(T)\."#]),
                (["Other"], ["", #"^(Other)\."#, "", #"^(Other)\."#, ""], ["", "", #"^(Other)\."#, "", #"^(Other)\."#]),
                // Every test target chosen: the rest selects no test, and the survivor still counts all 3.
                (["T", "Other"], ["", #"^(T|Other)\."#, #"^(T|Other)\."#, ""], ["", "", "", #"^(T|Other)\."#]),
            ] {
                let runner = ScriptedRunner()
                let lab = Lab(configuration: Self.patchesOnly(package), mutants: mutants, runner: runner, print: { _ in })
                lab.testTargets = { _ in targets }
                let report = try lab.run()
                let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
                #expect(byName["subtracts"]?.status == .killed, "\(targets)")
                #expect(byName["subtracts"]?.killedBy == ["T.Suite/adds()"], "\(targets)")
                #expect(byName["comment-only"]?.status == .survived, "\(targets)")
                #expect(byName["comment-only"]?.reason == "all 3 tests passed", "a survivor's verdict is the whole suite's: \(targets)")
                #expect(abs((byName["comment-only"]?.testSeconds ?? 0) - 0.6) < 0.001, "the time of both runs: \(targets)")
                // Baseline (whole), then per mutant the chosen targets, and the rest of the suite unless they killed it.
                #expect(runner.filters == expectedFilters, "\(targets)")
                #expect(runner.skips == expectedSkips, "\(targets)")
                let log = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/logs/comment-only.log"), encoding: .utf8)
                let pattern = "^(" + targets.joined(separator: "|") + ")\\."
                #expect(log.hasSuffix("""
                    ran swift test --filter \(pattern)
                    mutate: the tests of \(targets.joined(separator: ", ")) did not kill it; running the rest of the suite
                    ran swift test --skip \(pattern)

                    """), "the first run's output is kept: \(log)")
            }
        }
    }

    /// A mutant no test target reaches goes straight to the whole suite: no
    /// run with a filter that selects nothing.
    @Test func aMutantNoTargetReachesRunsOnlyTheWholeSuite() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [try mutant("subtracts", "        a + b", "        a - b")],
                          runner: runner, print: { _ in })
            lab.testTargets = { _ in [] }
            let report = try lab.run()
            #expect(report.mutants.first?.status == .killed)
            #expect(runner.filters == ["", ""], "the baseline and the whole suite, nothing else")
        }
    }

    /// Explore stops a mutant's tests at the first failing test: the event
    /// stream names it, and no test counts as "not run" for it.
    @Test func aRunThatStopsAtTheFirstFailureNamesItsTest() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            var configuration = Self.patchesOnly(package)
            configuration.stopAtFirstFailure = true
            let mutants = [try mutant("subtracts", "        a + b", "        a - b"), try mutant("comment-only", "        a + b", "        a + b // harmless")]
            let report = try Lab(configuration: configuration, mutants: mutants, runner: runner, print: { _ in }).run()
            #expect(runner.stoppedEarly == 1)
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
            #expect(byName["subtracts"]?.status == .killed)
            #expect(byName["subtracts"]?.killedBy == ["T.Suite/adds()"])
            #expect(byName["subtracts"]?.reason == "T.Suite/adds(): Expectation failed: 2 + 3 → -1")
            #expect(byName["subtracts"]?.notRun == nil, "the tests after the first failure were not needed, not lost")
            #expect(byName["comment-only"]?.status == .survived)
        }
    }

    @Test(arguments: ["", " // EXIT-ZERO"])
    func aRedBaselineOrOneWithoutTestsStopsBeforeAnyMutant(runnerExit: String) throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            // Also when the test runner reports the failure but exits 0.
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.original.replacingOccurrences(of: "a + b", with: "a - b" + runnerExit))
            let runner = ScriptedRunner()
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [try mutant("m", "        a - b", "        a + b")],
                          runner: runner, print: { _ in })
            do {
                _ = try lab.run()
                Issue.record("a red baseline must stop the run")
            } catch let LabError.baselineTestsFailed(tests, message, _) {
                #expect(tests == ["T.Suite/adds()"])
                #expect(message == "Expectation failed: 2 + 3 → -1")
            }
            #expect(runner.calls.count == 2, "no mutant ran")
            #expect(!FileManager.default.fileExists(atPath: Self.patchesOnly(package).outputPath.appendingPathComponent(ReportWriter.resultsFile).path),
                    "no report of a run that tested nothing")
        }
    }

    /// A second run on the same copy: the mutant's log holds that run's
    /// lines only, so its reason is that run's first compiler error.
    @Test func aMutantsReasonIsItsOwnRunsFirstError() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            func run(_ new: String) throws -> MutantResult? {
                try Lab(configuration: Self.patchesOnly(package), mutants: [try mutant("m", "        a + b", new)], runner: ScriptedRunner(),
                        print: { _ in }).run().mutants.first
            }
            #expect(try run("        a + b // BROKEN")?.reason == "Sources/Tiny/Arithmetic.swift:4:9: error: cannot find 'BROKEN' in scope")
            #expect(try run("        a + b // SCHEMA-BROKEN")?.reason
                == "Sources/Tiny/Arithmetic.swift:2:5: error: no '^~^<' candidates produce the expected type")
        }
    }

    /// An error while mutants run (here the results file cannot be saved):
    /// the reports already begun hold every verdict reached, and the
    /// named mutants' schema is taken out of the copy.
    @Test func anErrorMidRunKeepsTheVerdictsReachedAndTakesTheSchemaOut() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            var configuration = Self.patchesOnly(package)
            configuration.schema = true
            let lab = Lab(configuration: configuration, mutants: [try mutant("subtracts", "        a + b", "        a - b"),
                                                                  try mutant("comment-only", "        a + b", "        a + b // harmless")],
                          runner: ScriptedRunner(), print: { _ in })
            let incremental = IncrementalRun(file: scratch.url.appendingPathComponent("no-such-folder/results.json"), previous: nil, verifyCount: 0)
            incremental.saveInterval = 0
            lab.incremental = incremental
            lab.reportInterval = 3600
            #expect(throws: (any Error).self) { try lab.run() }
            let results = try ReportWriter.read(from: configuration.outputPath)
            #expect(results.mutants.map(\.status) == [.killed, .pending], "the first verdict was reached before the save failed")
            #expect(try String(contentsOf: configuration.scratchPath.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                == Self.original, "the schema is out of the copy")
        }
    }

    /// The report names the package's commit, as git says it.
    @Test func theReportNamesThePackagesCommit() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            try scratch.write("pkg/.gitignore", ".build/\n")
            try git(["init", "-q"], in: package)
            try git(["add", "."], in: package)
            try git(["commit", "-q", "-m", "first"], in: package)
            let report = try Lab(configuration: Self.patchesOnly(package), mutants: [try mutant("m", "        a + b", "        a - b")],
                                 runner: ScriptedRunner(), print: { _ in }).run()
            let head = try git(["rev-parse", "--short", "HEAD"], in: package)
            #expect(report.commit == head && !head.isEmpty, "\(String(describing: report.commit)) \(head)")
        }
    }

    /// A lab (public API) whose scratch copy would be the package itself is
    /// refused before it copies or deletes anything.
    @Test func aScratchCopyThatIsThePackageIsRefused() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            var configuration = Self.patchesOnly(package)
            configuration.scratchPath = package
            let runner = ScriptedRunner()
            do {
                _ = try Lab(configuration: configuration, mutants: [try mutant("m", "        a + b", "        a - b")], runner: runner, print: { _ in }).run()
                Issue.record("the package cannot be its own scratch copy")
            } catch let LabError.workspace(message) {
                #expect(message.contains("is the package itself"), "\(message)")
            }
            #expect(runner.calls.isEmpty)
            #expect(try String(contentsOf: package.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8) == Self.original)
        }
    }

    /// `rebase` checks a carried mutant in the scratch copy, whose manifest
    /// has its relative `path:` dependencies made absolute: a `Package.swift`
    /// patch that touches such a line is applied to the manifest as the
    /// package has it, written with the copy's paths, built, and the copy's
    /// manifest put back after.
    @Test func aPatchOfAManifestLineWithARelativeDependencyAppliesInTheCopy() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\nimport PackageDescription\n\n"
                + "let package = Package(name: \"Tiny\", dependencies: [.package(path: \"../Dep\")], targets: [])\n")
            let dropped = try MutantFileParser.parse("""
                Mutant: no-dep
                Description: no-dep

                --- a/Package.swift
                +++ b/Package.swift
                @@ -4 +4 @@
                -let package = Package(name: "Tiny", dependencies: [.package(path: "../Dep")], targets: [])
                +let package = Package(name: "Tiny", dependencies: [.package(path: "../Dep")], targets: [.target(name: "X")])

                """, file: "no-dep.patch")
            var configuration = Self.patchesOnly(package)
            configuration.buildOnly = true
            let runner = ScriptedRunner()
            let copied = configuration.scratchPath.appendingPathComponent("Package.swift")
            let built = Locked([String]())
            runner.onRun = { built.withLock { $0.append((try? String(contentsOf: copied, encoding: .utf8)) ?? "") } }
            let output = OutputBox()
            let refusals = try Lab(configuration: configuration, mutants: [dropped], runner: runner, print: { output.append($0) }).buildEach()
            #expect(refusals.isEmpty, "\(refusals) \(output.text)")
            #expect(runner.calls.map(\.command) == ["build", "build"], "the package, then the mutant")
            let absolute = "\"" + package.deletingLastPathComponent().appendingPathComponent("Dep").standardizedFileURL.path + "\""
            #expect(built.value.count == 2 && built.value.allSatisfy { $0.contains(absolute) && !$0.contains("\"../Dep\"") }, "\(built.value)")
            #expect(built.value.last?.contains(".target(name: \"X\")") == true, "the mutant was built: \(built.value)")
            let manifest = try String(contentsOf: copied, encoding: .utf8)
            #expect(manifest == built.value.first, "the copy's manifest is put back: \(manifest)")
        }
    }

    /// `rebase`'s build check refuses a carried mutant that does not apply
    /// to the copy (the package changed since), and builds nothing for it.
    @Test func aMutantThatDoesNotApplyToTheCopyIsRefusedUnbuilt() throws {
        try withScratch { scratch in
            var configuration = Self.patchesOnly(try package(in: scratch))
            configuration.buildOnly = true
            let runner = ScriptedRunner()
            let refusals = try Lab(configuration: configuration, mutants: [try mutant("stale", "        a * b", "        a - b")],
                                   runner: runner, print: { _ in }).buildEach()
            #expect(refusals["stale"]?.hasPrefix("it does not apply: ") == true, "\(refusals)")
            #expect(runner.calls.map(\.command) == ["build"], "the package only")
        }
    }

    /// A schema whose own baseline stays red is taken out of the copy
    /// before the patches run: a mutant of another file is tested against
    /// the package's code, not against the red schema (which would make it
    /// look killed).
    @Test func aRedSchemaIsOutOfTheCopyBeforeThePatchesRun() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            try scratch.write("pkg/Sources/Tiny/Limits.swift", LabCoverageTests.limits)
            let most = try LabCoverageTests().mostTwo()
            let minus = Self.minus
            let runner = ScriptedRunner()
            let output = OutputBox()
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [], runner: runner, print: { output.append($0) }) { _ in
                (run: [try self.mutant(minus.id, "        a + b", "        a - b"), most], ignored: [])
            }
            // Red with every switch off: it subtracts.
            lab.schemaBuilder = { excluded in
                let points = [minus].filter { !excluded.contains($0.id) }
                return Schema(numbers: Dictionary(uniqueKeysWithValues: points.map { ($0.id, 1) }),
                              files: [minus.file: Self.original.replacingOccurrences(of: "a + b", with: "a - b")],
                              support: ["Sources/Tiny": "// switch\n"], points: points)
            }
            let report = try lab.run()
            #expect(output.text.contains("schema.log); every mutant runs as a patch"), "\(output.text)")
            #expect(report.mutants.map(\.status) == [.killed, .survived], "most-two is tested on the package's own add: \(output.text)")
            let builds = runner.calls.filter { $0.command == "build" }
            #expect(builds.last?.source == Self.original, "most-two's build sees Arithmetic.swift as the package has it, not the schema")
        }
    }
}

extension LabTests {
    /// A target's name goes into `--filter` and `--skip` as text, not as a
    /// pattern: a dot in it matches only a dot.
    @Test func aTargetsNameIsMatchedLiterally() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let runner = ScriptedRunner()
            let lab = Lab(configuration: Self.patchesOnly(package), mutants: [try mutant("comment-only", "        a + b", "        a + b // harmless")],
                          runner: runner, print: { _ in })
            lab.testTargets = { _ in ["My.Tests"] }
            _ = try lab.run()
            #expect(runner.filters == ["", #"^(My\.Tests)\."#, ""], "\(runner.filters)")
            #expect(runner.skips == ["", "", #"^(My\.Tests)\."#], "\(runner.skips)")
        }
    }
}

extension LabTests {
    /// The test runs' xunit files and event streams go to the copy's own
    /// `.mutate/results`, never among the package's files in the copy, where
    /// the package's tests (which run there) could see them.
    @Test func theTestRunsReportsStayOutOfThePackagesFilesInTheCopy() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            let configuration = Self.patchesOnly(package)
            _ = try Lab(configuration: configuration, mutants: [try mutant("subtracts", "        a + b", "        a - b")],
                        runner: ScriptedRunner(), print: { _ in }).run()
            let copy = configuration.scratchPath
            #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent(".mutate/results/baseline-swift-testing.xml").path))
            let top = try FileManager.default.contentsOfDirectory(atPath: copy.path).filter { !$0.hasPrefix(".") }.sorted()
            #expect(top == ["Package.swift", "Sources"], "\(top)")
        }
    }
}
