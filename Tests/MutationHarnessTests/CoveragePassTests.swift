import Foundation
import Testing
@testable import MutationHarness

/// The coverage pass itself, with two workers: a program a test starts
/// with an environment of its own writes its profile where any test's
/// program would (`default.profraw` in the copy), so it counts for every
/// test running when it is found, and for no test that had finished.
@Suite(.ownThread)
struct CoveragePassTests {
    /// Two XCTest tests, `T.Suite/testA` and `T.Suite/testB`, each run by
    /// `body` (on the worker that runs it) and then reported passed, with
    /// `add` in its profile.
    private final class TwoTests: CommandRunning, @unchecked Sendable {
        let body: @Sendable (_ test: String, _ root: URL) -> Void
        init(_ body: @escaping @Sendable (_ test: String, _ root: URL) -> Void) { self.body = body }

        func toolchainVersion(swift: String, environment: [String: String]) -> String? { nil }

        func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
                 stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult
        {
            let test = arguments[1]
            body(test, directory)
            if let profile = environment["LLVM_PROFILE_FILE"] {
                try Data(CoveragePassTests.profile(["add"]).utf8).write(to: URL(fileURLWithPath: profile.replacingOccurrences(of: "%p", with: "1")))
            }
            let console = "Suite." + (test.split(separator: "/").last.map(String.init) ?? test)
            LogFile.append("Test Case '\(console)' started\nTest Case '\(console)' passed (0.001 seconds)\n", to: log)
            return ProcessResult(termination: .exited(0), seconds: 0.05)
        }
    }

    /// A profile in `llvm-profdata merge -text` form that shows `functions` as run.
    static func profile(_ functions: [String]) -> String {
        functions.map { "\($0)\n# Func Hash:\n0\n# Num Counters:\n1\n# Counter Values:\n1\n" }.joined(separator: "\n")
    }

    /// Runs the pass over both tests with two workers; what each test
    /// reached, by function name. `now` is the progress line's clock,
    /// asked once at the start and once after each test has finished.
    private func pass(in scratch: Scratch, now: @escaping @Sendable () -> Date,
                      _ body: @escaping @Sendable (_ test: String, _ root: URL) -> Void) throws -> [String: Set<String>]
    {
        let map = try run(in: scratch, now: now, body)
        return map.reached.mapValues { Set($0.map { map.functions[$0].name }) }
    }

    /// The pass's map; `earlier`: what an earlier pass found (`--incremental`).
    private func run(in scratch: Scratch, earlier: CoveragePass.KnownCoverage = .init(), now: @escaping @Sendable () -> Date = Date.init,
                     _ body: @escaping @Sendable (_ test: String, _ root: URL) -> Void = { _, _ in }) throws -> CoverageMap
    {
        let root = scratch.url.appendingPathComponent("copy")
        try scratch.write("copy/Sources/Tiny/Arithmetic.swift", LabCoverageTests.source)
        try scratch.write("copy/.mutate/suite/1.profraw", Self.profile(["add", "idle"]))
        let pass = CoveragePass(binary: TestBinary(path: root.appendingPathComponent(".build/debug/TinyPackageTests.xctest").path),
                                llvm: try LabCoverageTests().tools(in: scratch, copy: root), runner: TwoTests(body), root: root,
                                folder: root.appendingPathComponent(".mutate/coverage"), suiteProfiles: root.appendingPathComponent(".mutate/suite"),
                                environment: [:], log: scratch.url.appendingPathComponent("coverage.log"), timeout: 30, print: { _ in },
                                workers: 2, now: now, earlier: earlier)
        return try pass.run([("T.Suite/testA", .xctest), ("T.Suite/testB", .xctest)])
    }

