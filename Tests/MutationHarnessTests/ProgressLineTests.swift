import Foundation
import Testing
@testable import MutationHarness

struct ProgressLineTests {
    @Test func saysHowFarTheRunIsItsKillRateAndTheTimeLeft() {
        func result(_ status: MutantStatus) -> MutantResult {
            MutantResult(name: "m", description: "", bug: nil, status: status, files: [], firstLine: 1, lastLine: 1, diff: "", replacement: "", log: "")
        }
        let done = [result(.killed), result(.survived), result(.timeout), result(.unviable), result(.noCoverage)]
        #expect(ConsoleFormat.progress(done, of: 20, elapsed: 50) == "  progress 5/20 (25%), 2 of 4 detected (50.0%), about 2m30s left")
        #expect(ConsoleFormat.progress([result(.stale)], of: 1, elapsed: 3) == "  progress 1/1 (100%), about 0s left")
        #expect(ConsoleFormat.duration(59.4) == "59s")
        #expect(ConsoleFormat.duration(3725) == "1h02m")
        #expect(ConsoleFormat.firstThree(["a", "b", "c", "d", "e"]) == "a, b, c and 2 more")
        #expect(ConsoleFormat.firstThree(["a", "b", "c"]) == "a, b, c")
        #expect(ConsoleFormat.firstThree(["a", "b", "c", "d"]) == "a, b, c and 1 more")
        #expect(ConsoleFormat.progress([], of: 3, elapsed: 0) == "  progress 0/3 (0%), about 0s left")
    }

    /// Each unit turns over at its boundary: 60 s is a minute, 3600 s an hour.
    @Test(arguments: [(59.4, "59s"), (59.6, "1m00s"), (60, "1m00s"), (125, "2m05s"), (3599, "59m59s"), (3600, "1h00m"), (3659, "1h00m"),
                      (3660, "1h01m"), (7199, "1h59m"), (7200, "2h00m")])
    func durationsTurnOverAtTheirBoundaries(seconds: Double, said: String) {
        #expect(ConsoleFormat.duration(seconds) == said)
    }

    /// A mutant's line keeps one blank after its status, however long the status.
    @Test func aLongStatusStillHasABlankAfterIt() {
        var result = ReportTests.sampleReport().mutants[2]
        result.status = .noCoverage
        #expect(ConsoleFormat.line(for: result, index: 3, of: 12).hasPrefix("[ 3/12] noCoverage lives  3.5s"))
        result.status = .killed
        #expect(ConsoleFormat.line(for: result, index: 3, of: 12).hasPrefix("[ 3/12] killed    lives  3.5s"))
    }

    /// A pass's line: at most every 10 s, how many tests have run and the
    /// time left at the pace so far.
    @Test func aPassSaysEveryTenSecondsHowManyTestsHaveRunAndTheTimeLeft() {
        let clock = Locked(Date(timeIntervalSince1970: 1_000))
        let lines = Locked<[String]>([])
        let progress = PassProgress("coverage", total: 10, now: { clock.withLock { $0 } }, print: { line in lines.withLock { $0.append(line) } })
        func finish(at seconds: Double) {
            clock.withLock { $0 = Date(timeIntervalSince1970: 1_000 + seconds) }
            progress.testFinished()
        }
        finish(at: 4)
        finish(at: 9.9)
        #expect(lines.withLock { $0 }.isEmpty, "nothing before 10 s")
        finish(at: 10)
        #expect(lines.withLock { $0 } == ["  coverage: 3 of 10 tests run on their own, about 23s left"], "10 s for 3: 7 more take about 23 s")
        finish(at: 19)
        #expect(lines.withLock { $0 }.count == 1, "the next line 10 s after the last")
        finish(at: 20)
        #expect(lines.withLock { $0 }.last == "  coverage: 5 of 10 tests run on their own, about 20s left")
    }
}
