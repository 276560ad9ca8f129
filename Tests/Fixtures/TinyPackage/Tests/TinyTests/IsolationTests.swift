import Foundation
import Testing

/// Under the harness, Foundation's idea of the home folder follows `HOME`
/// into the scratch jail (the harness sets `CFFIXED_USER_HOME` too).
struct IsolationTests {
    @Test func homeFollowsTheHarnessJail() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["MUTATE_RUNNING"] != nil, let home = environment["HOME"] else { return }
        #expect(home.contains("/.mutate/home"))
        #expect(NSHomeDirectory() == home)
        #expect(FileManager.default.homeDirectoryForCurrentUser.path == home)
    }
}
