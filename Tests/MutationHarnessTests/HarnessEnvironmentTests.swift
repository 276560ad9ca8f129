import Testing
@testable import MutationHarness

/// What `mutate` reads from its environment.
struct HarnessEnvironmentTests {
    @Test func aCIVariableOfAnyValueMarksACIRun() {
        #expect(HarnessEnvironment(["CI": "true"]).isCI)
        #expect(HarnessEnvironment(["CI": ""]).isCI, "set but empty still names a CI machine")
        #expect(!HarnessEnvironment([:]).isCI)
        #expect(!HarnessEnvironment(["CONTINUOUS": "1"]).isCI)
    }

    @Test func theToolchainAndThePauseComeFromTheirVariables() {
        let plain = HarnessEnvironment([:])
        #expect(plain.swift == "swift" && plain.pausePhase == nil)
        let set = HarnessEnvironment(["MUTATE_SWIFT": "/opt/other/swift", "MUTATE_TEST_PAUSE": "sync"])
        #expect(set.swift == "/opt/other/swift" && set.pausePhase == "sync")
        #expect(plain.interruptGrace == 30, "a stuck run gets 30 s after Ctrl-C")
        #expect(HarnessEnvironment(["MUTATE_TEST_GRACE": "0.5"]).interruptGrace == 0.5)
        for unusable in ["never", "-1", "0", "inf"] {
            #expect(HarnessEnvironment(["MUTATE_TEST_GRACE": unusable]).interruptGrace == 30, "\(unusable): no grace at all would exit before the handler could clean up")
        }
    }
}
