import Foundation
import Testing
import MutationHarness
import TestSupport

/// A package the harness cannot start from (it does not build, runs no test
/// or is red) stops at the baseline: the real harness on copies of the
/// fixture, a serialized suite with a scratch copy of its own (see
/// `HarnessInterruptTests`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MUTATE_RUNNING"] == nil, "skipped inside a mutate run"),
       .serialized, .ownThread)
struct HarnessBaselineTests {
    /// Built once, kept between test runs under `.build/test-scratch`, like
    /// `HarnessEndToEndTests.sharedScratch`.
    static let sharedScratch = TestScratch.root.appendingPathComponent("shared-baseline-scratch", isDirectory: true)

    private func run(_ arguments: [String], in scratch: Scratch) -> (HarnessExitCode, String) {
        runHarness(arguments, in: scratch, sharedScratch: Self.sharedScratch)
    }

    @Test func aPackageThatDoesNotBuildOrHasNoTestsStopsAtTheBaseline() throws {
        try withScratch { scratch in
            let broken = try copyFixture(to: scratch, as: "Broken")
            try Data("public let oops: Int = \"not an int\"\n".utf8)
                .write(to: broken.appendingPathComponent("Sources/Tiny/Broken.swift"))
            var (code, console) = run(["--package-path", "Broken", "--mutant", "add-subtracts"], in: scratch)
            #expect(code == .baselineFailed)
            #expect(console.contains("the unmutated package does not build"))

            let empty = try copyFixture(to: scratch, as: "NoTests")
            for file in ["ArithmeticTests.swift", "LegacyTests.swift", "IsolationTests.swift"] {
                try FileManager.default.removeItem(at: empty.appendingPathComponent("Tests/TinyTests/\(file)"))
            }
            try Data("import Tiny\n".utf8).write(to: empty.appendingPathComponent("Tests/TinyTests/Empty.swift"))
            (code, console) = run(["--package-path", "NoTests", "--mutant", "add-subtracts"], in: scratch)
            #expect(code == .baselineFailed)
            #expect(console.contains("ran no test"))

            let red = try copyFixture(to: scratch, as: "Red")
            try Data("import Testing\n@Test func alwaysFails() { #expect(1 == 2) }\n".utf8)
                .write(to: red.appendingPathComponent("Tests/TinyTests/Red.swift"))
            (code, console) = run(["--package-path", "Red", "--mutant", "add-subtracts"], in: scratch)
            #expect(code == .baselineFailed)
            #expect(console.contains("the unmutated suite is red; fix these tests first: TinyTests/alwaysFails()"))
        }
    }
}
