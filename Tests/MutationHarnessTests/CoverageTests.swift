import Foundation
import Testing
@testable import MutationHarness

/// The pieces that choose a mutant's tests: what a profile says ran, where
/// each function's code is, which tests reach a mutant's lines, and when the
/// map must say it cannot tell.
struct CoverageMapTests {
    private static func function(_ name: String, _ file: String, _ lines: ClosedRange<Int>, count: Int = 1) -> CoverageMap.Function {
        CoverageMap.Function(name: name, file: file, firstLine: lines.lowerBound, lastLine: lines.upperBound, count: count)
    }

    /// `A.swift`: `outer` 10-20 holds the closure `inner` 14-16; `idle` 30-35
    /// runs in no test; lines 1-9 and 21-29 are declarations.
    private static let map = CoverageMap(
        functions: [
            function("outer", "Sources/A.swift", 10...20),
            function("inner", "Sources/A.swift", 14...16),
            function("idle", "Sources/A.swift", 30...35, count: 0),
            function("other", "Sources/B.swift", 1...5),
        ],
        reached: ["T.S/slow()": [0, 1], "T.S/fast()": [0], "T.S/b()": [3], "T.S/none()": []],
        seconds: ["T.S/slow()": 2.5, "T.S/fast()": 0.1, "T.S/b()": 0.2, "T.S/none()": 0.01]
    )

    private static func lines(_ removed: [Int], inserting: [Int] = []) -> TouchedLines {
        TouchedLines(removed: removed, insertedBefore: inserting)
    }

    @Test func aLineRunsTheTestsOfEveryFunctionHoldingItFastestFirst() {
        #expect(Self.map.reach(["Sources/A.swift": Self.lines([12])]) == .tests(["T.S/fast()", "T.S/slow()"]))
        #expect(Self.map.reach(["Sources/A.swift": Self.lines([15])]) == .tests(["T.S/fast()", "T.S/slow()"]),
                "a closure's line is the outer function's too: a test that runs the outer one may reach it")
        #expect(Self.map.reach(["Sources/A.swift": Self.lines([10]), "Sources/B.swift": Self.lines([3])])
            == .tests(["T.S/fast()", "T.S/b()", "T.S/slow()"]), "every file's tests, once each")
        #expect(Self.map.reach(["Sources/A.swift": Self.lines([20])]) == .tests(["T.S/fast()", "T.S/slow()"]), "the last line is inside")
    }

    @Test func codeNoTestRunsIsNoCoverage() {
        #expect(Self.map.reach(["Sources/A.swift": Self.lines([32])]) == .noTest)
        #expect(Self.map.reach(["Sources/A.swift": Self.lines([], inserting: [33])]) == .noTest, "an insertion inside an idle function")
    }

    @Test func whatTheMapCannotPlaceRunsTheWholeSuite() {
        func isUnknown(_ reach: CoverageMap.Reach) -> Bool { if case .unknown = reach { true } else { false } }
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([5])])), "a declaration line: a static initialiser, a default argument")
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([12, 25])])), "one line outside is enough")
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([9])])), "the line before a function")
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([21])])), "the line after it")
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([], inserting: [21])])), "lines added after a closing brace")
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([], inserting: [10])])), "lines added before a function")
        #expect(Self.map.reach(["Sources/A.swift": Self.lines([], inserting: [11])]) == .tests(["T.S/fast()", "T.S/slow()"]))
        #expect(isUnknown(Self.map.reach(["Sources/C.swift": Self.lines([1])])), "a file with no function in the map")
        #expect(isUnknown(Self.map.reach([:], wholeFiles: ["Sources/New.swift"])), "a file the mutant creates")
        #expect(isUnknown(Self.map.reach([:])), "a mutant that changes nothing")
    }

    @Test func aLineThatRanOnlyInTheWholeSuiteRunsTheWholeSuite() {
        let map = CoverageMap(functions: Self.map.functions, reached: Self.map.reached, seconds: Self.map.seconds,
                              suiteOnly: ["Sources/A.swift": [17, 33]])
        func why(_ reach: CoverageMap.Reach) -> String? { if case .unknown(let why) = reach { why } else { nil } }
        #expect(why(map.reach(["Sources/A.swift": Self.lines([17])]))?.contains("Sources/A.swift:17 ran in the whole suite but in no test on its own") == true,
                "a branch of a function tests do run, taken only under load")
        #expect(why(map.reach(["Sources/A.swift": Self.lines([32, 33])])) != nil, "not NoCoverage: the suite ran it")
        #expect(why(map.reach(["Sources/A.swift": Self.lines([], inserting: [18])])) != nil, "lines added right after one")
        #expect(map.reach(["Sources/A.swift": Self.lines([16])]) == .tests(["T.S/fast()", "T.S/slow()"]), "the line before it is the map's")
        #expect(CoverageMap(functions: map.functions, reached: map.reached, seconds: map.seconds, suiteOnly: ["Sources/A.swift": [3]])
            .reach(["Sources/B.swift": Self.lines([3])]) == .tests(["T.S/b()"]), "only in its own file")
    }

    @Test func theMapSurvivesJSON() throws {
        let map = CoverageMap(functions: Self.map.functions, reached: Self.map.reached, seconds: Self.map.seconds,
                              suiteOnly: ["Sources/A.swift": [17]])
        let decoded = try JSONDecoder().decode(CoverageMap.self, from: JSONEncoder().encode(map))
        #expect(decoded == map)
        #expect(decoded != Self.map)
        #expect(decoded.reach(["Sources/A.swift": Self.lines([12])]) == .tests(["T.S/fast()", "T.S/slow()"]))
    }
}

