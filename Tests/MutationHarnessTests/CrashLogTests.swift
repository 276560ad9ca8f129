import Testing
@testable import MutationHarness

/// Reading a crashed test process's log: the message a report shows, the
/// signal, the XCTest case whose process died, and the crashed thread's frames.
struct CrashLogTests {
    @Test func theFirstRuntimeMessageIsTheOneReported() {
        let log = """
            Tiny/Arithmetic.swift:4: Precondition failed: lock() failed
            Tiny/Other.swift:9: Fatal error: a later echo of the failure
            *** Signal 4: Backtracing from 0x1234... done ***
            """
        let crash = CrashLog(log: log)
        #expect(crash.message == "Tiny/Arithmetic.swift:4: Precondition failed: lock() failed")
        #expect(crash.signal == 4)
        #expect(crash.summary == "Tiny/Arithmetic.swift:4: Precondition failed: lock() failed (signal 4)")
    }

    @Test(arguments: [
        ("Process '/p/.build/debug/TinyPackageTests.xctest Tiny.ArithmeticTests/testAdds' exited with unexpected signal code 4",
         ["Tiny.ArithmeticTests/testAdds"]),
        ("Process '/home/ci/my project/.build/debug/TinyPackageTests.xctest Tiny.ArithmeticTests/testAdds' exited with unexpected signal code 4",
         ["Tiny.ArithmeticTests/testAdds"]),
        ("Process '/home/ci/my project/.build/debug/TinyPackageTests.xctest' exited with unexpected signal code 4", []),
        ("Process '/p/.build/debug/TinyPackageTests.xctest --list-tests' exited with unexpected signal code 4", []),
    ])
    func theCrashedXCTestIsTheLastWordOfTheProcessLine(line: String, tests: [String]) {
        let crash = CrashLog(log: "error: " + line + "\n")
        #expect(crash.crashedXCTests == tests)
        #expect(crash.signal == 4)
    }

    @Test func theCrashedThreadEndsAtTheNextThreadTheRegistersOrAnEllipsis() {
        for end in ["Thread 1:", "Registers:", "..."] {
            let log = """
                Thread 0:
                0  main + 12 in Tiny
                Thread 4 "Tests" crashed:
                0  ArithmeticTests.adds() + 165 in TinyPackageTests
                1  closure in Runner.run() + 20 in Testing
                \(end)
                0  SuiteTests.other() + 3 in TinyPackageTests
                """
            let crash = CrashLog(log: log)
            #expect(crash.crashedFrames == ["0  ArithmeticTests.adds() + 165 in TinyPackageTests", "1  closure in Runner.run() + 20 in Testing"],
                    "ended by \(end)")
            #expect(crash.crashedThreadRan("TinyTests.ArithmeticTests/adds()"))
            #expect(!crash.crashedThreadRan("TinyTests.SuiteTests/other()"), "a frame after \(end) is another thread's")
        }
    }

    /// Only a thread's header starts the crashed thread, not any line that
    /// ends like one.
    @Test func aLineThatOnlyEndsLikeAThreadHeaderStartsNothing() {
        let log = """
            the helper crashed:
            0  Helper.run() + 3 in Tiny
            Thread 2 crashed:
            0  ArithmeticTests.adds() + 165 in TinyPackageTests
            Registers:
            """
        #expect(CrashLog(log: log).crashedFrames == ["0  ArithmeticTests.adds() + 165 in TinyPackageTests"])
    }

    @Test func anIdWithoutASuiteNamesNoCrashedTest() {
        let crash = CrashLog(crashedFrames: ["0  adds() + 1 in Tiny"])
        #expect(!crash.crashedThreadRan("adds()"))
        #expect(!crash.crashedThreadRan(""))
        #expect(CrashLog(crashedFrames: ["0  Suite.adds() + 1 in Tiny"]).crashedThreadRan("M.Suite/adds()"))
    }
}
