import Foundation
import Testing
@testable import MutationHarness

/// What `IncrementalRun` takes from the results file: what changed since,
/// whether the baseline and the mutants found can be reused, and which
/// tests the coverage map still describes.
struct IncrementalRunTests {
    private static let baseline = ResultsFile.Baseline(tests: ["T.a()"], libraries: ["T.a()": .swiftTesting], testLocations: nil, testTimeoutSeconds: 10,
                                                       baselineBuildSeconds: 1, baselineTestSeconds: 1, coverageSeconds: nil)
    private static let explored = ResultsFile.Explored(paths: ["Sources"], points: [], compilerVersion: "6", warnings: [], targets: [])

    /// A file written for tree `t`, bytes `b`, options `c`, of two files.
    private static func previous(baseline: ResultsFile.Baseline? = baseline, coverage: CoverageMap? = nil) -> ResultsFile {
        ResultsFile(harness: "1", commit: "abc", savedAt: "now", tree: "t", common: "c", baseline: baseline, coverage: coverage,
                    explored: explored, verdicts: [:], files: ["Sources/A.swift": "a", "Sources/B.swift": "b"], bytesTree: "b")
    }

    /// A run of the package the file was written for, changed as `change` says.
    private static func run(_ previous: ResultsFile?, _ change: (inout IncrementalRun) -> Void = { _ in }) -> IncrementalRun {
        var run = IncrementalRun(file: URL(fileURLWithPath: "results.json"), previous: previous, verifyCount: 0)
        run.tree = "t"
        run.bytesTree = "b"
        run.common = "c"
        run.files = ["Sources/A.swift": "a", "Sources/B.swift": "b"]
        run.explorePaths = ["Sources"]
        change(&run)
        return run
    }

    @Test func whatChangedNamesTheFilesOrSaysWhatElseDid() {
        #expect(Self.run(nil).whatChanged(toolchain: "6") == "nothing was kept")
        #expect(!Self.run(nil).unchanged, "no file: nothing is as the file saw it")
        #expect(Self.run(Self.previous()) { $0.tree = "u" }.whatChanged(toolchain: "6") == "the package changed")
        #expect(Self.run(Self.previous()) { $0.tree = "u"; $0.files["Sources/B.swift"] = "b2"; $0.files["Sources/C.swift"] = "c" }
            .whatChanged(toolchain: "6") == "the package changed (2 file(s): Sources/B.swift, Sources/C.swift)")
        #expect(Self.run(Self.previous()) { $0.common = "d" }.whatChanged(toolchain: "6")
            == "the toolchain (now 6), the harness or the options changed")
    }

    /// The baseline is skipped, and the mutants taken from the file, only
    /// for the same package byte for byte, the same options and the same paths.
    @Test func theBaselineAndMutantsAreReusedOnlyForTheSamePackageAndPaths() {
        let same = Self.run(Self.previous())
        #expect(same.unchanged && same.canSkipBaseline && same.cachedExploration(paths: ["Sources"]) == Self.explored)
        #expect(same.cachedExploration(paths: ["Sources/A"]) == nil, "other paths")
        #expect(!Self.run(Self.previous(baseline: nil)).canSkipBaseline, "no baseline kept")
        let changes: [(inout IncrementalRun) -> Void] = [{ $0.tree = "u" }, { $0.common = "d" }, { $0.bytesTree = "a comment added" }]
        for change in changes {
            let changed = Self.run(Self.previous(), change)
            #expect(!changed.canSkipBaseline && changed.cachedExploration(paths: ["Sources"]) == nil)
        }
    }

    /// Mutants found by a harness that made their ids another way (a file
    /// from before the scheme had a number reads as nil) are found again:
    /// their ids are not the ones the ignore file and `--id` use now.
    @Test func mutantsWhoseIdsWereMadeAnotherWayAreFoundAgain() throws {
        var older = Self.previous()
        older.explored?.anchorScheme = nil
        #expect(Self.run(older).cachedExploration(paths: ["Sources"]) == nil && !Self.run(older).canSkipBaseline)
        older.explored?.anchorScheme = MutationFinder.anchorScheme - 1
        #expect(Self.run(older).cachedExploration(paths: ["Sources"]) == nil)
        let written = try JSONEncoder().encode(Self.explored)
        var object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["anchorScheme"] as? Int == MutationFinder.anchorScheme, "a new file says how its ids were made")
        object["anchorScheme"] = nil
        let read = try JSONDecoder().decode(ResultsFile.Explored.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(read.anchorScheme == nil, "a file written before the scheme had a number reads as none")
    }

    /// The map still describes a test whose every function lies in an
    /// unchanged file, with its seconds (0 when none were kept); nothing
    /// is known when the options changed or a changed file holds no function
    /// of the map (a test may read it as data).
    @Test func theMapDescribesOnlyTestsThatRanNoChangedFile() {
        let map = CoverageMap(functions: [.init(name: "fA", file: "Sources/A.swift", firstLine: 1, lastLine: 2, count: 1),
                                          .init(name: "fB", file: "Sources/B.swift", firstLine: 1, lastLine: 2, count: 1)],
                              reached: ["T.a()": [0], "T.b()": [1], "T.both()": [0, 1], "T.quick()": [0]], seconds: ["T.a()": 0.5, "T.both()": 2])
        let known = Self.run(Self.previous(coverage: map)) { $0.files["Sources/B.swift"] = "b2" }.knownCoverage()
        #expect(known.changedFiles == ["Sources/B.swift"])
        #expect(known.tests.mapValues(\.names) == ["T.a()": ["fA"], "T.quick()": ["fA"]])
        #expect(known.tests.mapValues(\.seconds) == ["T.a()": 0.5, "T.quick()": 0])

        #expect(Self.run(Self.previous(coverage: map)) { $0.common = "d"; $0.files["Sources/B.swift"] = "b2" }.knownCoverage().tests.isEmpty)
        #expect(Self.run(Self.previous(coverage: map)) { $0.files["Sources/Data.swift"] = "new" }.knownCoverage().tests.isEmpty)
        #expect(Self.run(Self.previous(coverage: map)).knownCoverage().tests.count == 4, "nothing changed: every test is known")
    }
}

extension IncrementalRunTests {
    /// A target at the package's root (an empty path) names its Swift files as they are, not under "/".
    @Test func aTargetAtThePackagesRootNamesItsFilesAsTheyAre() {
        let targets = [
            PackageTargets.Target(name: "R", c99name: "R", type: "library", moduleType: "SwiftTarget", path: "",
                                  sources: ["R.swift", "Sub/T.swift", "Info.plist"]),
            PackageTargets.Target(name: "S", c99name: "S", type: "library", moduleType: "SwiftTarget", path: "Sources/S", sources: ["S.swift"]),
        ]
        #expect(IncrementalRun.compiledSwiftFiles(targets) == ["R.swift", "Sub/T.swift", "Sources/S/S.swift"])
    }
}