struct LLVMCoverageTests {
    @Test func aProfileShowsAFunctionAsRunWhenAnyCounterIsAboveZero() {
        let text = """
            # IR level Instrumentation Flag
            :fe
            $s4Tiny3addyyF
            # Func Hash:
            0
            # Num Counters:
            2
            # Counter Values:
            0
            3

            /path/Sources/A.swift:$s4Tiny7privateyyF
            # Func Hash:
            12
            # Num Counters:
            1
            # Counter Values:
            1

            $s4Tiny4idleyyF
            # Func Hash:
            7
            # Num Counters:
            2
            # Counter Values:
            0
            0

            """
        #expect(LLVMCoverage.reachedFunctions(profileText: text) == ["$s4Tiny3addyyF", "$s4Tiny7privateyyF"],
                "a private function's file prefix is dropped, as llvm-cov export names it; the hash and count lines are not counters")
    }

    @Test func exportGivesEachFunctionsLinesInItsFileRelativeToThePackage() throws {
        let json = """
            {"data":[{"functions":[
              {"name":"f","count":4,"filenames":["/copy/Sources/A.swift"],
               "regions":[[10,5,12,6,4,0,0,0],[11,1,11,9,0,0,0,0],[40,1,90,1,0,1,0,0],[8,1,9,1,0,0,0,2]]},
              {"name":"derived","count":1,"filenames":["/elsewhere/runner.swift"],"regions":[[1,1,2,1,1,0,0,0]]},
              {"name":"empty","count":0,"filenames":["/copy/Sources/B.swift"],"regions":[[3,1,4,1,0,0,0,2]]}
            ]}]}
            """
        let functions = try LLVMCoverage.functions(exportJSON: Data(json.utf8), root: "/copy")
        #expect(functions == [CoverageMap.Function(name: "f", file: "Sources/A.swift", firstLine: 10, lastLine: 12, count: 4)],
                "code regions of the function's own file only; files outside the copy and functions without code are left out")
        #expect(throws: CoverageError.self) { try LLVMCoverage.functions(exportJSON: Data("[]".utf8), root: "/copy") }
    }

    @Test func codeTheSuiteRanButNoTestAloneIsFoundByRegion() throws {
        func export(_ counts: [Int], other: Int = 0) -> Data {
            Data("""
                {"data":[{"functions":[
                  {"name":"f","count":\(counts[0]),"filenames":["/copy/Sources/A.swift"],
                   "regions":[[10,5,20,6,\(counts[0]),0,0,0],[12,1,14,9,\(counts[1]),0,0,0],[16,1,16,9,\(counts[2]),0,0,0],[8,1,9,1,5,0,0,2]]},
                  {"name":"g","count":\(counts[3]),"filenames":["/copy/Sources/B.swift"],"regions":[[1,1,3,1,\(counts[3]),0,0,0]]},
                  {"name":"h","count":\(other),"filenames":["/elsewhere/C.swift"],"regions":[[1,1,3,1,\(other),0,0,0]]}
                ]}]}
                """.utf8)
        }
        let alone = try LLVMCoverage.exportedFunctions(export([3, 1, 0, 0]))
        let suite = try LLVMCoverage.exportedFunctions(export([9, 4, 2, 1], other: 5))
        #expect(LLVMCoverage.suiteOnlyLines(suite: suite, alone: alone, root: "/copy")
            == ["Sources/A.swift": [16], "Sources/B.swift": [1, 2, 3]],
            "a region a test alone also ran is not counted; a function no test alone ran counts whole; files outside the copy and gap regions are left out")
        #expect(LLVMCoverage.suiteOnlyLines(suite: alone, alone: alone, root: "/copy").isEmpty)
        let reshaped = try LLVMCoverage.exportedFunctions(Data("""
            {"data":[{"functions":[{"name":"f","count":3,"filenames":["/copy/Sources/A.swift"],"regions":[[10,5,20,6,3,0,0,0]]}]}]}
            """.utf8))
        #expect(LLVMCoverage.suiteOnlyLines(suite: suite, alone: reshaped, root: "/copy")["Sources/A.swift"] == Set(10...20),
                "regions that do not line up: the function counts whole")
    }

    @Test func theToolsBesideSwiftComeFirst() throws {
        try withScratch { scratch in
            for tool in ["toolchain/bin/swift", "toolchain/bin/llvm-profdata", "toolchain/bin/llvm-cov", "path/llvm-profdata", "path/llvm-cov"] {
                try scratch.writeExecutable(tool, "#!/bin/sh\n")
            }
            let toolchain = scratch.url.appendingPathComponent("toolchain/bin").path
            let path = scratch.url.appendingPathComponent("path").path
            #expect(LLVMCoverage.find(swift: "swift", path: "\(toolchain):\(path)")?.profdata == toolchain + "/llvm-profdata")
            #expect(LLVMCoverage.find(swift: toolchain + "/swift", path: path)?.cov == toolchain + "/llvm-cov")
            #expect(LLVMCoverage.find(swift: "swift", path: path)?.cov == path + "/llvm-cov", "no swift found: the PATH's tools")
            // `swift` a wrapper script: the tools beside the compiler on PATH, not an older LLVM's earlier on it.
            try scratch.write("wrapper/swift", "#!/bin/sh\n")
            try scratch.writeExecutable("toolchain/bin/swiftc", "#!/bin/sh\n")
            #expect(LLVMCoverage.find(swift: scratch.url.appendingPathComponent("wrapper/swift").path, path: "\(path):\(toolchain)")?.profdata
                == toolchain + "/llvm-profdata")
            try FileManager.default.removeItem(atPath: path + "/llvm-cov")
            #expect(LLVMCoverage.find(swift: "/nowhere/swift", path: path) == nil, "both tools or none")
        }
    }
}

