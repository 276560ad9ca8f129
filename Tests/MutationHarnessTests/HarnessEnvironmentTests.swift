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
        #expect(HarnessEnvironment(["MUTATE_TEST_GRACE": "never"]).interruptGrace == 30 && HarnessEnvironment(["MUTATE_TEST_GRACE": "-1"]).interruptGrace == 30)
    }
}
