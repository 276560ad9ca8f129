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
}