struct TestSelectionTests {
    @Test func aFilterMatchesItsTestAndNoOtherWhoseNameItBegins() throws {
        let filter = try NSRegularExpression(pattern: TestBinary.filter(for: "M.Suite/adds(kind:)"))
        func matches(_ id: String) -> Bool { filter.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil }
        #expect(matches("M.Suite/adds(kind:)"))
        #expect(matches("M.Suite/adds(kind:)/Tests.swift:12:6"), "the runner's id ends with the test's place")
        #expect(!matches("M.Suite/adds(kind:)2"))
        #expect(!matches("XM.Suite/adds(kind:)"))
        #expect(!matches("M.Suite/addsXkind:)"), "parentheses and dots are literal")
    }

    @Test func theExecutableGetsOneFilterPerTestAndXCTestACommaList() {
        let binary = TestBinary(path: "/copy/.build/debug/PPackageTests.xctest")
        let arguments = binary.swiftTesting(["M.S/a()", "M.S/b()"], xunit: URL(fileURLWithPath: "/r/x.xml"), events: URL(fileURLWithPath: "/r/e.jsonl"))
        #expect(arguments == [binary.path, "--testing-library", "swift-testing", "--xunit-output", "/r/x.xml", "--event-stream-output-path", "/r/e.jsonl",
                              "--filter", #"^M\.S\/a\(\)(/|$)"#, "--filter", #"^M\.S\/b\(\)(/|$)"#])
        #expect(binary.xctest(["M.C/testA", "M.C/testB"]) == [binary.path, "M.C/testA,M.C/testB"])
    }

