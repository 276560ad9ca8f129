import Foundation
import Testing
@testable import MutationHarness

/// The working folder of the coverage pass and the switch pass.
struct PassFolderTests {
    /// What an earlier pass left (cut short, say) is gone: a stale profile
    /// would count as a test's.
    @Test func aPassStartsFromAnEmptyFolderWhateverWasThere() throws {
        try withScratch { scratch in
            try scratch.write("copy/.mutate/coverage/alone/0.profdata", "stale")
            let folder = scratch.url.appendingPathComponent("copy/.mutate/coverage")
            try PassFolder.makeEmpty(folder)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

            let fresh = scratch.url.appendingPathComponent("new/.mutate/switches")
            try PassFolder.makeEmpty(fresh)
            #expect(try FileManager.default.contentsOfDirectory(atPath: fresh.path).isEmpty, "made with its parents")
        }
    }

    @Test func aFolderThatCannotBeMadeStopsThePassSayingWhy() throws {
        try withScratch { scratch in
            try scratch.write("file", "")
            let folder = scratch.url.appendingPathComponent("file/pass")
            let error = #expect(throws: CoverageError.self) { try PassFolder.makeEmpty(folder) }
            #expect(error?.reason.hasPrefix("cannot create \(folder.path): ") == true, "\(String(describing: error?.reason))")
        }
    }
}

/// A test run on its own must pass with nothing else failing: a runner
/// that exits 0 whatever its tests did does not make a failure a pass.
struct TestAloneTests {
    private struct ExitsZero: CommandRunning {
        func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
                 stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult {
            ProcessResult(termination: .exited(0), seconds: 0.1)
        }

        func toolchainVersion(swift: String, environment: [String: String]) -> String? { nil }
    }

    @Test func aTestAloneWhoseRunReportsAnotherFailureIsRefusedThoughItExitedZero() throws {
        try withScratch { scratch in
            try scratch.write("run/test-swift-testing.xml", #"<testsuites><testsuite name="T"><testcase classname="T.S" name="a()" time="0.01"/>"#
                + #"<testcase classname="T.S" name="b()" time="0.01"><failure message="boom"/></testcase></testsuite></testsuites>"#)
            let alone = TestAlone(binary: TestBinary(path: "/none/TPackageTests.xctest"), runner: ExitsZero(), root: scratch.url,
                                  environment: [:], log: scratch.url.appendingPathComponent("pass.log"), timeout: 10)
            let error = #expect(throws: CoverageError.self) {
                try alone.run(("T.S/a()", .swiftTesting), in: scratch.url.appendingPathComponent("run"), extra: [:])
            }
            #expect(error?.reason.hasPrefix("T.S/a() failed (exited(0)) when it ran on its own") == true, "\(String(describing: error))")
        }
    }
}

extension TestAloneTests {
    /// Ends as `termination` and keeps the arguments it was started with.
    private final class Records: CommandRunning {
        let termination: ProcessTermination
        var arguments: [String] = []

        init(_ termination: ProcessTermination = .exited(0)) { self.termination = termination }

        func run(_ arguments: [String], in directory: URL, environment: [String: String], log: URL, timeout: Double?,
                 stopWhen: (() -> ProcessTermination?)?) throws -> ProcessResult {
            self.arguments = arguments
            return ProcessResult(termination: termination, seconds: 0.1)
        }

        func toolchainVersion(swift: String, environment: [String: String]) -> String? { nil }
    }
}

extension TestAloneTests {
    /// A test alone killed at its time limit is said to have run past it,
    /// not to have failed or not to have run.
    @Test func aTestAloneKilledAtItsTimeLimitIsSaidToHaveRunPastIt() throws {
        try withScratch { scratch in
            let alone = TestAlone(binary: TestBinary(path: "/none/TPackageTests.xctest"), runner: Records(.timedOut), root: scratch.url,
                                  environment: [:], log: scratch.url.appendingPathComponent("pass.log"), timeout: 10)
            let error = #expect(throws: CoverageError.self) {
                try alone.run(("T.S/a()", .swiftTesting), in: scratch.url.appendingPathComponent("run"), extra: [:])
            }
            #expect(error?.reason.hasPrefix("T.S/a() ran past its time limit when it ran on its own") == true, "\(String(describing: error))")
        }
    }
}

extension TestAloneTests {
    /// A Swift Testing test alone writes its event stream into its run's
    /// folder, as `events.jsonl`: never over the folder itself.
    @Test func aSwiftTestingTestAloneWritesItsEventStreamIntoItsFolder() throws {
        try withScratch { scratch in
            try scratch.write("run/test-swift-testing.xml",
                              #"<testsuites><testsuite name="T"><testcase classname="T.S" name="a()" time="0.01"/></testsuite></testsuites>"#)
            let runner = Records()
            let alone = TestAlone(binary: TestBinary(path: "/none/TPackageTests.xctest"), runner: runner, root: scratch.url,
                                  environment: [:], log: scratch.url.appendingPathComponent("pass.log"), timeout: 10)
            let folder = scratch.url.appendingPathComponent("run")
            _ = try alone.run(("T.S/a()", .swiftTesting), in: folder, extra: [:])
            let flag = try #require(runner.arguments.firstIndex(of: "--event-stream-output-path"), "\(runner.arguments)")
            #expect(runner.arguments.dropFirst(flag + 1).first == folder.appendingPathComponent("events.jsonl").path, "\(runner.arguments)")
        }
    }
}
