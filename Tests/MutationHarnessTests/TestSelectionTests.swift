import Foundation
import Testing
@testable import MutationHarness

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
        // macOS names a case `-[Module.Class test]`; an id without a class is named by nothing.
        let mac = "Test Case '-[M.LegacyTests testAdds]' passed (0.001 seconds).\nTest Case '-[M.LegacyTests testSubtracts]' failed (0.002 seconds).\n"
        #expect(XCTestConsole.cases(in: mac, requested: ["M.LegacyTests/testAdds", "M.LegacyTests/testSubtracts"]).map { "\($0.id) \($0.failed)" }
            == ["M.LegacyTests/testAdds false", "M.LegacyTests/testSubtracts true"])
        #expect(XCTestConsole.consoleNames(of: ["testAdds", "M.LegacyTests/testAdds"])
            == ["LegacyTests.testAdds": "M.LegacyTests/testAdds", "-[M.LegacyTests testAdds]": "M.LegacyTests/testAdds"])
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

    /// A file the diff creates, deletes or renames is whole (the map cannot
    /// place it); an insertion at a hunk's very start goes before its line.
    @Test func wholeFilesAndAnInsertionThatStartsAHunk() throws {
        let created = try DiffParser.parse("--- /dev/null\n+++ b/New.swift\n@@ -0,0 +1 @@\n+x\n")
        #expect(created.touchedLines(reading: { _ in nil })?.wholeFiles == ["New.swift"])
        let deleted = try #require(try DiffParser.parse("--- a/Old.swift\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n").touchedLines(reading: { _ in "a\n" }))
        #expect(deleted.wholeFiles == ["Old.swift"] && deleted.lines.isEmpty)
        let renamed = try DiffParser.parse("--- a/Old.swift\n+++ b/New.swift\n@@ -1 +1 @@\n-a\n+b\n")
        let moved = try #require(renamed.touchedLines(reading: { $0 == "Old.swift" ? "a\n" : nil }))
        #expect(moved.wholeFiles == ["New.swift"])
        #expect(moved.lines["Old.swift"] == TouchedLines(removed: [1], insertedBefore: []))
        let top = try DiffParser.parse("--- a/F.swift\n+++ b/F.swift\n@@ -1 +1,2 @@\n+x\n a\n")
        #expect(top.touchedLines(reading: { _ in "a\n" })?.lines["F.swift"] == TouchedLines(removed: [], insertedBefore: [1]))
    }
}

/// Which covering tests run first: those of the suites named after the
/// mutated files.
struct OwnSuitesTests {
    static let tests = [
        "MutationHarnessTests.CapturedCommandTests/readsBoth()", "MutationHarnessTests.LabTests/runs()",
        "MutationHarnessTests.LabCoverageTests/Nested/deep()", "MutationHarnessTests.HarnessCommandTests/lab()",
        "AnalyticsTests.ABTests/short()", "MutationHarnessTests.CapturedCommand/bare()",
    ]

    @Test func theSuitesNamedAfterTheFileInTheOrderGiven() {
        #expect(OwnSuites.tests(Self.tests, forFiles: ["Sources/MutationHarness/Execution/CapturedCommand.swift"])
            == ["MutationHarnessTests.CapturedCommandTests/readsBoth()", "MutationHarnessTests.CapturedCommand/bare()"])
        #expect(OwnSuites.tests(Self.tests, forFiles: ["Sources/MutationHarness/Lab/Lab+Schema.swift"])
            == ["MutationHarnessTests.LabTests/runs()", "MutationHarnessTests.LabCoverageTests/Nested/deep()"],
                "the stem stops at `+`; a suite that only mentions it (HarnessCommandTests/lab) is not one")
        #expect(OwnSuites.tests(Self.tests, forFiles: ["Sources/A/Lab.swift", "Sources/B/CapturedCommand.swift"]).count == 4, "every file's suites")
        #expect(OwnSuites.tests(Self.tests, forFiles: ["Sources/X/AB.swift"]).isEmpty, "a stem under three letters matches nothing")
        #expect(OwnSuites.tests(["NoModuleSuite/test()"], forFiles: ["Sources/X/NoModuleSuite.swift"]).isEmpty, "an id without a module is no suite")
    }

    @Test func theStemIsTheNameBeforeItsExtensionAndAnyPlus() {
        #expect(OwnSuites.stem(of: "Sources/Tiny/Lab+Schema.swift") == "Lab")
        #expect(OwnSuites.stem(of: "Arithmetic.swift") == "Arithmetic")
        #expect(OwnSuites.stem(of: "Sources/X/ABC.swift") == "ABC")
        #expect(OwnSuites.stem(of: "Sources/X/AB.swift") == nil)
        #expect(OwnSuites.stem(of: "Sources/X/+Lab.swift") == nil)
        #expect(OwnSuites.stem(of: "Sources/CCapture/Capture.c") == "Capture.c", "only `.swift` is cut: another file keeps its whole name")
    }
}