    @Test func theTestExecutableIsFoundOnlyAsAFile() throws {
        try withScratch { scratch in
            #expect(TestBinary.find(in: scratch.url) == nil)
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(".build/debug/BundlePackageTests.xctest/Contents"),
                                                    withIntermediateDirectories: true)
            #expect(TestBinary.find(in: scratch.url) == nil, "a bundle (macOS) is left to swift test")
            try scratch.write(".build/debug/PkgPackageTests.xctest", "#!/bin/sh\n")
            #expect(TestBinary.find(in: scratch.url) == nil, "not executable")
            chmod(scratch.url.appendingPathComponent(".build/debug/PkgPackageTests.xctest").path, 0o755)
            #expect(TestBinary.find(in: scratch.url)?.path == scratch.url.appendingPathComponent(".build/debug/PkgPackageTests.xctest").path)
        }
    }

    @Test func xctestResultsAreReadFromTheConsoleUnderTheRequestedIds() {
        let log = """
            Test Suite 'Selected tests' started at 2026-12-03 07:31:26.319
            Test Case 'LegacyTests.testAdds' started at 2026-12-03 07:31:26.372
            Test Case 'LegacyTests.testAdds' passed (0.001 seconds)
            Test Case 'LegacyTests.testSubtracts' started at 2026-12-03 07:31:26.372
            /x/LegacyTests.swift:9: error: LegacyTests.testSubtracts : XCTAssertEqual failed: ("1") is not equal to ("2")
            Test Case 'LegacyTests.testSubtracts' failed (0.002 seconds)
            Test Case 'OtherTests.testUnasked' passed (0.001 seconds)
            """
        let cases = XCTestConsole.cases(in: log, requested: ["M.LegacyTests/testAdds", "M.LegacyTests/testSubtracts"])
        #expect(cases.map(\.id) == ["M.LegacyTests/testAdds", "M.LegacyTests/testSubtracts"])
        #expect(cases.map(\.failed) == [false, true])
        let report = TestRunReport.read(xunitPath: URL(fileURLWithPath: "/nonexistent/x.xml"), log: log,
                                        xctestConsole: ["M.LegacyTests/testAdds", "M.LegacyTests/testSubtracts"])
        #expect(report.failures.first?.message == #"XCTAssertEqual failed: ("1") is not equal to ("2")"#, "the message from its error line")
    }

    @Test func whereAPatchLandsIsCountedInTheOriginalFile() throws {
        let diff = try DiffParser.parse("""
            --- a/F.swift
            +++ b/F.swift
            @@ -2,3 +2,4 @@
             b
            -c
            +C
             d
            +e2
            @@ -8,2 +9,3 @@
             h
            +h2
             i

            """)
        // The file gained two lines above the first hunk since the patch was written.
        let source = "x\ny\na\nb\nc\nd\ne\nf\ng\nh\ni\n"
        let touched = try #require(diff.touchedLines(reading: { _ in source }))
        #expect(touched.lines["F.swift"] == TouchedLines(removed: [5], insertedBefore: [7, 11]),
                "c (line 5) is replaced: no insertion; e2 goes before e (7), h2 before i (11)")
        #expect(touched.wholeFiles.isEmpty)
        #expect(diff.touchedLines(reading: { _ in "nothing alike\n" }) == nil, "a diff that does not apply places nothing")
    }
}

