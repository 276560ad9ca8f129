import Foundation
import Testing
@testable import MutationHarness

/// The lab with a coverage pass, driven by a scripted runner (a test
/// executable that says what each test reaches) and stand-in LLVM tools.
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

    private func mutant(_ name: String, line: Int, _ old: String, _ new: String) throws -> Mutant {
        try MutantFileParser.parse("""
            Mutant: \(name)
            Description: \(name)

            --- a/Sources/Tiny/Arithmetic.swift
            +++ b/Sources/Tiny/Arithmetic.swift
            @@ -\(line) +\(line) @@
            -\(old)
            +\(new)

            """, file: "\(name).patch")
    }

    /// Stand-ins: `llvm-profdata` concatenates the text profiles the scripted
    /// tests wrote; `llvm-cov export` prints the two functions at the copy's path.
    private func tools(in scratch: Scratch, copy: URL) throws -> LLVMCoverage {
        let file = copy.appendingPathComponent("Sources/Tiny/Arithmetic.swift").path
        let export = #"{"data":[{"functions":["#
            + #"{"name":"add","count":1,"filenames":["\#(file)"],"regions":[[2,55,5,6,1,0,0,0]]},"#
            + #"{"name":"idle","count":0,"filenames":["\#(file)"],"regions":[[7,38,9,6,0,0,0,0]]}]}]}"#
        try scratch.write("tools/export.json", export)
        try scratch.write("tools/llvm-profdata", """
            #!/bin/sh
            # merge -sparse [-text] -o OUT FILE...
            shift 2
            if [ "$1" = -text ]; then shift 3; cat "$@"; else out=$2; shift 2; cat "$@" > "$out"; fi

            """)
        try scratch.write("tools/llvm-cov", "#!/bin/sh\ncat '\(scratch.url.appendingPathComponent("tools/export.json").path)'\n")
        for tool in ["llvm-profdata", "llvm-cov"] { chmod(scratch.url.appendingPathComponent("tools/\(tool)").path, 0o755) }
        return LLVMCoverage(profdata: scratch.url.appendingPathComponent("tools/llvm-profdata").path,
                            cov: scratch.url.appendingPathComponent("tools/llvm-cov").path)
    }

    private func run(allTests: Bool) throws -> (report: LabReport, runner: ScriptedRunner, output: String, logs: URL) {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\n")
            try scratch.write("pkg/Sources/Tiny/Arithmetic.swift", Self.source)
            try scratch.write("pkg/mutants/.keep", "")
            let package = scratch.url.appendingPathComponent("pkg")
            var configuration = LabConfiguration(packagePath: package)
            configuration.stopAtFirstFailure = !allTests
            let runner = ScriptedRunner()
            runner.makesTestBinary = true
            let output = OutputBox()
            let lab = Lab(configuration: configuration, mutants: [
                try mutant("subtracts", line: 4, "        a + b", "        a - b"),
                try mutant("idle-two", line: 8, "        1", "        2"),
                try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1"),
            ], runner: runner, print: { output.append($0) })
            let llvm = try tools(in: scratch, copy: configuration.scratchPath)
            lab.findLLVM = { _ in llvm }
            lab.coverageWorkers = 1
            let report = try lab.run()
            let logs = configuration.outputPath.appendingPathComponent("logs")
            let saved = scratch.url.deletingLastPathComponent().appendingPathComponent("kept-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: logs, to: saved)
            return (report, runner, output.text, saved)
        }
    }

    @Test func eachMutantRunsTheTestsThatReachItNoneOrTheWholeSuite() throws {
        let (report, runner, output, logs) = try run(allTests: false)
        defer { try? FileManager.default.removeItem(at: logs) }
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })

        #expect(output.contains("Measuring which tests reach which code (3 tests, each on its own)"), "\(output)")
        #expect(output.contains("1 mutant(s) run only the tests that reach them, 1 reached by no test (NoCoverage), 1 the whole suite"), "\(output)")
        #expect(Set(runner.binaryRuns.prefix(3)) == [["T.Suite/adds()"], ["T.Suite/other()"], ["Other.Suite/unrelated()"]],
                "the pass runs each test alone: \(runner.binaryRuns)")
        #expect(runner.binaryRuns.dropFirst(3) == [["T.Suite/adds()"]], "then the one mutant with tests runs only its test")

        #expect(byName["subtracts"]?.status == .killed)
        #expect(byName["subtracts"]?.coveredBy == ["T.Suite/adds()"])
        #expect(byName["subtracts"]?.killedBy == ["T.Suite/adds()"])
        #expect(runner.watched.last == true, "its run stops at the first failure")

        #expect(byName["idle-two"]?.status == .noCoverage)
        #expect(byName["idle-two"]?.testSeconds == 0 && (byName["idle-two"]?.buildSeconds ?? 0) > 0,
                "built (a named mutant that does not compile is still found), no test run")
        #expect(byName["idle-two"]?.reason == "no test runs the code it changes")

        #expect(byName["zero-one"]?.status == .survived, "the whole suite ran for it, and passed")
        #expect(byName["zero-one"]?.coveredBy == nil)
        let zeroLog = try String(contentsOf: logs.appendingPathComponent("zero-one.log"), encoding: .utf8)
        #expect(zeroLog.contains("the whole suite runs for this mutant: Sources/Tiny/Arithmetic.swift:6 is outside every function"), "\(zeroLog)")
        #expect(runner.calls.filter { $0.command == "test" }.count == 2, "swift test ran for the baseline and for zero-one only")

        #expect(report.coverageSeconds != nil)
        #expect(report.score.map { Int($0.rounded()) } == 33, "noCoverage and survived both count as missed: 1 of 3")
    }

    @Test func allTestsLetsEveryCoveringTestFinish() throws {
        let (report, runner, _, logs) = try run(allTests: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(report.mutants.first { $0.name == "subtracts" }?.status == .killed)
        #expect(runner.watched.allSatisfy { !$0 }, "no run is stopped early: \(runner.watched)")
    }
}
