import Foundation
import Testing
import MutationHarness
import TestSupport

/// `mutate explore` and `promote` end to end on the fixture package: a
/// serialized suite with a scratch copy of its own (see `HarnessInterruptTests`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MUTATE_RUNNING"] == nil, "skipped inside a mutate run"),
       .serialized, .ownThread)
struct HarnessExploreTests {
    /// Built once, kept between test runs under `.build/test-scratch`, like
    /// `HarnessEndToEndTests.sharedScratch`.
    static let sharedScratch = TestScratch.root.appendingPathComponent("shared-explore-scratch", isDirectory: true)

    private func harness(_ arguments: [String], in folder: URL) -> (HarnessExitCode, String) {
        let output = OutputBox()
        let code = Harness(workingDirectory: folder, print: { output.append($0) })
            .main(arguments + ["--scratch", Self.sharedScratch.path, "--wait"])
        return (code, output.text)
    }

    @Test func exploreGeneratesRunsIgnoresSkipsAndPromotes() throws {
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            // --list: every generated mutant, none from the marked function or the string.
            var (code, console) = harness(["explore", "--list", "--package-path", "Tiny"], in: scratch.url)
            #expect(code == .passed, "\(console)")
            let listed = console.split(separator: "\n").filter { $0.contains("Sources/Tiny/Arithmetic.swift:") }
            #expect(listed.count == 6, "\(listed)")
            #expect(!console.contains(":21:"), "the function under `// mutate: skip` is not mutated")
            let boundary = try #require(listed.first { $0.contains("relational-boundary  > -> >=") })
            let boundaryID = String(boundary.prefix(8))
            let plus = try #require(listed.first { $0.contains("arithmetic  + -> -") })
            let plusID = String(plus.prefix(8))

            // The boundary mutant of `while current > 0` is equivalent: ignore it with a reason.
            try scratch.write("Tiny/mutants/explore-ignore", "\(boundaryID)  equivalent: with current == 0 the loop adds nothing\n")
            (code, console) = harness(["explore", "--package-path", "Tiny", "--timeout", "20"], in: scratch.url)
            #expect(code == .passed, "explore reports; it gates only with --threshold: \(console)")
            #expect(console.contains("Mutants: 5 killed, 1 ignored"), "\(console)")
            let report = try ReportWriter.read(from: package.appendingPathComponent(".build/mutation-report/explore"))
            #expect(report.mutants.first { $0.name == boundaryID }?.status == .ignored)
            #expect(report.mutants.first { $0.name == boundaryID }?.reason == "equivalent: with current == 0 the loop adds nothing")
            #expect(report.mutants.first { $0.name == plusID }?.status == .killed)
            let json = try String(contentsOf: package.appendingPathComponent(".build/mutation-report/explore/report.json"), encoding: .utf8)
            #expect(json.contains("\"Ignored\""))

            // --in-diff: only the lines changed since HEAD.
            try git(["init", "-q"], in: package)
            try git(["add", "-A"], in: package)
            try git(["commit", "-q", "-m", "fixture"], in: package)
            let source = package.appendingPathComponent("Sources/Tiny/Arithmetic.swift")
            try (try String(contentsOf: source, encoding: .utf8)).replacingOccurrences(of: "var total = 0", with: "var total = 0 ")
                .write(to: source, atomically: true, encoding: .utf8)
            (code, console) = harness(["explore", "--list", "--in-diff", "HEAD", "--package-path", "Tiny"], in: scratch.url)
            #expect(console.contains("1 mutant(s) generated"), "\(console)")
            #expect(console.contains("integer-literal  0 -> 1"))
            try git(["checkout", "--", "."], in: package)

            // promote: the generated mutant becomes a named one that check and the gate accept.
            (code, console) = harness(["promote", plusID, "add-subtracts-again", "--description", "add subtracts", "--package-path", "Tiny"],
                                      in: scratch.url)
            #expect(code == .passed, "\(console)")
            let patch = try String(contentsOf: package.appendingPathComponent("mutants/add-subtracts-again.patch"), encoding: .utf8)
            #expect(patch.hasPrefix("Mutant: add-subtracts-again\nDescription: add subtracts\nPromoted-From: explore \(plusID)"))
            let check = OutputBox()
            _ = Harness(workingDirectory: scratch.url, print: { check.append($0) }).main(["check", "--package-path", "Tiny"])
            #expect(check.text.contains("ok     add-subtracts-again"))
        }
    }
}