struct ProgressLineTests {
    @Test func saysHowFarTheRunIsItsKillRateAndTheTimeLeft() {
        func result(_ status: MutantStatus) -> MutantResult {
            MutantResult(name: "m", description: "", bug: nil, status: status, files: [], firstLine: 1, lastLine: 1, diff: "", replacement: "", log: "")
        }
        let done = [result(.killed), result(.survived), result(.timeout), result(.unviable), result(.noCoverage)]
        #expect(ConsoleFormat.progress(done, of: 20, elapsed: 50) == "  progress 5/20 (25%), 2 of 4 detected (50.0%), about 2m30s left")
        #expect(ConsoleFormat.progress([result(.stale)], of: 1, elapsed: 3) == "  progress 1/1 (100%), about 0s left")
        #expect(ConsoleFormat.duration(59.4) == "59s")
        #expect(ConsoleFormat.duration(3725) == "1h02m")
        #expect(ConsoleFormat.firstThree(["a", "b", "c", "d", "e"]) == "a, b, c and 2 more")
        #expect(ConsoleFormat.firstThree(["a", "b", "c"]) == "a, b, c")
    }

    /// A pass's line: at most every 10 s, how many tests have run and the
    /// time left at the pace so far.
    @Test func aPassSaysEveryTenSecondsHowManyTestsHaveRunAndTheTimeLeft() {
        let clock = Locked(Date(timeIntervalSince1970: 1_000))
        let lines = Locked<[String]>([])
        let progress = PassProgress("coverage", total: 10, now: { clock.withLock { $0 } }, print: { line in lines.withLock { $0.append(line) } })
        func finish(at seconds: Double) {
            clock.withLock { $0 = Date(timeIntervalSince1970: 1_000 + seconds) }
            progress.testFinished()
        }
        finish(at: 4)
        finish(at: 9.9)
        #expect(lines.withLock { $0 }.isEmpty, "nothing before 10 s")
        finish(at: 10)
        #expect(lines.withLock { $0 } == ["  coverage: 3 of 10 tests run on their own, about 23s left"], "10 s for 3: 7 more take about 23 s")
        finish(at: 19)
        #expect(lines.withLock { $0 }.count == 1, "the next line 10 s after the last")
        finish(at: 20)
        #expect(lines.withLock { $0 }.last == "  coverage: 5 of 10 tests run on their own, about 20s left")
    }
}

struct XCTestFailureWatcherTests {
    @Test func seesTheFirstFailedTestCaseWrittenAfterItsOffsetOnceTheLineIsComplete() throws {
        try withScratch { scratch in
            try scratch.write("log", "Test Case 'Old.testA' failed (0.1 seconds)\n")
            let log = scratch.url.appendingPathComponent("log")
            let offset = Int((try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0)
            let watcher = XCTestFailureWatcher(log, from: offset)
            #expect(!watcher.hasFailure(), "what the log held before the run is not this run's")
            LogFile.append("Test Case 'LegacyTests.testAdds' passed (0.001 seconds)\nTest Case 'LegacyTests.testSub' fail", to: log)
            #expect(!watcher.hasFailure(), "a passing case, and a line not yet complete")
            LogFile.append("ed (0.002 seconds)\n", to: log)
            #expect(watcher.hasFailure())
            #expect(watcher.hasFailure(), "and it stays seen")
        }
    }
}

struct ExecutableCoverageTests {
    /// Found by the identity benchmark: the fault child is killed with
    /// SIGKILL, writes no profile, and a mutant of its loop looked reached by
    /// no test while the whole suite killed it.
    @Test func codeOnlyInAnExecutableATestStartsRunsTheWholeSuite() {
        var child = CoverageMap.Function(name: "main", file: "Sources/Child/main.swift", firstLine: 1, lastLine: 30, count: 0)
        child.onlyInExecutable = true
        let map = CoverageMap(functions: [child], reached: ["T.S/kills()": []], seconds: [:])
        guard case .unknown(let why) = map.reach(["Sources/Child/main.swift": TouchedLines(removed: [27])]) else {
            Issue.record("code that runs only in a started program must not be NoCoverage")
            return
        }
        #expect(why.contains("runs only in an executable"))
    }
}
