import Foundation
import Testing
@testable import MutationHarness

struct ExecutableCoverageTests {
    /// Found by the identity benchmark: the fault child is killed with
    /// SIGKILL, writes no profile, and a mutant of its loop looked reached by
    /// no test while the whole suite killed it.
    @Test func codeOnlyInAnExecutableATestStartsRunsTheWholeSuite() {
        var child = CoverageMap.Function(name: "main", file: "Sources/Child/main.swift", firstLine: 1, lastLine: 30, count: 0)
        child.onlyInExecutable = true
        let map = CoverageMap(functions: [child], reached: ["T.S/kills()": []], seconds: [:])
        guard case .unknown(let why) = map.reach(["Sources/Child/main.swift": TouchedLines(removed: [27])]) else {
            Issue.record("code that runs only in a started program must not be NoCoverage")
            return
        }
        #expect(why.contains("runs only in an executable"))
    }
}