    /// With `--incremental`, the lines run only in the whole suite are found
    /// afresh in the files that changed and kept from the earlier pass in the
    /// others (whose tests were not run again); the log lists them by file.
    @Test func linesRunOnlyInTheWholeSuiteAreFoundAfreshOnlyInChangedFiles() throws {
        try withScratch { scratch in
            var earlier = CoveragePass.KnownCoverage()
            earlier.tests = ["T.Suite/testA": (names: [], seconds: 0.05)]
            earlier.changedFiles = ["Sources/Tiny/Arithmetic.swift"]
            earlier.suiteOnly = ["Sources/Other.swift": [5], "Sources/Tiny/Arithmetic.swift": [1]]
            // Only B runs again, and it reaches `add`: `idle` ran in the whole suite only.
            let map = try run(in: scratch, earlier: earlier)
            let idle = try #require(map.functions.first { $0.name == "idle" })
            #expect(map.suiteOnly["Sources/Other.swift"] == [5], "an unchanged file keeps the earlier lines: \(map.suiteOnly)")
            let fresh = try #require(map.suiteOnly["Sources/Tiny/Arithmetic.swift"], "\(map.suiteOnly)")
            #expect(!fresh.contains(1) && fresh.contains(idle.firstLine), "a changed file's lines are this pass's: \(fresh)")
            let log = try String(contentsOf: scratch.url.appendingPathComponent("coverage.log"), encoding: .utf8)
            let other = try #require(log.range(of: "  Sources/Other.swift: 5\n"), "\(log)")
            let changed = try #require(log.range(of: "  Sources/Tiny/Arithmetic.swift: "), "\(log)")
            #expect(other.lowerBound < changed.lowerBound, "listed by file: \(log)")
        }
    }

    /// Waits (up to 10 s) for `condition`: the tests meet at points of the
    /// pass, never after a sleep.
    private static func meet(_ condition: () -> Bool) {
        let met = waitUntil(10, condition)
        #expect(met, "the tests met within 10 s")
    }

    /// A program that test A started wrote its profile while B was running:
    /// both are credited with what it ran, since either could have started it.
    @Test func aStrayProfileCountsForEveryTestRunningWhenItIsFound() throws {
        try withScratch { scratch in
            let clock = Locked(0)
            let bEntered = Locked(false)
            let reached = try pass(in: scratch, now: { clock.withLock { $0 += 1 }; return Date() }) { test, root in
                if test == "T.Suite/testA" {
                    Self.meet { bEntered.value }
                    try? Data(Self.profile(["idle"]).utf8).write(to: root.appendingPathComponent("default.profraw"))
                } else {
                    bEntered.set(true)
                    Self.meet { clock.value >= 2 } // A has been measured, and its profiles read
                }
            }
            #expect(reached["T.Suite/testA"] == ["add", "idle"], "\(reached)")
            #expect(reached["T.Suite/testB"] == ["add", "idle"], "B was running when A's program was found: \(reached)")
        }
    }

    /// A test that has finished is no owner of a profile found later: the
    /// program that wrote it belongs to a test still running.
    @Test func aStrayProfileFoundAfterATestFinishedIsNotItsOwn() throws {
        try withScratch { scratch in
            let clock = Locked(0)
            let reached = try pass(in: scratch, now: { clock.withLock { $0 += 1 }; return Date() }) { test, root in
                guard test == "T.Suite/testB" else { return }
                Self.meet { clock.value >= 2 } // A has finished
                try? Data(Self.profile(["idle"]).utf8).write(to: root.appendingPathComponent("default.profraw"))
            }
            #expect(reached["T.Suite/testA"] == ["add"], "A had finished: \(reached)")
            #expect(reached["T.Suite/testB"] == ["add", "idle"], "\(reached)")
        }
    }
}

extension CoveragePassTests {
    /// The map holds the copy's own functions only: one the export places in
    /// a file outside the copy (a dependency's, say) is left out, though the
    /// check that every function the tests ran is known reads it.
    @Test func aFunctionInAFileOutsideTheCopyIsNoPartOfTheMap() throws {
        try withScratch { scratch in
            let root = scratch.url.appendingPathComponent("copy")
            try scratch.write("copy/Sources/Tiny/Arithmetic.swift", LabCoverageTests.source)
            try scratch.write("copy/.mutate/suite/1.profraw", Self.profile(["add", "idle"]))
            var llvm = try LabCoverageTests().tools(in: scratch, copy: root)
            // The stand-in's export with one function more, in a file outside the copy.
            try scratch.writeExecutable("tools/llvm-cov-wide", """
                #!/bin/sh
                '\(llvm.cov)' "$@" | sed 's#]}]}$#,{"name":"lib","count":1,"filenames":["/elsewhere/Lib.swift"],"regions":[[1,1,3,1,1,0,0,0]]}]}]}#'

                """)
            llvm.cov = scratch.url.appendingPathComponent("tools/llvm-cov-wide").path
            let pass = CoveragePass(binary: TestBinary(path: root.appendingPathComponent(".build/debug/TinyPackageTests.xctest").path),
                                    llvm: llvm, runner: TwoTests { _, _ in }, root: root,
                                    folder: root.appendingPathComponent(".mutate/coverage"), suiteProfiles: root.appendingPathComponent(".mutate/suite"),
                                    environment: [:], log: scratch.url.appendingPathComponent("coverage.log"), timeout: 30, print: { _ in },
                                    workers: 2)
            let map = try pass.run([("T.Suite/testA", .xctest), ("T.Suite/testB", .xctest)])
            #expect(map.functions.map(\.name).sorted() == ["add", "idle"], "\(map.functions)")
        }
    }
}

