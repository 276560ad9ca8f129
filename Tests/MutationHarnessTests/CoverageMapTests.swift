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
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([12])], wholeFiles: ["Sources/New.swift"])),
                "a file it creates, even beside lines the map places")
        #expect(isUnknown(Self.map.reach(["Sources/A.swift": Self.lines([12], inserting: [21])])),
                "lines added outside every function, beside a line the map places")
        func why(_ reach: CoverageMap.Reach) -> String? { if case .unknown(let why) = reach { why } else { nil } }
        #expect(why(Self.map.reach(["Sources/D.swift": Self.lines([1]), "Sources/C.swift": Self.lines([1])]))
            == "no function of Sources/C.swift is in the coverage map (a file of declarations only, or not Swift)",
                "the files are read in path order: the reason names the first")
    }

    /// The tests that ran code of a folder (a mutant the map cannot place
    /// runs them after its module's test targets); none can be named when a
    /// function there ran only in an executable a test started.
    @Test func theTestsThatRanAFoldersCodeUnlessSomeOfItRanOnlyInAnExecutable() {
        #expect(Self.map.tests(reachingFilesUnder: "Sources") == ["T.S/slow()", "T.S/fast()", "T.S/b()"])
        var child = Self.function("child", "Sources/Tool/main.swift", 1...9)
        child.onlyInExecutable = true
        let map = CoverageMap(functions: Self.map.functions + [child], reached: Self.map.reached, seconds: Self.map.seconds)
        #expect(map.tests(reachingFilesUnder: "Sources/Tool") == nil)
        #expect(map.tests(reachingFilesUnder: "Sources") == nil)
        #expect(map.tests(reachingFilesUnder: "Source") == [], "a folder, not a prefix of one")
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
        // Equal means every part equal (a results file read back is compared so).
        #expect(CoverageMap(functions: Array(map.functions.dropLast()), reached: map.reached, seconds: map.seconds, suiteOnly: map.suiteOnly) != map)
        #expect(CoverageMap(functions: map.functions, reached: ["T.S/fast()": [0]], seconds: map.seconds, suiteOnly: map.suiteOnly) != map)
        #expect(CoverageMap(functions: map.functions, reached: map.reached, seconds: ["T.S/fast()": 0.1], suiteOnly: map.suiteOnly) != map)
        #expect(CoverageMap(functions: map.functions, reached: map.reached, seconds: map.seconds, suiteOnly: map.suiteOnly) == map)
        #expect(decoded.reach(["Sources/A.swift": Self.lines([12])]) == .tests(["T.S/fast()", "T.S/slow()"]))
    }
}

/// What the switch pass's records say of one mutant.
struct SwitchReachTests {
    /// `a` ran switches of m1, m2 and m5 alone, `b` of m2, `c` none; m3's ran only with the tests together.
    private static let found = SwitchReach(alone: ["a": ["m1", "m2", "m5"], "b": ["m2"], "c": []], together: ["m1", "m2", "m3"])

    /// The map's tests narrowed: those the pass ran without the switch go,
    /// those it did not run stay; none left keeps the map's tests when the
    /// switch ran elsewhere (together, or alone in a test the map does not give).
    @Test func theMapsTestsNarrowedToThoseThatRanTheSwitch() {
        let order: ([String]) -> [String] = { $0.sorted() }
        #expect(Self.found.narrowed("m1", tests: ["a", "b", "c"], order: order) == .tests(["a"]))
        #expect(Self.found.narrowed("m2", tests: ["c", "b", "d"], order: order) == .tests(["b", "d"]), "d unmeasured stays")
        #expect(Self.found.narrowed("m2", tests: ["a", "c", "d"], order: order) == .tests(["a", "d"]), "b is not the map's: not added")
        #expect(Self.found.narrowed("m5", tests: ["b", "c"], order: order) == .tests(["b", "c"]), "only a, not the map's, ran it: as they were")
        #expect(Self.found.narrowed("m3", tests: ["b", "c"], order: order) == .tests(["b", "c"]), "ran only together: the map's, as they were")
        #expect(Self.found.narrowed("m4", tests: ["b", "c"], order: order) == .noTest, "ran nowhere")
        #expect(Self.found.narrowed("m4", tests: ["b", "d"], order: order) == .tests(["d"]), "d was not measured")
        #expect(Self.found.narrowed("m4", tests: ["d", "e"], order: order) == .tests(["d", "e"]), "none measured")
    }

    /// A test is worth the pass when the map gives it at least the minimum
    /// of the mutants, each counted once.
    @Test func aTestIsMeasuredWhenItCoversEnoughMutants() {
        let covering = [["a", "b"], ["a", "a"], ["a", "c"], ["b"]]
        #expect(SwitchReach.worthMeasuring(covering, minimum: 3) == ["a"])
        #expect(SwitchReach.worthMeasuring(covering, minimum: 2) == ["a", "b"])
        #expect(SwitchReach.worthMeasuring(covering, minimum: 1) == ["a", "b", "c"])
        #expect(SwitchReach.worthMeasuring([], minimum: 1).isEmpty)
    }
}
