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

extension ExecutableCoverageTests {
    /// What `llvm-cov export` reads besides the test executable: every other
    /// program of the build folder (a test may start one), and nothing else:
    /// not the test executable itself, not a folder, not a file that cannot
    /// run, nothing with a dot in its name (libraries, bundles, build records).
    @Test func theProgramsBesideTheTestExecutableAreReadWithIt() throws {
        try withScratch { scratch in
            for name in ["collector", "analytics-fault-child", "Tests", "libTiny.so", "TinyPackageTests.xctest"] {
                try scratch.writeExecutable("debug/\(name)", "#!/bin/sh\n")
            }
            try scratch.write("debug/description.json", "{}")
            try scratch.write("debug/notes", "not a program")
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("debug/Modules"), withIntermediateDirectories: true)
            let folder = scratch.url.appendingPathComponent("debug")
            // The test executable, named here without a dot: it is left out by its path.
            let binary = TestBinary(path: folder.appendingPathComponent("Tests").path)
            #expect(CoveragePass.executables(besides: binary, in: folder)
                == ["analytics-fault-child", "collector"].map { folder.appendingPathComponent($0).path })
            #expect(CoveragePass.executables(besides: binary, in: scratch.url.appendingPathComponent("no-such-folder")).isEmpty)
        }
    }
}
