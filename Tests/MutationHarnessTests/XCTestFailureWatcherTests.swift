import Foundation
import Testing
@testable import MutationHarness

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
