import Foundation
import Testing
@testable import MutationHarness

/// The lab with a coverage pass, driven by a scripted runner (a test
/// executable that says what each test reaches) and stand-in LLVM tools.
@Suite(.ownThread)
struct LabCoverageTests {
    /// `add` (lines 2-5) is run by `T.Suite/adds()`; `idle` (7-9) by no test;
    /// line 6 is a declaration, outside every function.
    static let source = """
        public enum Arithmetic {
            public static func add(_ a: Int, _ b: Int) -> Int {
                // adds
                a + b
            }
            public static let zero = 0
            public static func idle() -> Int {
                1
            }
        }

        """

    /// A mutant of `Arithmetic.swift`'s `line`; with `killedBy`, its file names that test.
    func mutant(_ name: String, line: Int, _ old: String, _ new: String, killedBy: String? = nil) throws -> Mutant {
        try MutantFileParser.parse("""
            Mutant: \(name)
            Description: \(name)\(killedBy.map { "\nKilled-By: \($0)" } ?? "")

            --- a/Sources/Tiny/Arithmetic.swift
            +++ b/Sources/Tiny/Arithmetic.swift
            @@ -\(line) +\(line) @@
            -\(old)
            +\(new)

            """, file: "mutants/\(name).patch")
    }

    /// Stand-ins: `llvm-profdata` concatenates the text profiles the scripted
    /// tests wrote; `llvm-cov export` prints the two functions at the copy's
    /// path, each run once if the profile names it.
    func tools(in scratch: Scratch, copy: URL) throws -> LLVMCoverage {
        let file = copy.appendingPathComponent("Sources/Tiny/Arithmetic.swift").path
        let runner = copy.appendingPathComponent(Self.derivedRunner).path
        try scratch.writeExecutable("tools/llvm-profdata", """
            #!/bin/sh
            # merge -sparse -text -o - FILE... | merge -sparse -o OUT FILE... | merge -sparse -o OUT --input-files=LIST
            shift 2
            if [ "$1" = -text ]; then shift 3; cat "$@"; exit; fi
            out=$2; shift 2
            case "$1" in --input-files=*) cat $(cat "${1#--input-files=}") > "$out" ;; *) cat "$@" > "$out" ;; esac

            """)
        try scratch.writeExecutable("tools/llvm-cov", #"""
            #!/bin/sh
            # export -format=text -skip-expansions -instr-profile PROFILE BINARY [-object OTHER]...
            ran() { if grep -qx "$1" "$6"; then echo 1; else echo 0; fi; }
            add=$(ran add "$@"); idle=$(ran idle "$@")
            # The functions' lines as the build has them (a schema moves idle down).
            line() { grep -n "$1" '\#(file)' | tail -1 | cut -d: -f1; }
            addEnd=$(($(line 'static let zero') - 1)); idleStart=$(line 'func idle'); idleEnd=$(line '^    }')
            printf '{"data":[{"functions":[{"name":"add","count":%s,"filenames":["%s"],"regions":[[2,55,%s,6,%s,0,0,0]]},' $add '\#(file)' $addEnd $add
            printf '{"name":"idle","count":%s,"filenames":["%s"],"regions":[[%s,38,%s,6,%s,0,0,0]]}' $idle '\#(file)' $idleStart $idleEnd $idle
            # SwiftPM's test runner, once the copy has one: a file the build writes, which every test runs.
            if [ -f '\#(runner)' ]; then printf ',{"name":"main","count":1,"filenames":["%s"],"regions":[[1,1,3,2,1,0,0,0]]}' '\#(runner)'; fi
            printf ']}]}'

            """#)
        return LLVMCoverage(profdata: scratch.url.appendingPathComponent("tools/llvm-profdata").path,
                            cov: scratch.url.appendingPathComponent("tools/llvm-cov").path)
    }

    /// Where the stand-in `llvm-cov` finds a test runner the build wrote, if the copy has one.
    static let derivedRunner = ".build/debug/runner.swift"

    /// The package `pkg` in `scratch`: `Arithmetic.swift` and an empty mutants folder.
    func package(in scratch: Scratch, source: String = Self.source) throws -> URL {
        try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\n")
        try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", source)
        try scratch.write("pkg/mutants/.keep", "")
        return scratch.url.appendingPathComponent("pkg")
    }

    func run(allTests: Bool = false, source: String = Self.source, files: [String: String] = [:], mutants chosen: [Mutant]? = nil,
                     configure: (ScriptedRunner) -> Void = { _ in },
                     limits: (multiplier: Double, constant: Double)? = nil,
                     configureLab: (inout LabConfiguration) -> Void = { _ in }, lab setUp: (Lab) -> Void = { _ in }) throws
        -> (report: LabReport, runner: ScriptedRunner, output: String, logs: URL)
    {
        try withScratch { scratch in
            let package = try package(in: scratch, source: source)
            for (path, text) in files { try scratch.write("pkg/" + path, text) }
            var configuration = LabConfiguration(packagePath: package)
            // Each mutant built on its own (the named mutants' schema has tests of its own below).
            configuration.schema = false
            configuration.stopAtFirstFailure = !allTests
            if let limits { (configuration.timeoutMultiplier, configuration.timeoutConstant) = limits }
            configureLab(&configuration)
            let runner = ScriptedRunner()
            runner.makesTestBinary = true
            configure(runner)
            let output = OutputBox()
            let lab = Lab(configuration: configuration, mutants: try chosen ?? [
                try mutant("subtracts", line: 4, "        a + b", "        a - b"),
                try mutant("idle-two", line: 8, "        1", "        2"),
                try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1"),
            ], runner: runner, print: { output.append($0) })
            let llvm = try tools(in: scratch, copy: configuration.scratchPath)
            lab.findLLVM = { _ in llvm }
            lab.coverageWorkers = 1
            setUp(lab)
            let report = try lab.run()
            let logs = configuration.outputPath.appendingPathComponent("logs")
            // Whatever ran, the copy is the package again.
            #expect(try String(contentsOf: configuration.scratchPath.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8) == source)
            #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent("Sources/Tiny/" + Schema.supportFileName).path))
            for left in [".mutate/patch-schema", ".mutate/suite-profile", "default.profraw"] {
                #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent(left).path), "\(left) is removed")
            }
            // The copy is marked as the harness's (a later run may then use and empty it), and the report says when and with what it ran.
            #expect(try String(contentsOf: configuration.scratchPath.appendingPathComponent(ScratchRules.marker), encoding: .utf8)
                == "A scratch copy made by `mutate`; the harness may delete anything in this folder.\n")
            let started = try #require(report.startedAt.flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(started.timeIntervalSinceNow) < 600 && report.setupSeconds > 0 && report.toolchain == runner.toolchain)
            let saved = scratch.url.deletingLastPathComponent().appendingPathComponent("kept-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: logs, to: saved)
            return (report, runner, output.text, saved)
        }
    }

    /// The covering tests of the suites named after the mutant's file run
    /// first: when they kill it the others never start; when they do not,
    /// the others run and the two runs are judged together. With
    /// `--all-tests` every covering test runs in one go.
    @Test func theMutantsOwnSuitesRunFirstAndTheOthersOnlyWhenTheyDoNotKillIt() throws {
        func runs(own: String, allTests: Bool = false) throws -> (LabReport, [[String]], log: String) {
            let (report, runner, _, logs) = try run(allTests: allTests, configure: { $0.reaches["T.Suite/other()"] = ["add"] }, lab: { lab in
                lab.ownSuites = { tests, files in
                    #expect(files == ["Sources/Tiny/Arithmetic.swift"])
                    return tests.filter { $0 == own }
                }
            })
            defer { try? FileManager.default.removeItem(at: logs) }
            // After the three tests of the coverage pass, the runs of `subtracts`.
            return (report, Array(runner.binaryRuns.dropFirst(3).prefix { $0 != ["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"] }),
                    try String(contentsOf: logs.appendingPathComponent("subtracts.log"), encoding: .utf8))
        }
        var (report, subtractsRuns, log) = try runs(own: "T.Suite/adds()")
        #expect(report.mutants.first { $0.name == "subtracts" }?.status == .killed)
        #expect(subtractsRuns.first == ["T.Suite/adds()"], "its own suite's test runs alone and kills it: \(subtractsRuns)")
        #expect(!subtractsRuns.contains { $0.contains("T.Suite/other()") }, "the other covering test never starts: \(subtractsRuns)")
        #expect(log.contains("mutate: the 1 test(s) of the suites named after its file(s) run first\n"
            + "mutate: running the 1 test(s) that reach this mutant: T.Suite/adds()\n"), "\(log)")
        #expect(!log.contains("they did not kill it"), "\(log)")

        (report, subtractsRuns, log) = try runs(own: "T.Suite/other()")
        #expect(report.mutants.first { $0.name == "subtracts" }?.status == .killed)
        #expect(report.mutants.first { $0.name == "subtracts" }?.killedBy == ["T.Suite/adds()"])
        #expect(report.mutants.first { $0.name == "subtracts" }?.testSeconds == 0.1, "both runs' time")
        #expect(subtractsRuns.prefix(2) == [["T.Suite/other()"], ["T.Suite/adds()"]], "own suite first, then the rest: \(subtractsRuns)")
        #expect(log.contains("mutate: they did not kill it; the other 1 test(s) that reach it run\n"
            + "mutate: running the 1 test(s) that reach this mutant: T.Suite/adds()\n"), "\(log)")

        (report, subtractsRuns, log) = try runs(own: "T.Suite/other()", allTests: true)
        #expect(report.mutants.first { $0.name == "subtracts" }?.killedBy == ["T.Suite/adds()"])
        #expect(subtractsRuns.first.map(Set.init) == ["T.Suite/adds()", "T.Suite/other()"], "the kill matrix: one run of both: \(subtractsRuns)")
    }

    @Test func eachMutantRunsTheTestsThatReachItNoneOrTheWholeSuite() throws {
        let (report, runner, output, logs) = try run()
        defer { try? FileManager.default.removeItem(at: logs) }
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })

        #expect(output.contains("Measuring which tests reach which code (3 tests, each on its own)"), "\(output)")
        #expect(output.range(of: #"\n  3 tests measured in \d+\.\ds\n"#, options: .regularExpression) != nil, "\(output)")
        #expect(output.contains("1 mutant(s) run only the tests that reach them, 1 reached by no test (NoCoverage), 1 that the map cannot place"), "\(output)")
        #expect(!output.contains("ran in the whole suite but in no test on its own"), "nothing runs only under load: \(output)")
        #expect(!output.contains("ran no changed file"), "no results file, nothing known before: \(output)")
        #expect(Set(runner.binaryRuns.prefix(3)) == [["T.Suite/adds()"], ["T.Suite/other()"], ["Other.Suite/unrelated()"]],
                "the pass runs each test alone: \(runner.binaryRuns)")
        #expect(runner.binaryRuns.dropFirst(3).first == ["T.Suite/adds()"], "then the one mutant with tests runs only its test")
        #expect(runner.binaryRuns.dropFirst(4).map(Set.init) == [Set(["T.Suite/adds()", "T.Suite/other()", "Other.Suite/unrelated()"])],
                "the one the map cannot place runs every test, by the test executable too: \(runner.binaryRuns)")

        #expect(byName["subtracts"]?.status == .killed)
        #expect(byName["subtracts"]?.coveredBy == ["T.Suite/adds()"])
        #expect(byName["subtracts"]?.killedBy == ["T.Suite/adds()"])
        #expect(runner.stoppedEarly == 1, "its run stops at the first failure")

        #expect(byName["idle-two"]?.status == .noCoverage)
        #expect(byName["idle-two"]?.testSeconds == 0 && (byName["idle-two"]?.buildSeconds ?? 0) > 0,
                "built (a named mutant that does not compile is still found), no test run")
        #expect(byName["idle-two"]?.reason == "no test runs the code it changes")
        let idleLog = try String(contentsOf: logs.appendingPathComponent("idle-two.log"), encoding: .utf8)
        #expect(idleLog.hasSuffix("mutate: no test runs the code this mutant changes (Sources/Tiny/Arithmetic.swift): NoCoverage, no test run\n"),
                "\(idleLog)")

        #expect(byName["zero-one"]?.status == .survived, "the whole suite ran for it, and passed")
        #expect(byName["zero-one"]?.coveredBy == nil)
        let zeroLog = try String(contentsOf: logs.appendingPathComponent("zero-one.log"), encoding: .utf8)
        #expect(zeroLog.contains("the coverage map cannot place this mutant (Sources/Tiny/Arithmetic.swift:6 is outside every function")
                && zeroLog.contains("): every test that could run its module runs"), "\(zeroLog)")
        #expect(runner.calls.filter { $0.command == "test" }.count == 1, "swift test ran for the baseline only")

        #expect(report.coverageSeconds != nil)
        #expect(report.score.map { Int($0.rounded()) } == 33, "noCoverage and survived both count as missed: 1 of 3")
    }

    /// Without the LLVM tools there is no map: the run says so, and every
    /// mutant runs the whole suite (a mutant no test reaches survives it).
    @Test func withoutTheLLVMToolsEveryMutantRunsTheWholeSuite() throws {
        let (report, runner, output, logs) = try run(lab: { $0.findLLVM = { _ in nil } })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("  llvm-profdata and llvm-cov are neither beside swift nor on PATH: every mutant runs the whole suite\n"), "\(output)")
        #expect(!output.contains("Measuring which tests reach which code"))
        #expect(report.coverageSeconds == nil)
        #expect(report.mutants.map(\.status) == [.killed, .survived, .survived], "\(report.mutants.map(\.status))")
        #expect(report.mutants.allSatisfy { $0.coveredBy == nil })
        #expect(runner.binaryRuns.isEmpty, "no test executable started directly: \(runner.binaryRuns)")
    }

    /// In explore, a mutant the map cannot place runs the tests of the
    /// targets that link its module, then only the other tests that ran
    /// code of that module (here in a process they started): a test that
    /// does neither cannot run the mutated code.
    @Test func aMutantTheMapCannotPlaceRunsItsTargetsTestsThenOnlyTheOthersThatRanItsModule() throws {
        func explore(_ configure: @escaping (ScriptedRunner) -> Void) throws -> (LabReport, [[String]], String) {
            let (report, runner, _, logs) = try run(configure: configure, lab: { lab in
                lab.testTargets = { _ in ["T"] }
                lab.mutatedModule = { _ in "Sources/Tiny" }
            })
            defer { try? FileManager.default.removeItem(at: logs) }
            return (report, runner.binaryRuns, try String(contentsOf: logs.appendingPathComponent("zero-one.log"), encoding: .utf8))
        }
        let (report, runs, log) = try explore { $0.reaches["Other.Suite/unrelated()"] = ["add"] }
        #expect(report.mutants.first { $0.name == "zero-one" }?.status == .survived)
        #expect(runs.suffix(2).map(Set.init) == [["T.Suite/adds()", "T.Suite/other()"], ["Other.Suite/unrelated()"]], "\(runs)")
        #expect(log.contains("running the 1 other test(s) that ran code of that module"), "\(log)")

        let (alone, aloneRuns, aloneLog) = try explore { _ in }
        #expect(alone.mutants.first { $0.name == "zero-one" }?.status == .survived)
        #expect(aloneRuns.last.map(Set.init) == ["T.Suite/adds()", "T.Suite/other()"], "Other's test ran nothing of Tiny: not run: \(aloneRuns)")
        #expect(aloneLog.contains("no other test ran code of the mutated module"), "\(aloneLog)")
    }

    @Test func allTestsLetsEveryCoveringTestFinish() throws {
        let (report, runner, _, logs) = try run(allTests: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.mutants.first { $0.name == "subtracts" }?.status == .killed)
        #expect(runner.stoppedEarly == 0, "no run is stopped at its failure")
    }

    @Test func codeOnlyTheWholeSuiteRanRunsTheWholeSuite() throws {
        let (report, _, output, logs) = try run { $0.suiteOnlyReaches = ["idle"] }
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("3 line(s) in 1 file(s) ran in the whole suite but in no test on its own: a mutant there runs the whole suite (listed in coverage.log)"), "\(output)")
        let coverageLog = try String(contentsOf: logs.appendingPathComponent("coverage.log"), encoding: .utf8)
        #expect(coverageLog.contains("== ran in the whole suite but in no test on its own\n  Sources/Tiny/Arithmetic.swift: 7, 8, 9\n"), "\(coverageLog)")
        let idle = report.mutants.first { $0.name == "idle-two" }
        #expect(idle?.status == .survived, "not NoCoverage: the whole suite ran for it")
        let log = try String(contentsOf: logs.appendingPathComponent("idle-two.log"), encoding: .utf8)
        #expect(log.contains("Sources/Tiny/Arithmetic.swift:8 ran in the whole suite but in no test on its own"), "\(log)")
        #expect(report.mutants.first { $0.name == "subtracts" }?.coveredBy == ["T.Suite/adds()"], "the rest of the map holds")
    }

    /// A program a test starts with an environment of its own (no
    /// `LLVM_PROFILE_FILE`) writes `default.profraw` in the copy, in the
    /// suite's run and in the test's own: what it ran counts as that test's
    /// (not as the test measured first, which would find the suite's file),
    /// and the run says so.
    @Test func aProgramATestStartsWithAnEnvironmentOfItsOwnCountsAsThatTests() throws {
        let (report, runner, output, logs) = try run { $0.strayReaches = ["T.Suite/other()": ["idle"]] }
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("  1 test(s) started a program that wrote its profile in the copy's folder: counted as theirs\n"), "\(output)")
        let idle = try #require(report.mutants.first { $0.name == "idle-two" })
        #expect(idle.coveredBy == ["T.Suite/other()"] && idle.status == .survived, "\(idle)")
        #expect(report.mutants.first { $0.name == "subtracts" }?.coveredBy == ["T.Suite/adds()"])
        #expect(runner.binaryRuns.first == ["T.Suite/adds()"], "adds() is measured first, while the suite's file is there")

        let (_, _, plain, plainLogs) = try run()
        defer { try? FileManager.default.removeItem(at: plainLogs) }
        #expect(!plain.contains("started a program"), "\(plain)")
    }

    /// A function a test ran that the build's coverage mapping lacks stops
    /// the pass: the profiles and the build disagree.
    @Test func aFunctionATestRanThatTheMappingLacksStopsThePass() throws {
        let (report, _, output, logs) = try run { $0.reaches["T.Suite/other()"] = ["ghost"] }
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("coverage pass stopped: 1 function(s) the tests ran are not in the coverage mapping (such as ghost): "
            + "the profiles and the build disagree"), "\(output)")
        #expect(report.mutants.allSatisfy { $0.coveredBy == nil && $0.status != .noCoverage })
    }

    /// The profiles a killed run left in the pass's folder (SIGKILL skips its
    /// clean-up) are no part of the next pass: here one that says `idle` ran
    /// alone would hide that only the whole suite runs it.
    @Test func aCoveragePassAKilledRunLeftBehindIsNoPartOfTheNext() throws {
        let (report, _, output, logs) = try run(configure: { $0.suiteOnlyReaches = ["idle"] }, configureLab: { configuration in
            let stale = configuration.scratchPath.appendingPathComponent(".mutate/coverage/alone/9.profdata")
            try? FileManager.default.createDirectory(at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data("idle\n# Func Hash:\n0\n# Num Counters:\n1\n# Counter Values:\n1\n".utf8).write(to: stale)
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("3 line(s) in 1 file(s) ran in the whole suite but in no test on its own"), "\(output)")
        #expect(report.mutants.first { $0.name == "idle-two" }?.status == .survived, "the whole suite ran for it: not NoCoverage")
    }

    /// Code that only a program beside the test executable holds is read
    /// from that program (`llvm-cov export -object`), and a mutant there runs
    /// the whole suite: such a program may be killed before it writes its
    /// profile (the fault child is, on purpose), so NoCoverage would be a guess.
    @Test func codeOnlyInAProgramBesideTheTestExecutableRunsTheWholeSuite() throws {
        let (report, _, _, logs) = try run(configureLab: { configuration in
            let child = configuration.scratchPath.appendingPathComponent(".build/debug/child")
            try? FileManager.default.createDirectory(at: child.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? writeExecutable("#!/bin/sh\n", to: child)
        }, lab: { lab in
            guard let llvm = lab.findLLVM(lab.configuration.swift) else { return }
            let cov = llvm.cov + "-objects"
            // Without `-object`, the test executable alone: it has no function named `idle`.
            try? writeExecutable("""
                #!/bin/sh
                case " $* " in *" -object "*) exec '\(llvm.cov)' "$@" ;; esac
                '\(llvm.cov)' "$@" | sed 's/"name":"idle"/"name":"idle-elsewhere"/'

                """, to: URL(fileURLWithPath: cov))
            lab.findLLVM = { _ in LLVMCoverage(profdata: llvm.profdata, cov: cov) }
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.mutants.first { $0.name == "idle-two" }?.status == .survived, "\(report.mutants.map(\.status))")
        let log = try String(contentsOf: logs.appendingPathComponent("idle-two.log"), encoding: .utf8)
        #expect(log.contains("runs only in an executable a test starts"), "\(log)")
    }

    /// A test that writes no profile on its own says nothing of what it
    /// reaches: the pass stops and names it.
    @Test func aTestThatWritesNoProfileAloneStopsThePass() throws {
        let (report, _, output, logs) = try run { $0.writesNoProfileAlone = "T.Suite/other()" }
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("coverage pass stopped: T.Suite/other() wrote no coverage profile: the build is not instrumented, "
            + "or the test exits without the runtime writing one"), "\(output)")
        #expect(report.mutants.allSatisfy { $0.coveredBy == nil })
    }

    /// An LLVM tool that fails stops the pass with what failed: its output
    /// is not read as a profile (which would make every mutant NoCoverage),
    /// and every mutant runs the whole suite.
    @Test func aFailingLLVMToolStopsThePassAndSaysWhich() throws {
        let (report, _, output, logs) = try run(lab: { $0.findLLVM = { _ in LLVMCoverage(profdata: "/bin/false", cov: "/bin/false") } })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("coverage pass stopped: false merge failed"), "\(output)")
        #expect(report.mutants.allSatisfy { $0.coveredBy == nil && $0.status != .noCoverage }, "\(report.mutants.map(\.status))")
        #expect(report.mutants.map(\.status) == [.killed, .survived, .survived])
    }

    @Test func aSuiteRunWithoutAProfileGivesEveryMutantTheWholeSuite() throws {
        let (report, _, output, logs) = try run { $0.writesSuiteProfile = false }
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("coverage pass stopped: the whole suite's run wrote no coverage profile"), "\(output)")
        #expect(report.mutants.allSatisfy { $0.coveredBy == nil && $0.status != .noCoverage })
    }

    /// A test that cannot run alone (it fails, it did not run (another test
    /// ran in its place), or its process died after it passed) says nothing of what it reaches: the
    /// pass stops, names it, and every mutant runs the whole suite, with the
    /// verdicts of a run without a pass. The pass's log keeps each test's output.
    @Test(arguments: [(ScriptedRunner.AloneOutcome.fails, "failed (exited(1))"), (.doesNotRun, "did not run (exited(0))"),
                      (.crashesAfterPassing, "failed (signalled(\(SIGABRT)))"), (.anotherTestRuns, "did not run (exited(0))")])
    func aTestThatCannotRunAloneStopsThePass(outcome: ScriptedRunner.AloneOutcome, said: String) throws {
        let (report, _, output, logs) = try run { $0.aloneWithProfile = ("T.Suite/other()", outcome) }
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("coverage pass stopped: T.Suite/other() \(said) when it ran on its own"), "\(output)")
        #expect(output.contains("a test that needs others to run first cannot be chosen alone\n  every mutant runs the whole suite"), "\(output)")
        #expect(report.mutants.allSatisfy { $0.coveredBy == nil })
        #expect(Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0.status) })
            == ["subtracts": .killed, "idle-two": .survived, "zero-one": .survived], "the whole suite's verdicts, no NoCoverage")
        let coverageLog = try String(contentsOf: logs.appendingPathComponent("coverage.log"), encoding: .utf8)
        #expect(coverageLog.contains("== T.Suite/adds()\nthe scripted test executable ran\n"), "each test's output under its id: \(coverageLog)")
    }

    @Test func chosenTestsGetTheSuitesFormulaAppliedToTheirOwnTime() throws {
        // The baseline suite says it took 0.3 s, each test alone 0.05 s: 2 x 0.3 + 1 and 2 x 0.05 + 1.
        let (report, runner, _, logs) = try run(limits: (2, 1))
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.testTimeoutSeconds == 1.6)
        let subtractsRun = try #require(runner.binaryRuns.indices.dropFirst(3).first { runner.binaryRuns[$0] == ["T.Suite/adds()"] })
        let limit = try #require(runner.binaryLimits[subtractsRun])
        #expect(abs(limit - 1.1) < 0.001, "the one covering test's run: \(runner.binaryLimits)")
        let log = try String(contentsOf: logs.appendingPathComponent("subtracts.log"), encoding: .utf8)
        #expect(log.contains("mutate: Swift Testing, 1 test(s), time limit 1s"), "\(log)")
    }

    /// A hung test used to cost its run's whole limit (the tests' time x 3
    /// + 30 s): the run now stops once tests run and none has started or
    /// ended for the longest of their times alone x 3 + `stallConstant`.
    @Test func aHungTestStopsItsRunOnceNoTestHasStartedOrEndedForItsAllowance() throws {
        let (report, runner, _, logs) = try run(configure: { $0.chosenHang = true }, configureLab: { $0.stallConstant = 0.2 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(runner.hungRuns == [.timedOut])
        let subtracts = try #require(report.mutants.first { $0.name == "subtracts" })
        #expect(subtracts.status == .timeout)
        let reason = subtracts.reason ?? ""
        #expect(reason.hasPrefix("T.Suite/adds() hung: no test started or ended for 0."), "\(reason)")
        #expect(reason.hasSuffix("s (it took 0.1s alone; the limit is 0.4s)"), "0.05 s alone x 3 + 0.2: \(reason)")
        let log = try String(contentsOf: logs.appendingPathComponent("subtracts.log"), encoding: .utf8)
        #expect(log.contains("mutate: T.Suite/adds() hung: no test started or ended for 0."), "\(log)")
        #expect(log.contains("; the run was stopped as a timeout"), "\(log)")
        #expect((runner.binaryLimits.last ?? nil).map { $0 >= 30 } == true, "long before the run's own limit: \(runner.binaryLimits)")
    }

    /// A mutant the map cannot place runs the whole suite; once the
    /// baseline's whole suite has shown how quiet it gets while each test
    /// runs, a run of it that stays quiet three times longer (+
    /// `stallConstant`) while that test runs is stopped as a timeout, long
    /// before the suite's own limit. Another test's silences are not its.
    @Test func aHungWholeSuiteStopsOnceQuieterThanItsBaselineEverWas() throws {
        let (report, runner, _, logs) = try run(configure: { $0.suiteHang = true; $0.suiteQuiet = 0.1 },
                                                configureLab: { $0.stallConstant = 0.2 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(runner.hungRuns == [.timedOut], "stopped by the lab, not by the run's limit")
        let zero = try #require(report.mutants.first { $0.name == "zero-one" })
        #expect(zero.status == .timeout)
        let reason = zero.reason ?? ""
        #expect(reason.hasPrefix("T.Suite/other() hung: no test started or ended for 0."), "\(reason)")
        #expect(reason.hasSuffix("the limit is 0.5s)"),
                "other()'s 0.1 s quiet in the baseline x 3 + 0.2 (not adds()'s 1 s; its time alone gives less): \(reason)")

        // Without the baseline's figure (a suite whose events carry no time) no stall is called: the limit ends it.
        let (unknown, blind, _, blindLogs) = try run(configure: { $0.suiteHang = true }, configureLab: { $0.stallConstant = 0.2 })
        defer { try? FileManager.default.removeItem(at: blindLogs) }
        #expect(blind.hungRuns == [nil])
        #expect(unknown.mutants.first { $0.name == "zero-one" }?.reason == "the tests ran past the time limit and were killed")
    }

    @Test func anExplicitTimeoutIsTheOnlyLimitOfAHungTest() throws {
        let (report, runner, _, logs) = try run(configure: { $0.chosenHang = true },
                                                configureLab: { $0.stallConstant = 0.2; $0.fixedTimeout = 5 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(runner.hungRuns == [nil])
        let subtracts = try #require(report.mutants.first { $0.name == "subtracts" })
        #expect(subtracts.status == .timeout)
        #expect(subtracts.reason == "the tests ran past the time limit and were killed", "the run's limit ended it, not a stall")
    }

    /// Schema mutants with chosen tests need no build: `jobs` of them are
    /// tested at once, and the verdicts are those of one at a time.
    /// An `explore` lab whose generated mutants (`names`, numbered in order)
    /// all make the same edit at `line`, each behind its schema switch.
    func exploreLab(in scratch: Scratch, output: OutputBox, names: [String], line: Int, _ old: String, _ new: String,
                            configureLab: (inout LabConfiguration) -> Void = { _ in }, configure: (ScriptedRunner) -> Void = { _ in })
        throws -> (lab: Lab, configuration: LabConfiguration, runner: ScriptedRunner)
    {
        let package = try package(in: scratch)
        var configuration = LabConfiguration(packagePath: package)
        configureLab(&configuration)
        let runner = ScriptedRunner()
        runner.makesTestBinary = true
        configure(runner)
        let lab = Lab(configuration: configuration, mutants: [], runner: runner, print: { output.append($0) }) { _ in
            (run: try names.map { try self.mutant($0, line: line, old, new) }, ignored: [])
        }
        lab.schemaBuilder = { _ in
            Schema(numbers: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) }),
                   files: ["Sources/Tiny/Arithmetic.swift": Self.source + "// SCHEMA\n"], support: ["Sources/Tiny": "// switch\n"])
        }
        let llvm = try tools(in: scratch, copy: configuration.scratchPath)
        lab.findLLVM = { _ in llvm }
        lab.coverageWorkers = 1
        return (lab, configuration, runner)
    }

    /// A suite profile a killed run left, or a `default.profraw` the
    /// package holds, is no part of the baseline's suite profile: `idle`
    /// is still run by no test.
    @Test func profilesLeftFromBeforeAreNoPartOfTheSuites() throws {
        let profile = "idle\n# Func Hash:\n0\n# Num Counters:\n1\n# Counter Values:\n1\n"
        let (left, _, leftOutput, leftLogs) = try run(configureLab: { configuration in
            let stale = configuration.scratchPath.appendingPathComponent(".mutate/suite-profile/9.profraw")
            try? FileManager.default.createDirectory(at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(profile.utf8).write(to: stale)
        })
        defer { try? FileManager.default.removeItem(at: leftLogs) }
        #expect(left.mutants.first { $0.name == "idle-two" }?.status == .noCoverage, "\(leftOutput)")
        #expect(!leftOutput.contains("ran in the whole suite but in no test on its own"), "\(leftOutput)")
        let (held, _, heldOutput, heldLogs) = try run(files: ["default.profraw": profile])
        defer { try? FileManager.default.removeItem(at: heldLogs) }
        #expect(held.mutants.first { $0.name == "idle-two" }?.status == .noCoverage, "\(heldOutput)")
        #expect(!heldOutput.contains("ran in the whole suite but in no test on its own"), "\(heldOutput)")
    }

    /// Both passes say how far they are, with the time left, every 10 s.
    @Test func theTwoPassesSayHowFarTheyAre() throws {
        let clock = Locked(Date(timeIntervalSince1970: 0))
        let tick: @Sendable () -> Date = { clock.withLock { $0 = $0.addingTimeInterval(11); return $0 } }
        let (_, _, output, logs) = try run(lab: { $0.passClock = tick })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("  coverage: 1 of 3 tests run on their own, about "), "\(output)")
        try withScratch { scratch in
            let switches = OutputBox()
            let (lab, _) = try exploreOutsideFunctions(in: scratch, output: switches)
            lab.passClock = tick
            _ = try lab.run()
            #expect(switches.text.contains("  switches: 1 of "), "\(switches.text)")
        }
    }

    /// What a killed switch pass left in its folders (each old record
    /// says its test ran zero-two's switch) is no part of the next pass.
    @Test func aSwitchPassAKilledRunLeftBehindIsNoPartOfTheNext() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, configuration) = try exploreOutsideFunctions(in: scratch, output: output)
            for index in 0..<3 {
                let folder = configuration.scratchPath.appendingPathComponent(".mutate/switches/\(index)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("2\n".utf8).write(to: folder.appendingPathComponent("reached"))
            }
            let report = try lab.run()
            #expect(report.mutants.first { $0.name == "zero-two" }?.status == .noCoverage, "\(output.text)")
        }
    }

    /// Three schema mutants on line 6, outside every function: the map cannot
    /// place them. The scripted tests run switch 1 (both of `T`'s) and, only
    /// together, switch 3.
    func exploreOutsideFunctions(in scratch: Scratch, output: OutputBox, configure: @escaping (ScriptedRunner) -> Void = { _ in })
        throws -> (lab: Lab, configuration: LabConfiguration)
    {
        let (lab, configuration, _) = try exploreLab(in: scratch, output: output, names: ["zero-one", "zero-two", "zero-three"], line: 6,
                                                     "    public static let zero = 0", "    public static let zero = 1", configure: { runner in
            runner.switchReaches = ["T.Suite/adds()": [1], "T.Suite/other()": [1]]
            runner.switchesUnderLoad = [3]
            configure(runner)
        })
        return (lab, configuration)
    }

    /// Schema mutants the map cannot place are placed by the switch pass:
    /// the tests that ran their switch alone, none (NoCoverage), or, for a
    /// switch that ran only with the tests together, every test that could
    /// run its code, as before.
    @Test func theSwitchPassPlacesSchemaMutantsTheMapCannot() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, configuration) = try exploreOutsideFunctions(in: scratch, output: output)
            let report = try lab.run()
            let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
            #expect(output.text.contains("0 mutant(s) run only the tests that reach them, 0 reached by no test (NoCoverage), 3 that the map cannot place"), "\(output.text)")
            #expect(output.text.contains("Measuring which tests run the switches of the 3 mutant(s) the map cannot place (3 tests, each on its own)"), "\(output.text)")
            #expect(output.text.contains("1 placed by the tests that ran their switch, 1 whose switch no test ran (NoCoverage), 1 whose switch ran only with the tests together"),
                    "\(output.text)")
            #expect(!output.text.contains("the map places narrowed"), "none narrowed, no line of them: \(output.text)")
            #expect(byName["zero-one"]?.status == .killed)
            #expect(byName["zero-one"]?.coveredBy.map(Set.init) == ["T.Suite/adds()", "T.Suite/other()"])
            #expect(byName["zero-two"]?.status == .noCoverage)
            #expect(byName["zero-three"]?.status == .killed, "run by every test that could run its code: adds() fails on odd switches")
            #expect(byName["zero-three"]?.coveredBy == nil)
            let log = try String(contentsOf: configuration.outputPath.appendingPathComponent("logs/zero-one.log"), encoding: .utf8)
            #expect(log.contains("Sources/Tiny/Arithmetic.swift:6 is outside every function") && log.contains("the tests that ran its switch can (the switch pass)"), "\(log)")
            for left in [".mutate/switches", ".mutate/switches-together"] {
                #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent(left).path), "\(left) is removed")
            }
        }
    }

    /// A test that fails on its own in the switch pass places nothing: every
    /// unplaced mutant runs every test that could run its code, as before.
    @Test func aTestThatFailsAloneInTheSwitchPassPlacesNothing() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _) = try exploreOutsideFunctions(in: scratch, output: output) { $0.failsWithSwitchRecordAlone = "T.Suite/other()" }
            let report = try lab.run()
            #expect(output.text.contains("switch pass stopped: T.Suite/other() failed"), "\(output.text)")
            #expect(!output.text.contains("placed by the tests that ran their switch"), "\(output.text)")
            let statuses = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0.status) })
            #expect(statuses == ["zero-one": .killed, "zero-two": .survived, "zero-three": .killed], "each runs every test; the odd switches fail adds()")
            #expect(report.mutants.allSatisfy { $0.coveredBy == nil })
        }
    }

    /// An interrupt during the switch pass: no verdict, the schema out of the copy, no record left.
    @Test func anInterruptDuringTheSwitchPassLeavesEveryMutantPendingAndTheCopyAsThePackage() throws {
        try withScratch { scratch in
            let output = OutputBox()
            // Runs of the test executable: the coverage pass's three, the schema's check, then the switch pass's.
            let (lab, configuration) = try exploreOutsideFunctions(in: scratch, output: output) { $0.interruptAtBinaryRun = 6 }
            #expect(throws: LabError.interrupted(signal: SIGINT)) { try lab.run() }
            #expect(output.text.contains("Measuring which tests run the switches"), "\(output.text)")
            let results = try ReportWriter.read(from: configuration.outputPath)
            #expect(results.mutants.map(\.status) == [.pending, .pending, .pending], "no verdict, and the reports are written")
            for left in [".mutate/switches", ".mutate/switches-together", "Sources/Tiny/" + Schema.supportFileName] {
                #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent(left).path), "\(left) is removed")
            }
            #expect(try String(contentsOf: configuration.scratchPath.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                == Self.source, "the schema is out of the copy")
        }
    }

    @Test func schemaMutantsTestedTwoAtATimeGetTheVerdictsOfOneAtATime() throws {
        func explore(jobs: Int) throws -> (statuses: [String: MutantStatus], runner: ScriptedRunner, output: String) {
            try withScratch { scratch in
                let output = OutputBox()
                let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: (1...6).map { "switch-\($0)" }, line: 4,
                                                      "        a + b", "        a - b", configureLab: { $0.jobs = jobs },
                                                      configure: { $0.meetsASecondSwitchedRun = true })
                let report = try lab.run()
                return (Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0.status) }), runner, output.text)
            }
        }
        let one = try explore(jobs: 1)
        let two = try explore(jobs: 2)
        #expect(one.statuses == ["switch-1": .killed, "switch-2": .survived, "switch-3": .killed,
                                 "switch-4": .survived, "switch-5": .killed, "switch-6": .survived], "\(one.output)")
        #expect(two.statuses == one.statuses)
        #expect(one.runner.mostSwitchedAtOnce == 1)
        #expect(two.runner.mostSwitchedAtOnce == 2, "two test processes at once")
        #expect(two.output.components(separatedBy: ": building and testing...").count == 7, "each mutant announced once")
        #expect(two.output.contains("progress 6/6 (100%), 3 of 6 detected (50.0%)"), "\(two.output)")
        #expect(!one.output.contains("Measuring which tests run the switches"), "the map placed every one: no switch pass")
    }

    /// Spare workers (let in while a core is idle) test more mutants at
    /// once beside the fixed ones, with the verdicts of one at a time.
    @Test func schemaMutantsTestedBySpareWorkersGetTheVerdictsOfOneAtATime() throws {
        let names = (1...6).map { "switch-\($0)" }
        func explore(spare: Int, jobs: Int = 1) throws -> (statuses: [String: MutantStatus], runner: ScriptedRunner, output: String) {
            try withScratch { scratch in
                let output = OutputBox()
                let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: names, line: 4,
                                                      "        a + b", "        a - b", configureLab: { $0.jobs = jobs },
                                                      configure: { $0.meetsASecondSwitchedRun = true })
                lab.spareWorkers = spare == 0 ? nil : SpareWorkers(count: spare, admit: { true }, poll: 0.001)
                let report = try lab.run()
                return (Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0.status) }), runner, output.text)
            }
        }
        let one = try explore(spare: 0)
        let spared = try explore(spare: 2)
        #expect(spared.statuses == one.statuses && one.statuses.count == 6, "\(spared.output)")
        #expect(one.runner.mostSwitchedAtOnce == 1)
        #expect((2...3).contains(spared.runner.mostSwitchedAtOnce), "the fixed worker and up to two spare ones at once")
        #expect(spared.output.contains("  1 mutant(s) tested at a time, up to 3 while a core is idle"), "\(spared.output)")
        #expect(!one.output.contains("while a core is idle"))
        #expect(spared.output.components(separatedBy: ": building and testing...").count == 7, "each mutant announced once")
        let wide = try explore(spare: 2, jobs: 6)
        #expect(wide.statuses == one.statuses)
        #expect(!wide.output.contains("while a core is idle"), "six mutants, six fixed workers: no spare one joins: \(wide.output)")
    }

    /// An interrupt while spare workers test mutants beside the fixed one
    /// stops them all: the run throws it, the schema is out of the copy,
    /// and the mutants no worker had begun stay pending.
    @Test func anInterruptStopsTheSpareWorkersToo() throws {
        let names = (1...6).map { "switch-\($0)" }
        func explore(interruptAt run: Int?) throws -> (lab: Lab, runner: ScriptedRunner, copied: String, error: (any Error)?) {
            // `run`: the mutants' test runs, counted from 1.
            try withScratch { scratch in
                let (lab, configuration, runner) = try exploreLab(in: scratch, output: OutputBox(), names: names, line: 4,
                                                                  "        a + b", "        a - b", configureLab: { $0.jobs = 1 },
                                                                  configure: { $0.interruptAtSwitchedRun = run })
                lab.spareWorkers = SpareWorkers(count: 2, admit: { true }, poll: 0.001)
                var error: (any Error)?
                do { _ = try lab.run() } catch let thrown { error = thrown }
                let copied = try String(contentsOf: configuration.scratchPath.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                return (lab, runner, copied, error)
            }
        }
        let whole = try explore(interruptAt: nil)
        #expect(whole.error == nil && whole.lab.report.mutants.allSatisfy { $0.status != .pending })
        // The first mutant's: at most the two spare workers' mutants began beside it.
        let stopped = try explore(interruptAt: 1)
        guard case .interrupted(let signal)? = stopped.error as? LabError else {
            Issue.record("expected the interrupt, not \(String(describing: stopped.error))")
            return
        }
        #expect(signal == SIGINT)
        #expect(stopped.copied == Self.source, "the schema is out of the copy")
        #expect(stopped.lab.report.mutants.filter { $0.status == .pending }.count >= 3, "\(stopped.lab.report.mutants.map(\.status))")
    }

    /// The gate's named mutants that change only function bodies are built
    /// once, together, as the baseline, each behind its switch: the suite
    /// proves the schema with every switch off, the coverage pass over it
    /// is read in the original's lines, and each runs by its switch. A
    /// mutant that changes a declaration is built on its own, and its log
    /// says why.
    @Test func namedMutantsOfFunctionBodiesRunByTheirSwitchInTheBaselinesBuild() throws {
        let (report, runner, output, logs) = try run(configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        #expect(output.contains("Building the unmutated package with the named mutants' schema (2 mutants in one build, attempt 1)"), "\(output)")
        #expect(output.contains("2 named mutants run by switch, 1 built on their own"), "\(output)")
        #expect(runner.buildLimits.count == 2, "the baseline with the schema, and the one mutant built on its own")
        #expect(runner.calls.first { $0.command == "test" }?.source.contains("__mutateActive(1)") == true, "the baseline's suite runs on the schema")
        #expect(byName["subtracts"]?.status == .killed)
        #expect(byName["subtracts"]?.killedBy == ["T.Suite/adds()"])
        #expect(byName["subtracts"]?.buildSeconds == 0, "no build of its own")
        #expect(byName["idle-two"]?.status == .noCoverage, "the pass over the schema, read in the original's lines, finds no test for idle")
        #expect(byName["zero-one"]?.status == .survived, "the whole suite, on its own build")
        #expect(runner.binaryRuns.dropFirst(3).first == ["T.Suite/adds()"], "its test, switched on")
        #expect(runner.binaryRuns.count == 5, "and every test for zero-one, which the map cannot place: \(runner.binaryRuns)")
        let subtracts = try String(contentsOf: logs.appendingPathComponent("subtracts.log"), encoding: .utf8)
        #expect(subtracts.contains("switched on in the mutant schema (MUTATE_SCHEMA_ID=1)"), "\(subtracts)")
        let zero = try String(contentsOf: logs.appendingPathComponent("zero-one.log"), encoding: .utf8)
        #expect(zero.contains("not in the named mutants' schema, so built on its own: it changes Sources/Tiny/Arithmetic.swift outside function bodies"),
                "\(zero)")
        let builds = runner.calls.filter { $0.command == "build" }.map(\.source)
        #expect(builds.last == Self.source.replacingOccurrences(of: "zero = 0", with: "zero = 1"),
                "its own build: the package's file with the patch, none of the schema's switches in it")
    }

    /// A mutant built on its own goes on top of the named mutants' schema:
    /// the file it changes is the package's with the patch, every other
    /// file keeps the schema (every switch off), so its build compiles only
    /// what it changed, not every module the schema touched.
    @Test func aMutantBuiltOnItsOwnKeepsTheSchemaInTheFilesItDoesNotChange() throws {
        let (report, runner, output, logs) = try run(
            files: ["Sources/Tiny/Limits.swift": Self.limits],
            mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b"), try mostTwo()],
            configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("1 named mutants run by switch, 1 built on their own"), "\(output)")
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        #expect(byName["subtracts"]?.status == .killed)
        #expect(byName["most-two"]?.status == .survived, "\(String(describing: byName["most-two"]))")
        let builds = runner.calls.filter { $0.command == "build" }.map(\.source)
        #expect(builds.count == 2, "the baseline with the schema, and most-two's own build")
        #expect(builds.last?.contains("__mutateActive(1)") == true, "Arithmetic.swift keeps the schema while most-two builds: \(builds)")
    }

    /// `most = 1` in `Limits.swift`, and a named mutant that makes it 2 (a declaration: built on its own).
    static let limits = "public enum Limits {\n    public static let most = 1\n}\n"
    func mostTwo() throws -> Mutant {
        try MutantFileParser.parse("""
            Mutant: most-two
            Description: most-two

            --- a/Sources/Tiny/Limits.swift
            +++ b/Sources/Tiny/Limits.swift
            @@ -2 +2 @@
            -    public static let most = 1
            +    public static let most = 2

            """, file: "most-two.patch")
    }

    /// Interrupted while a mutant built on its own runs its tests on top of
    /// the schema: the patched file goes back to the schema's version, then
    /// the schema comes out, so the copy is the package again.
    @Test func anInterruptDuringAMutantOnTopOfTheSchemaLeavesTheCopyAsThePackage() throws {
        try withScratch { scratch in
            let package = try package(in: scratch)
            try scratch.write("pkg/Sources/Tiny/Limits.swift", Self.limits)
            var configuration = LabConfiguration(packagePath: package)
            configuration.jobs = 1
            let runner = ScriptedRunner()
            runner.makesTestBinary = true
            let limits = configuration.scratchPath.appendingPathComponent("Sources/Tiny/Limits.swift")
            // The first run of the test executable once most-two is in the copy is interrupted.
            runner.onRun = { [unowned runner] in
                if runner.interruptAtBinaryRun == nil, (try? String(contentsOf: limits, encoding: .utf8))?.contains("most = 2") == true {
                    runner.interruptAtBinaryRun = runner.binaryLimits.count + 1
                }
            }
            let lab = Lab(configuration: configuration, mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b"), try mostTwo()],
                          runner: runner, print: { _ in })
            let llvm = try tools(in: scratch, copy: configuration.scratchPath)
            lab.findLLVM = { _ in llvm }
            lab.coverageWorkers = 1
            #expect(throws: LabError.interrupted(signal: SIGINT)) { try lab.run() }
            #expect(runner.interruptAtBinaryRun != nil, "most-two was applied and its tests started")
            let results = try ReportWriter.read(from: configuration.outputPath)
            #expect(results.mutants.map(\.status) == [.killed, .pending])
            #expect(try String(contentsOf: limits, encoding: .utf8) == Self.limits)
            #expect(try String(contentsOf: configuration.scratchPath.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                == Self.source, "the schema is out")
            #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent("Sources/Tiny/" + Schema.supportFileName).path))
        }
    }

    /// Each version of a file is parsed from a copy of its own: a mutant
    /// that makes a body longer is cut at its own body's end, not at the
    /// end another version's parse gave.
    @Test func eachMutantsVersionIsParsedFromACopyOfItsOwn() throws {
        let longer = try mutant("adds-nothing", line: 4, "        a + b", "        a + b + 0 * (a - b)")
        let (_, runner, output, logs) = try run(mutants: [longer, try mutant("idle-two", line: 8, "        1", "        2")],
                                                configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("2 named mutants run by switch"), "\(output)")
        let schema = try #require(runner.calls.first { $0.command == "test" }?.source)
        #expect(schema.contains("a + b + 0 * (a - b)\n") && schema.contains("__mutateActive(2)"), "\(schema)")
    }

    /// `swift` given as a script in a folder without `swiftc` (a wrapper,
    /// as `MUTATE_SWIFT` allows): the parse uses the compiler on PATH, and
    /// the schema is built as ever.
    @Test func aSwiftWrapperWithoutACompilerBesideItStillGetsTheSchema() throws {
        let (_, _, output, logs) = try run(configureLab: { configuration in
            configuration.schema = true
            configuration.swift = configuration.packagePath.appendingPathComponent("wrapper/swift").path
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("2 named mutants run by switch, 1 built on their own"), "\(output)")
    }

    /// A suite that fails on the schema with every switch off fails by the
    /// schema or by the package: the baseline runs again without it, and,
    /// green there, each mutant is built on its own.
    @Test func aSuiteTheSchemaAloneTurnsRedBuildsEachMutantOnItsOwn() throws {
        let source = Self.source.replacingOccurrences(of: "// adds", with: "// adds SWITCHED-OFF-FAILS")
        let (report, runner, output, logs) = try run(source: source, configureLab: { $0.schema = true })
        defer { try? FileManager.default.removeItem(at: logs) }
        let subtracts = try #require(report.mutants.first { $0.name == "subtracts" })
        #expect(subtracts.status == .killed, "\(output)")
        #expect(subtracts.buildSeconds > 0, "on its own build")
        #expect(report.mutants.first { $0.name == "idle-two" }?.status == .noCoverage)
        #expect(output.contains("the suite is not green with the named mutants' schema and every switch off"), "\(output)")
        #expect(runner.buildLimits.count == 5, "the schema, the package alone, then each mutant")
        #expect(runner.calls.filter { $0.command == "test" }.count == 3,
                "the baseline with the schema twice, then alone (zero-one's every test runs by the test executable)")
    }

    /// The suite fails once with the named mutants' schema (a test that
    /// fails only under load): it runs again, and the schema stays.
    @Test func aSuiteThatFailsOnceWithTheSchemaRunsAgainAndKeepsIt() throws {
        let source = Self.source.replacingOccurrences(of: "// adds", with: "// adds FLAKY-ONCE")
        let (report, runner, output, logs) = try run(source: source, configureLab: { $0.schema = true })
        defer { try? FileManager.default.removeItem(at: logs) }
        let subtracts = try #require(report.mutants.first { $0.name == "subtracts" })
        #expect(subtracts.status == .killed, "\(output)")
        #expect(subtracts.buildSeconds == 0, "by its switch")
        #expect(output.contains("the suite failed with the named mutants' schema and every switch off (failing: T.Suite/adds()): running it once more"),
                "\(output)")
        #expect(!output.contains("each mutant is built on its own"), "\(output)")
        #expect(runner.buildLimits.count == 2, "the schema's build, then zero-one's own (outside any function body)")
    }

    /// A lab over `package(in:)` whose scripted test executable is stopped
    /// by SIGINT at its `run`-th start.
    func interruptedLab(in scratch: Scratch, _ mutants: [Mutant], atBinaryRun run: Int, jobs: Int? = nil) throws -> (Lab, LabConfiguration) {
        var configuration = LabConfiguration(packagePath: try package(in: scratch))
        if let jobs { configuration.jobs = jobs }
        let runner = ScriptedRunner()
        runner.makesTestBinary = true
        runner.interruptAtBinaryRun = run
        let lab = Lab(configuration: configuration, mutants: mutants, runner: runner, print: { _ in })
        let llvm = try tools(in: scratch, copy: configuration.scratchPath)
        lab.findLLVM = { _ in llvm }
        lab.coverageWorkers = 1
        return (lab, configuration)
    }

    @Test func anInterruptDuringTheCoveragePassLeavesEveryMutantPendingAndNoProfileBehind() throws {
        try withScratch { scratch in
            // At the pass's second test.
            let (lab, configuration) = try interruptedLab(in: scratch, [try mutant("subtracts", line: 4, "        a + b", "        a - b")], atBinaryRun: 2)
            #expect(throws: LabError.interrupted(signal: SIGINT)) { try lab.run() }
            let results = try ReportWriter.read(from: configuration.outputPath)
            #expect(results.mutants.map(\.status) == [.pending], "no verdict, and the reports are written")
            for left in [".mutate/coverage", ".mutate/suite-profile"] {
                #expect(!FileManager.default.fileExists(atPath: configuration.scratchPath.appendingPathComponent(left).path), "\(left) is removed")
            }
            #expect(try String(contentsOf: configuration.scratchPath.appendingPathComponent("Sources/Tiny/Arithmetic.swift"), encoding: .utf8)
                == Self.source, "no mutant was applied")
        }
    }

    /// With `--all-tests` a mutant's run is not stopped at its first
    /// failure, but a run of the whole suite through `swift test` is still
    /// watched for a stall once the baseline's silences are known: a hung
    /// test stops it as a timeout on the baseline's figure for that test
    /// (its 0.1 s quiet x 3 + 0.2 s), long before the suite's own limit.
    @Test func withAllTestsAHungSwiftTestRunStillStopsOnceQuieterThanItsBaselineEverWas() throws {
        let zeroOne = try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1")
        let (report, runner, _, logs) = try run(allTests: true, mutants: [zeroOne],
                                                configure: { $0.suiteHang = true; $0.suiteQuiet = 0.1 },
                                                configureLab: { $0.stallConstant = 0.2 }, lab: { lab in
            // A module no test target links and no test ran: no plan for the test executable, its tests run through swift test.
            lab.testTargets = { _ in ["Nowhere"] }
            lab.mutatedModule = { _ in "Sources/Nowhere" }
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(runner.binaryRuns.count == 3, "the coverage pass's runs only: \(runner.binaryRuns)")
        #expect(runner.filters.last == #"^(Nowhere)\."#, "the mutant's run is swift test's: \(runner.filters)")
        #expect(runner.watched.last == true, "watched for a stall, though --all-tests lets every failure through")
        #expect(runner.hungRuns == [.timedOut], "stopped by the lab, not by the run's limit")
        let zero = try #require(report.mutants.first)
        #expect(zero.status == .timeout, "\(zero)")
        let reason = zero.reason ?? ""
        #expect(reason.hasPrefix("T.Suite/other() hung: no test started or ended for 0."), "\(reason)")
        #expect(reason.hasSuffix("the limit is 0.5s)"), "other()'s 0.1 s quiet in the baseline x 3 + 0.2, not its 0.05 s alone: \(reason)")
    }

    /// A crash in a run of the tests that reach a mutant names, as not run,
    /// the chosen tests it cut off: the suite's other tests were never to
    /// run for that mutant, so its report does not call them lost.
    @Test func aCrashInARunOfChosenTestsNamesOnlyTheChosenTestsItCutOff() throws {
        let (report, runner, _, logs) = try run(mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b")], configure: { runner in
            runner.reaches["T.Suite/other()"] = ["add"]
            runner.chosenCrash = true
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        let subtracts = try #require(report.mutants.first)
        #expect(subtracts.status == .killed && subtracts.killedBy == ["T.Suite/adds()"], "\(subtracts)")
        #expect(subtracts.reason == "crash: Tiny/Arithmetic.swift:4: Fatal error: boom while T.Suite/adds() ran", "\(subtracts.reason ?? "")")
        #expect(runner.binaryRuns.dropFirst(3).map(Set.init) == [["T.Suite/adds()", "T.Suite/other()"]],
                "after the pass, one run of its two covering tests: \(runner.binaryRuns)")
        #expect(subtracts.notRun == ["T.Suite/other()"],
                "the chosen test the crash cut off, not Other.Suite/unrelated(), which was never to run: \(String(describing: subtracts.notRun))")
    }

    /// Schema mutants the map cannot place, and that the switch pass
    /// could not place either (their switches ran only with the tests
    /// together), each run every test that could run their code by the test
    /// executable: with two jobs, two of them at once, as mutants with
    /// chosen tests do.
    @Test func schemaMutantsTheMapCannotPlaceRunTwoAtATimeByTheTestExecutable() throws {
        try withScratch { scratch in
            let output = OutputBox()
            let (lab, _, runner) = try exploreLab(in: scratch, output: output, names: ["zero-one", "zero-two"], line: 6,
                                                  "    public static let zero = 0", "    public static let zero = 1",
                                                  configureLab: { $0.jobs = 2 }, configure: { runner in
                runner.switchesUnderLoad = [1, 2]
                runner.meetsASecondSwitchedRun = true
            })
            let report = try lab.run()
            #expect(output.text.contains("0 placed by the tests that ran their switch, 0 whose switch no test ran (NoCoverage), "
                + "2 whose switch ran only with the tests together"), "\(output.text)")
            #expect(Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0.status) }) == ["zero-one": .killed, "zero-two": .survived],
                    "every test for each; adds() fails on odd switches: \(output.text)")
            #expect(runner.binaryRuns.suffix(2).map(Set.init) == [Set(Self.allTests), Set(Self.allTests)], "\(runner.binaryRuns)")
            #expect(runner.mostSwitchedAtOnce == 2, "two test processes at once")
        }
    }
}