extension CoveragePassTests {
    /// Only the profiles kept for the tests are merged, not whatever else the
    /// pass folder holds when they are: here a test's folder that a program
    /// it left running wrote to again after the test was measured.
    @Test func onlyTheKeptProfilesAreMergedNotWhateverElseThePassFolderHolds() throws {
        try withScratch { scratch in
            let clock = Locked(0)
            let reached = try pass(in: scratch, now: { clock.withLock { $0 += 1 }; return Date() }) { test, root in
                guard test == "T.Suite/testB" else { return }
                Self.meet { clock.value >= 2 } // A has been measured, and its folder raw-0 removed
                let late = root.appendingPathComponent(".mutate/coverage/raw-0")
                try? FileManager.default.createDirectory(at: late, withIntermediateDirectories: true)
                try? Data(Self.profile(["idle"]).utf8).write(to: late.appendingPathComponent("99.profraw"))
            }
            #expect(reached == ["T.Suite/testA": ["add"], "T.Suite/testB": ["add"]], "\(reached)")
        }
    }
}

extension CoveragePassTests {
    /// With `--incremental`, an unchanged file keeps the earlier pass's
    /// judgement even when it found no line there run only in the whole
    /// suite: this pass, without the tests it did not run again, is not asked.
    @Test func anUnchangedFileKeepsTheEarlierPassesNoLinesRunOnlyInTheWholeSuite() throws {
        try withScratch { scratch in
            var earlier = CoveragePass.KnownCoverage()
            // A ran `idle` then and is not run again; only B runs, and it reaches `add` alone.
            earlier.tests = ["T.Suite/testA": (names: ["idle"], seconds: 0.05)]
            earlier.changedFiles = ["Sources/Other.swift"]
            let map = try run(in: scratch, earlier: earlier)
            #expect(map.suiteOnly.isEmpty, "Arithmetic.swift did not change: \(map.suiteOnly)")
        }
    }
}

extension CoveragePassTests {
    /// Two XCTest tests as the switch pass runs them, side by side:
    /// `T.Suite/testA` runs switch 1 and `T.Suite/testB` switch 2 (each
    /// written where `MUTATE_REACHED` says); neither passes before both have
    /// written theirs.
    private final class SideBySide: CommandRunning, @unchecked Sendable {
        let written = Locked(0)

        func toolchainVersion(swift: String, environment: [String: String]) -> String? { nil }

        func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
                 stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult
        {
            let test = arguments[1]
            if let record = environment[Schema.reachedVariable] {
                LogFile.append(test == "T.Suite/testA" ? "1\n" : "2\n", to: URL(fileURLWithPath: record))
            }
            let console = "Suite." + (test.split(separator: "/").last.map(String.init) ?? test)
            LogFile.append("Test Case '\(console)' started\nTest Case '\(console)' passed (0.001 seconds)\n", to: log)
            written.withLock { $0 += 1 }
            _ = waitUntil(10) { written.value == 2 }
            return ProcessResult(termination: .exited(0), seconds: 0.05)
        }
    }

    /// Tests the switch pass runs side by side each have a folder, and so a
    /// record, of their own: neither is said to have run the other's switch.
    @Test func testsSideBySideInTheSwitchPassKeepRecordsOfTheirOwn() throws {
        try withScratch { scratch in
            let alone = TestAlone(binary: TestBinary(path: scratch.url.appendingPathComponent("TinyPackageTests.xctest").path), runner: SideBySide(),
                                  root: scratch.url, environment: [:], log: scratch.url.appendingPathComponent("switches.log"), timeout: 30)
            let pass = SwitchPass(alone: alone, folder: scratch.url.appendingPathComponent(".mutate/switches"), names: [1: "one", 2: "two"],
                                  workers: 2, print: { _ in })
            let reached = try pass.run([("T.Suite/testA", .xctest), ("T.Suite/testB", .xctest)])
            #expect(reached == ["T.Suite/testA": ["one"], "T.Suite/testB": ["two"]], "\(reached)")
        }
    }
}
