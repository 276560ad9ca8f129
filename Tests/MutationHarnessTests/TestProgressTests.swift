import Foundation
import Testing
@testable import MutationHarness

struct TestProgressTests {
    private let start = Date(timeIntervalSince1970: 1_000)

    @Test func aRunStallsWhenNoTestStartsOrEndsForTheLongestAllowanceOfThoseRunning() {
        var progress = TestProgress()
        let allowance = ["slow": 8.0, "quick": 2.0]
        #expect(progress.stall(at: start + 100, allowance: { allowance[$0] ?? 0 }) == nil, "nothing running: nothing to stall")
        progress.started("quick", at: start)
        progress.started("slow", at: start + 1)
        #expect(progress.stall(at: start + 8.5, allowance: { allowance[$0] ?? 0 }) == nil, "the slow one may take 8 s")
        #expect(progress.stall(at: start + 9.5, allowance: { allowance[$0] ?? 0 })
            == TestProgress.Stall(test: "quick", quiet: 8.5, limit: 8), "the test running longest is named")
        progress.ended("slow", at: start + 9)
        #expect(progress.stall(at: start + 10.5, allowance: { allowance[$0] ?? 0 }) == nil, "an end is progress")
        #expect(progress.stall(at: start + 11.5, allowance: { allowance[$0] ?? 0 })?.limit == 2, "then only the quick one's allowance counts")
        progress.ended("quick", at: start + 12)
        #expect(progress.stall(at: start + 1_000, allowance: { allowance[$0] ?? 0 }) == nil)
        #expect(progress.quietWhileRunning == ["quick": 8, "slow": 8], "from the slow one's start to its end, both ran and none started or ended")
        progress.started("late", at: start + 100)
        progress.ended("late", at: start + 130)
        #expect(progress.quietWhileRunning == ["quick": 8, "slow": 8, "late": 30],
                "a silence with nothing running is no test's; one is only the running tests'")
    }

    /// A silence ends when a test starts as well as when one ends; a
    /// silence of no length is none; exactly the allowance is no stall.
    @Test func aStartEndsASilenceAndOnlyALongerOneStalls() {
        var progress = TestProgress()
        progress.started("a", at: start)
        progress.started("b", at: start + 10)
        #expect(progress.stall(at: start + 13, allowance: { _ in 3 }) == nil, "exactly the allowance is not longer than it")
        #expect(progress.stall(at: start + 13.5, allowance: { _ in 3 })?.test == "a")
        progress.ended("b", at: start + 11)
        progress.ended("a", at: start + 12)
        #expect(progress.quietWhileRunning == ["a": 10, "b": 1], "a ran alone 10 s before b started")
        var instant = TestProgress()
        instant.started("c", at: start)
        instant.ended("c", at: start)
        #expect(instant.quietWhileRunning.isEmpty, "no silence, no entry")
    }
}

struct TestRunWatcherTests {
    @Test func theEventStreamWatcherFollowsTestsButNotSuitesAndStillSeesFailures() throws {
        try withScratch { scratch in
            let stream = scratch.url.appendingPathComponent("events.jsonl")
            let watcher = EventStreamWatcher(stream)
            func event(_ kind: String, _ id: String, extra: String = "") -> String {
                #"{"kind":"event","payload":{"kind":"\#(kind)","testID":"\#(id)"\#(extra)}}"# + "\n"
            }
            let now = Date(timeIntervalSince1970: 5)
            try Data((#"{"kind":"test","payload":{"kind":"suite","id":"M.S"}}"# + "\n" + event("testStarted", "M.S")
                + event("testStarted", "M.S/a()/F.swift:1:1") + event("testStarted", "M.S/b()/F.swift:2:1")
                + event("testEnded", "M.S/a()/F.swift:1:1")).utf8).write(to: stream)
            watcher.poll(at: now)
            #expect(watcher.progress.running == ["M.S/b()": now], "the suite is not a test; a() ended")
            #expect(!watcher.sawFailure)
            LogFile.append(event("issueRecorded", "M.S/b()/F.swift:2:1", extra: #","issue":{"isFailure":true,"isKnown":false},"messages":[{"text":"the suite broke"}]"#),
                           to: stream)
            watcher.poll(at: now)
            #expect(watcher.sawFailure, "an issue whose text names a suite is still a failure")
        }
    }

    @Test func theXCTestWatcherFollowsTheConsoleByTheRequestedIds() throws {
        try withScratch { scratch in
            try scratch.write("log", "Test Case 'LegacyTests.testOld' started at 2026-12-03\n")
            let log = scratch.url.appendingPathComponent("log")
            let offset = Int((try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0)
            let watcher = XCTestFailureWatcher(log, from: offset, requested: ["M.LegacyTests/testA", "M.LegacyTests/testB"])
            let now = Date(timeIntervalSince1970: 5)
            LogFile.append("Test Case 'LegacyTests.testA' started at 2026-12-03 10:00:00.000\n"
                + "Test Case 'LegacyTests.testA' passed (0.001 seconds)\nTest Case 'LegacyTests.testB' started at 2026-12-03\n", to: log)
            watcher.poll(at: now)
            #expect(watcher.progress.running == ["M.LegacyTests/testB": now], "the earlier run's line is not read")
            #expect(!watcher.sawFailure)
            LogFile.append("Test Case 'LegacyTests.testB' failed (0.002 seconds)\n", to: log)
            watcher.poll(at: now)
            #expect(watcher.sawFailure && watcher.progress.running.isEmpty)
        }
    }

    /// Each look reads only what was written since the last one: a test
    /// that started before keeps its start, so a hung one still stalls.
    @Test func theXCTestWatcherReadsOnlyWhatIsNew() throws {
        try withScratch { scratch in
            try scratch.write("log", "")
            let log = scratch.url.appendingPathComponent("log")
            let watcher = XCTestFailureWatcher(log, from: 0, requested: ["M.LegacyTests/testA"])
            LogFile.append("Test Case 'LegacyTests.testA' started at 2026-12-03 10:00:00.000\n", to: log)
            let first = Date(timeIntervalSince1970: 5), later = Date(timeIntervalSince1970: 50)
            watcher.poll(at: first)
            watcher.poll(at: later)
            #expect(watcher.progress.running == ["M.LegacyTests/testA": first])
            #expect(watcher.progress.stall(at: later, allowance: { _ in 10 }) != nil, "45 s of silence is a stall")
        }
    }

    /// Only XCTest's own lines about a case start or end it: a line a test
    /// prints that looks like one, or another line about the case, does not.
    @Test func theXCTestWatcherReadsOnlyXCTestsCaseLines() throws {
        try withScratch { scratch in
            try scratch.write("log", "")
            let log = scratch.url.appendingPathComponent("log")
            let watcher = XCTestFailureWatcher(log, from: 0, requested: ["M.LegacyTests/testA", "M.LegacyTests/testB"])
            let now = Date(timeIntervalSince1970: 5)
            LogFile.append("Test Case 'LegacyTests.testA' started at 2026-12-03 10:00:00.000\n"
                + "Test Case 'LegacyTests.testA' says hello\n"
                + "Test Case: LegacyTests.testB' failed (0.002 seconds)\n", to: log)
            watcher.poll(at: now)
            #expect(watcher.progress.running == ["M.LegacyTests/testA": now], "a line about the case that is no end does not end it")
            #expect(!watcher.sawFailure, "a line printed by a test is no case")
        }
    }
}