/// A mutant's covering tests in two waves: the fastest second of them
/// alone first, then the rest.
struct TestWavesTests {
    @Test func theFirstWaveIsTheFastestSecondOfTestsAndTheSecondTheRest() {
        let seconds = ["a": 0.2, "b": 0.3, "c": 0.5, "d": 0.9, "e": 40]
        let tests = ["a", "b", "c", "d", "e"]
        // 0.2 + 0.3 + 0.5 reaches the second: c is the first wave's last.
        #expect(TestWaves.split(tests, seconds: { seconds[$0]! }) == [["a", "b", "c"], ["d", "e"]])
        #expect(TestWaves.split(tests, seconds: { seconds[$0]! }, firstBudget: 0.6) == [["a", "b", "c"], ["d", "e"]], "the test that reaches the budget is in")
        #expect(TestWaves.split(tests, seconds: { seconds[$0]! }, firstBudget: 0.5) == [["a", "b"], ["c", "d", "e"]])
        #expect(TestWaves.split(tests, seconds: { seconds[$0]! }, firstBudget: 100) == [tests], "all within the budget: one wave")
        #expect(TestWaves.split(["e", "a"], seconds: { seconds[$0]! }) == [["e"], ["a"]], "a test past the budget is a wave of its own")
    }

    @Test func everyTestIsInOneWaveInTheOrderGivenAndNoWaveIsEmpty() {
        let tests = (0..<200).map { "t\($0)" }
        for budget in [-1, 0.0, 0.01, 0.5, 3, 1_000] {
            let waves = TestWaves.split(tests, seconds: { Double($0.dropFirst())! / 100 }, firstBudget: budget)
            #expect(Array(waves.joined()) == tests)
            #expect(!waves.contains { $0.isEmpty } && waves.count <= 2)
        }
        #expect(TestWaves.split(tests, seconds: { Double($0.dropFirst())! / 100 }, firstBudget: 0).first == ["t0", "t1"],
                "a budget of nothing is a millisecond: t0 takes none, t1 reaches it")
        #expect(TestWaves.split([], seconds: { _ in 1 }).isEmpty)
        #expect(TestWaves.split(["a", "b"], seconds: { _ in 0 }) == [["a", "b"]], "tests of no measured time: one wave")
        #expect(TestWaves.split(["a", "b"], seconds: { _ in -1 }) == [["a", "b"]], "a negative time counts as none")
    }
}

/// The tests that killed mutants of each file, the latest first.
struct LearnedKillersTests {
    @Test func theLatestKillersOfAFileComeFirstEachOnceAndAtMostFour() {
        let learned = LearnedKillers()
        #expect(learned.tests(among: ["a"], for: ["F.swift"]).isEmpty)
        for test in ["a", "b", "a", "c", "d", "e"] { learned.note(test, killedAMutantOf: ["F.swift"]) }
        let all = ["a", "b", "c", "d", "e", "f"]
        #expect(learned.tests(among: all, for: ["F.swift"]) == ["e", "d", "c", "a"], "b, the oldest of five, is forgotten")
        #expect(learned.tests(among: ["a", "c"], for: ["F.swift"]) == ["c", "a"], "only the tests given")
        #expect(learned.tests(among: all, for: ["G.swift"]).isEmpty, "another file learned nothing")
        learned.note("f", killedAMutantOf: ["F.swift", "G.swift"])
        #expect(learned.tests(among: all, for: ["G.swift", "F.swift"]) == ["f", "e", "d", "c"], "a test of both files once")
    }

    /// Only the learned killers that fit together in a first wave's second
    /// run first: a slow one waits for its own wave (on this package, the
    /// learned runs that held a test of over a second killed 16 of 115).
    @Test func theKillersRunFirstAreThoseThatFitInTheBudgetInTheirOrder() {
        let seconds = ["slow": 14.0, "half": 0.5, "third": 0.3, "fifth": 0.2, "more": 0.01, "unknown": 0, "odd": -1]
        let within = { (tests: [String], budget: Double) in LearnedKillers.withinBudget(tests, seconds: { seconds[$0] ?? 0 }, budget: budget) }
        #expect(within(["slow", "half", "third", "fifth", "more"], 1) == ["half", "third", "fifth"],
                "14 s is over, then 0.5 + 0.3 + 0.2 is exactly 1 s and 0.01 more is not")
        #expect(within(["half", "slow", "third"], 1) == ["half", "third"], "one over the budget does not stop the others")
        #expect(within(["unknown", "odd", "half"], 0.5) == ["unknown", "odd", "half"], "an unknown or negative time counts as none")
        #expect(within(["odd", "half", "third"], 0.5) == ["odd", "half"], "a negative time frees no room for another")
        #expect(within(["half"], 0.4).isEmpty && within([], 1).isEmpty)
        #expect(LearnedKillers.budget == TestWaves.firstBudget, "a first wave's worth")
    }
}
